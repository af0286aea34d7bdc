//! The one price table (USD per million tokens, docs/report.md "Prices"), model-id matching, user
//! overrides from a JSON price file or baton's config, and the cost of a token count.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::tokens::TokenCounts;
use crate::error::{Error, Result};

/// A request whose input (fresh + cache write + cache read) exceeds this is billed at the
/// long-context rate where the model has one (Sonnet 4/4.5 with the 1M beta).
pub const LONG_CONTEXT_THRESHOLD: u64 = 200_000;

/// Largest price file baton reads.
const MAX_PRICE_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// The highest price a user may set, in USD per million tokens: over ten times the dearest
/// rate in the table (75). Anything above is a typo (or another unit), not a price.
const MAX_PRICE: f64 = 1000.0;

/// USD per million tokens for each kind of token.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Rates {
    pub input: f64,
    pub output: f64,
    pub cache_write_5m: f64,
    pub cache_write_1h: f64,
    pub cache_read: f64,
}

/// A model's prices: the standard rates and, for some models, the long-context rates.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ModelPrice {
    #[serde(flatten)]
    pub standard: Rates,
    pub long_context: Option<Rates>,
}

const fn rates(input: f64, cache_write_5m: f64, cache_write_1h: f64, cache_read: f64, output: f64) -> Rates {
    Rates {
        input,
        output,
        cache_write_5m,
        cache_write_1h,
        cache_read,
    }
}

const OPUS_4_5: Rates = rates(5.0, 6.25, 10.0, 0.50, 25.0);
const OPUS_4: Rates = rates(15.0, 18.75, 30.0, 1.50, 75.0);
const SONNET_4: Rates = rates(3.0, 3.75, 6.0, 0.30, 15.0);
const SONNET_4_LONG: Rates = rates(6.0, 7.50, 12.0, 0.60, 22.50);
const HAIKU_4_5: Rates = rates(1.0, 1.25, 2.0, 0.10, 5.0);

/// The built-in table, keyed by model family (see [`model_key`]); docs/report.md shows it with its source.
const BUILT_IN: &[(&str, Rates, Option<Rates>)] = &[
    ("claude-opus-4-8", OPUS_4_5, None),
    ("claude-opus-4-7", OPUS_4_5, None),
    ("claude-opus-4-6", OPUS_4_5, None),
    ("claude-opus-4-5", OPUS_4_5, None),
    ("claude-opus-4-1", OPUS_4, None),
    ("claude-opus-4", OPUS_4, None),
    ("claude-sonnet-4-6", SONNET_4, None),
    ("claude-sonnet-4-5", SONNET_4, Some(SONNET_4_LONG)),
    ("claude-sonnet-4", SONNET_4, Some(SONNET_4_LONG)),
    ("claude-haiku-4-5", HAIKU_4_5, None),
];

/// Where the prices in force came from, for the report's footnote.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct PriceSources {
    /// Files or config keys whose entries override the built-in table, in order applied.
    pub overrides: Vec<String>,
}

/// The price table in force: built-in entries, then user overrides by model family.
#[derive(Debug, Clone)]
pub struct PriceTable {
    entries: BTreeMap<String, ModelPrice>,
    pub sources: PriceSources,
}

impl Default for PriceTable {
    fn default() -> Self {
        let entries = BUILT_IN
            .iter()
            .map(|(key, standard, long_context)| {
                let price = ModelPrice {
                    standard: *standard,
                    long_context: *long_context,
                };
                ((*key).to_owned(), price)
            })
            .collect();
        Self {
            entries,
            sources: PriceSources::default(),
        }
    }
}

impl PriceTable {
    /// The price of `model` (any spelling [`model_key`] understands); `None` when unknown.
    pub fn price(&self, model: &str) -> Option<&ModelPrice> {
        self.entries.get(&model_key(model))
    }

    /// Applies a price map (`{"model": {"input": 3, "output": 15, …}}`) over the table.
    /// `source` names where it came from, for errors and the report.
    pub fn apply(&mut self, map: &Value, source: &str) -> Result<()> {
        let Some(object) = map.as_object() else {
            return Err(Error::Failed(format!(
                "{source}: prices must be a JSON object of model ids, e.g. \
                 {{\"claude-sonnet-4-5\": {{\"input\": 3, \"output\": 15}}}}"
            )));
        };
        for (model, value) in object {
            let entry: PriceEntry = serde_json::from_value(value.clone()).map_err(|e| {
                Error::because(format!("{source}: the price of {model} is not valid"), e).advised(
                    "; give numbers in USD per million tokens: input, output, and optionally cache_write_5m, \
                     cache_write_1h, cache_read, long_context",
                )
            })?;
            if let Some((field, value)) = entry.implausible() {
                return Err(Error::Failed(format!(
                    "{source}: the price of {model}: {field} is {value}; give USD per million tokens, \
                     from 0 to {MAX_PRICE}"
                )));
            }
            self.entries.insert(model_key(model), entry.into_price());
        }
        self.sources.overrides.push(source.to_owned());
        Ok(())
    }

    /// Reads a JSON price file and applies it.
    pub fn apply_file(&mut self, path: &Path) -> Result<()> {
        let bytes = crate::fsx::read_regular(path, MAX_PRICE_FILE_BYTES).map_err(|e| Error::io(path, e))?;
        let map: Value = serde_json::from_slice(&bytes).map_err(|e| {
            Error::invalid(
                path,
                format!("not JSON ({e}); see `baton report --help` for the format"),
            )
            .caused_by(e)
        })?;
        // A file may hold the map itself or `{"prices": {…}}` like baton's config.
        let map = map.get("prices").cloned().unwrap_or(map);
        self.apply(&map, &path.display().to_string())
    }
}

/// One model's prices as a user writes them; cache rates default to Anthropic's multiples
/// of the input rate (write 5m ×1.25, write 1h ×2, read ×0.1).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PriceEntry {
    input: f64,
    output: f64,
    cache_write_5m: Option<f64>,
    cache_write_1h: Option<f64>,
    cache_read: Option<f64>,
    long_context: Option<Box<PriceEntry>>,
}

impl PriceEntry {
    /// The first field that is not a price (negative, not finite, above [`MAX_PRICE`]).
    fn implausible(&self) -> Option<(String, f64)> {
        let fields = [
            ("input", Some(self.input)),
            ("output", Some(self.output)),
            ("cache_write_5m", self.cache_write_5m),
            ("cache_write_1h", self.cache_write_1h),
            ("cache_read", self.cache_read),
        ];
        let own = fields.into_iter().find_map(|(name, value)| {
            let value = value?;
            (!(0.0..=MAX_PRICE).contains(&value)).then(|| (name.to_owned(), value))
        });
        own.or_else(|| {
            let (field, value) = self.long_context.as_ref()?.implausible()?;
            Some((format!("long_context.{field}"), value))
        })
    }

    fn rates(&self) -> Rates {
        Rates {
            input: self.input,
            output: self.output,
            cache_write_5m: self.cache_write_5m.unwrap_or(self.input * 1.25),
            cache_write_1h: self.cache_write_1h.unwrap_or(self.input * 2.0),
            cache_read: self.cache_read.unwrap_or(self.input * 0.1),
        }
    }

    fn into_price(self) -> ModelPrice {
        ModelPrice {
            standard: self.rates(),
            long_context: self.long_context.as_ref().map(|l| l.rates()),
        }
    }
}

/// The family key of a model id: lower case, from `claude-` on, without a provider prefix
/// (`us.anthropic.`), a date (`-20251101`, `@20250929`), a version (`-v1:0`), `[1m]` or
/// `-latest`. `claude-opus-4-5-20251101` → `claude-opus-4-5`. Other ids are only lower-cased.
pub fn model_key(model: &str) -> String {
    let lower = model.trim().to_ascii_lowercase();
    let Some(start) = lower.find("claude-") else {
        return lower;
    };
    let mut key = &lower[start..];
    if let Some(cut) = key.find(['@', '[', ':']) {
        key = &key[..cut];
    }
    for suffix in ["-latest", "-v1", "-v2"] {
        key = key.strip_suffix(suffix).unwrap_or(key);
    }
    if let Some((head, date)) = key.rsplit_once('-')
        && date.len() == 8
        && date.bytes().all(|b| b.is_ascii_digit())
    {
        key = head;
    }
    key.to_owned()
}

impl ModelPrice {
    /// The cost in USD of `standard` tokens plus `long_context` tokens (requests above
    /// [`LONG_CONTEXT_THRESHOLD`]); without long-context rates both use the standard ones.
    pub fn cost(&self, standard: &TokenCounts, long_context: &TokenCounts) -> f64 {
        let long_rates = self.long_context.as_ref().unwrap_or(&self.standard);
        cost_at(&self.standard, standard) + cost_at(long_rates, long_context)
    }
}

fn cost_at(rates: &Rates, tokens: &TokenCounts) -> f64 {
    (tokens.input as f64 * rates.input
        + tokens.output as f64 * rates.output
        + tokens.cache_write_5m as f64 * rates.cache_write_5m
        + tokens.cache_write_1h as f64 * rates.cache_write_1h
        + tokens.cache_read as f64 * rates.cache_read)
        / 1_000_000.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tokens(input: u64, output: u64, w5: u64, w1: u64, read: u64) -> TokenCounts {
        TokenCounts {
            input,
            output,
            cache_write_5m: w5,
            cache_write_1h: w1,
            cache_read: read,
        }
    }

    #[test]
    fn model_ids_reduce_to_their_family() {
        for (id, key) in [
            ("claude-opus-4-5-20251101", "claude-opus-4-5"),
            ("claude-sonnet-4-5", "claude-sonnet-4-5"),
            ("claude-sonnet-4-5-20250929", "claude-sonnet-4-5"),
            ("claude-sonnet-4-20250514", "claude-sonnet-4"),
            ("claude-opus-4-20250514", "claude-opus-4"),
            ("claude-opus-4-1", "claude-opus-4-1"),
            ("Claude-Haiku-4-5-20251001", "claude-haiku-4-5"),
            ("us.anthropic.claude-sonnet-4-5-20250929-v1:0", "claude-sonnet-4-5"),
            ("claude-sonnet-4-5@20250929", "claude-sonnet-4-5"),
            ("claude-sonnet-4-5[1m]", "claude-sonnet-4-5"),
            ("claude-opus-4-8", "claude-opus-4-8"),
            ("gpt-5", "gpt-5"),
        ] {
            assert_eq!(model_key(id), key, "{id}");
        }
    }

    #[test]
    fn the_table_prices_each_family_as_the_readme_shows() {
        let table = PriceTable::default();
        let opus = table.price("claude-opus-4-5-20251101").unwrap();
        assert_eq!(opus.standard, rates(5.0, 6.25, 10.0, 0.5, 25.0));
        assert_eq!(table.price("claude-opus-4-1").unwrap().standard.output, 75.0);
        assert_eq!(table.price("claude-opus-4-20250514").unwrap().standard.input, 15.0);
        assert_eq!(table.price("claude-haiku-4-5").unwrap().standard.cache_read, 0.1);
        assert!(table.price("claude-sonnet-4-5").unwrap().long_context.is_some());
        assert!(table.price("claude-sonnet-4-6").unwrap().long_context.is_none());
        assert!(table.price("claude-3-opus-20240229").is_none());
        assert!(table.price("<synthetic>").is_none());
    }

    #[test]
    fn the_guide_table_is_the_built_in_table() {
        let page = include_str!("../../docs/report.md");
        let table = PriceTable::default();
        let mut rows = 0;
        for line in page.lines().filter(|l| l.starts_with("| claude-")) {
            let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
            let [models, input, w5, w1, read, output] = cells[..] else {
                panic!("{line}")
            };
            let number = |c: &str| c.parse::<f64>().unwrap();
            let want = rates(number(input), number(w5), number(w1), number(read), number(output));
            // `claude-opus-4-5, 4-6` names claude-opus-4-5 and claude-opus-4-6.
            let (names, long) = models.split_once(" above ").map_or((models, false), |(n, _)| (n, true));
            let mut names = names.split(", ");
            let first = names.next().unwrap();
            let family = first.match_indices('-').nth(1).map_or(0, |(at, _)| at + 1);
            for version in std::iter::once(&first[family..]).chain(names) {
                let model = format!("{}{version}", &first[..family]);
                let price = table
                    .price(&model)
                    .unwrap_or_else(|| panic!("{model} is not in the table"));
                let got = if long {
                    price.long_context.unwrap()
                } else {
                    price.standard
                };
                assert_eq!(got, want, "{model}");
                rows += 1;
            }
        }
        assert_eq!(rows, BUILT_IN.len() + 2, "every family, and the two long-context ones");
    }

    #[test]
    fn cost_sums_every_kind_of_token_at_its_rate() {
        let sonnet = PriceTable::default().price("claude-sonnet-4-5").copied().unwrap();
        // 1M of each kind: 3 + 15 + 3.75 + 6 + 0.30.
        let m = 1_000_000;
        let got = sonnet.cost(&tokens(m, m, m, m, m), &TokenCounts::default());
        assert!((got - 28.05).abs() < 1e-9, "{got}");
        // Long-context requests: 6 input, 22.50 output.
        let got = sonnet.cost(&TokenCounts::default(), &tokens(m, m, 0, 0, 0));
        assert!((got - 28.5).abs() < 1e-9, "{got}");
        // Without long-context rates the long share is billed at the standard rates.
        let haiku = PriceTable::default().price("claude-haiku-4-5").copied().unwrap();
        let got = haiku.cost(&tokens(m, 0, 0, 0, 0), &tokens(m, 0, 0, 0, 0));
        assert!((got - 2.0).abs() < 1e-9, "{got}");
    }

    #[test]
    fn overrides_replace_a_family_and_fill_cache_rates_from_the_input_rate() {
        let mut table = PriceTable::default();
        table
            .apply(
                &json!({"claude-opus-4-5-20251101": {"input": 4, "output": 20},
                        "my-local-model": {"input": 1, "output": 2, "cache_read": 0.01,
                                           "long_context": {"input": 2, "output": 4}}}),
                "prices.json",
            )
            .unwrap();
        let opus = table.price("claude-opus-4-5").unwrap();
        assert_eq!(opus.standard, rates(4.0, 5.0, 8.0, 0.4, 20.0));
        let local = table.price("My-Local-Model").unwrap();
        assert_eq!(local.standard.cache_read, 0.01);
        assert_eq!(local.long_context.unwrap().input, 2.0);
        assert_eq!(table.sources.overrides, vec!["prices.json".to_owned()]);
        // Untouched families keep the built-in prices.
        assert_eq!(table.price("claude-haiku-4-5").unwrap().standard.input, 1.0);
    }

    #[test]
    fn bad_overrides_say_what_to_write() {
        let mut table = PriceTable::default();
        let err = table
            .apply(&json!({"claude-opus-4-5": {"input": "cheap"}}), "cfg")
            .unwrap_err();
        assert!(err.to_string().contains("USD per million tokens"), "{err}");
        let err = table.apply(
            &json!({"claude-opus-4-5": {"input": 1, "output": 2, "inptu": 3}}),
            "cfg",
        );
        assert!(err.is_err());
        assert!(table.apply(&json!([1, 2]), "cfg").is_err());
        for (prices, says) in [
            (
                json!({"claude-opus-4-5": {"input": -1, "output": 2}}),
                "claude-opus-4-5: input is -1",
            ),
            (
                json!({"m": {"input": 1, "output": 2, "cache_read": 1e9}}),
                "m: cache_read is 1000000000",
            ),
            (
                json!({"m": {"input": 1, "output": 2, "long_context": {"input": 2, "output": -0.5}}}),
                "m: long_context.output is -0.5",
            ),
        ] {
            let err = table.apply(&prices, "prices.json").unwrap_err().to_string();
            assert!(err.contains(says) && err.contains("from 0 to 1000"), "{err}");
        }
        assert_eq!(
            table.price("claude-opus-4-5").unwrap().standard.input,
            5.0,
            "nothing applied"
        );
    }
}
