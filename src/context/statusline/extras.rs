//! The optional segments, from the payload and the session's compaction count: session cost,
//! duration, subscription usage limits (`5h 42% ↻1h20m`), the prompt cache (`cache 3m`, `cache
//! cold`) and compactions so far. A field that is absent, `null`, negative or absurd shows
//! nothing; the segment is left out rather than showing a wrong figure.

use crate::clock::short_span;
use crate::context::fills::Item;
use crate::context::window::short_tokens;
use crate::hook::payload::{Cost, PromptCache, RateLimit, RateLimits};

use super::layout::{Extra, level_color};

/// Larger costs, spans and percentages than these are not believed (the client caps a usage
/// limit's percentage at 100).
const MAX_COST_USD: f64 = 1e7;
const MAX_SPAN_SECS: f64 = 400.0 * 86_400.0;
const MAX_PERCENT: f64 = 100.0;

/// The session's cost: `$0.45`, `$123`.
pub fn cost(cost: Option<&Cost>) -> Option<Extra> {
    let usd = cost?.total_cost_usd.filter(|c| *c < MAX_COST_USD)?;
    let text = if usd < 100.0 {
        format!("${usd:.2}")
    } else {
        format!("${usd:.0}")
    };
    Some(dim(text))
}

/// The session's duration: `12m`, `1h20m`.
pub fn duration(cost: Option<&Cost>) -> Option<Extra> {
    let secs = cost?.total_duration_ms? / 1000.0;
    (secs < MAX_SPAN_SECS).then(|| dim(short_span(secs as u64)))
}

/// The usage limits the payload has: `5h 42% ↻1h20m · 7d 12% ↻3d4h`, coloured by the fuller.
pub fn limits(limits: Option<&RateLimits>, now: u64) -> Option<Extra> {
    let limits = limits?;
    let windows = [("5h", limits.five_hour.as_ref()), ("7d", limits.seven_day.as_ref())];
    let mut parts = Vec::new();
    let mut fullest = 0u8;
    for (label, window) in windows {
        let Some((percent, resets)) = window.and_then(|w| limit_window(w, now)) else {
            continue;
        };
        fullest = fullest.max(percent.min(100) as u8);
        parts.push(match resets {
            Some(span) => format!("{label} {percent}% ↻{span}"),
            None => format!("{label} {percent}%"),
        });
    }
    (!parts.is_empty()).then(|| Extra {
        text: parts.join(" · "),
        color: level_color(fullest),
    })
}

/// A window's rounded percentage and the time until it resets (when still ahead).
fn limit_window(window: &RateLimit, now: u64) -> Option<(u64, Option<String>)> {
    let percent = window.used_percentage.filter(|p| *p <= MAX_PERCENT)?.round() as u64;
    let resets = window
        .resets_at
        .map(|at| at - now as f64)
        .filter(|left| (1.0..MAX_SPAN_SECS).contains(left))
        .map(|left| short_span(left as u64));
    Some((percent, resets))
}

/// The prompt cache: `cache 3m` while warm (time until it expires), `cache cold` once a cold
/// cache would re-bill the whole context; nothing when the provider reports no caching.
pub fn cache(cache: Option<&PromptCache>, now: u64) -> Option<Extra> {
    let cache = cache?;
    if cache.caching_observed != Some(true) {
        return None;
    }
    let left = cache.expires_at.map(|at| at - now as f64);
    match (cache.warm, left) {
        // An expiry beyond any TTL is not believed: warm, for how long unknown.
        (Some(true), None) => Some(dim("cache warm".to_owned())),
        (Some(true), Some(left)) if left >= MAX_SPAN_SECS => Some(dim("cache warm".to_owned())),
        (Some(true), Some(left)) if left >= 1.0 => {
            let secs = if left >= 60.0 {
                left as u64 / 60 * 60
            } else {
                left as u64
            };
            Some(dim(format!("cache {}", short_span(secs))))
        }
        _ => Some(Extra {
            text: "cache cold".to_owned(),
            color: "33",
        }),
    }
}

/// Compactions so far in the session; nothing before the first.
pub fn compactions(count: u32) -> Option<Extra> {
    match count {
        0 => None,
        1 => Some(dim("1 compaction".to_owned())),
        n => Some(dim(format!("{n} compactions"))),
    }
}

/// The live context's largest item, by its short name: `Read ledger_dump.sql 31k`.
pub fn largest(items: &[Item]) -> Option<Extra> {
    let item = items.first()?;
    Some(dim(format!(
        "{} {}",
        item.short_name(),
        short_tokens(item.tokens.max(0) as u64)
    )))
}

fn dim(text: String) -> Extra {
    Extra { text, color: "2" }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(extra: Option<Extra>) -> Option<String> {
        extra.map(|e| e.text)
    }

    #[test]
    fn cost_and_duration_read_at_a_glance() {
        let c = |usd, ms| Cost {
            total_cost_usd: usd,
            total_duration_ms: ms,
        };
        assert_eq!(text(cost(Some(&c(Some(0.4503), None)))).as_deref(), Some("$0.45"));
        assert_eq!(text(cost(Some(&c(Some(123.456), None)))).as_deref(), Some("$123"));
        assert_eq!(text(cost(Some(&c(Some(1e300), None)))), None);
        assert_eq!(
            text(duration(Some(&c(None, Some(4_800_000.0))))).as_deref(),
            Some("1h20m")
        );
        assert_eq!(text(duration(Some(&c(None, Some(1e300))))), None);
        assert_eq!(text(cost(None)), None);
    }

    #[test]
    fn limits_show_what_the_payload_has() {
        let now = 1_796_000_000;
        let window = |p: Option<f64>, at: Option<f64>| RateLimit {
            used_percentage: p,
            resets_at: at,
        };
        let both = RateLimits {
            five_hour: Some(window(Some(42.4), Some((now + 4_800) as f64))),
            seven_day: Some(window(Some(81.0), Some((now + 3 * 86_400 + 4 * 3600) as f64))),
        };
        let shown = limits(Some(&both), now).unwrap();
        assert_eq!(shown.text, "5h 42% ↻1h20m · 7d 81% ↻3d4h");
        assert_eq!(shown.color, level_color(81));
        let past = RateLimits {
            five_hour: Some(window(Some(10.0), Some((now - 5) as f64))),
            seven_day: Some(window(None, Some(1.0))),
        };
        assert_eq!(text(limits(Some(&past), now)).as_deref(), Some("5h 10%"));
        let full = RateLimits {
            five_hour: Some(window(Some(100.0), None)),
            seven_day: Some(window(Some(100.1), None)),
        };
        assert_eq!(
            text(limits(Some(&full), now)).as_deref(),
            Some("5h 100%"),
            "over 100: not believed"
        );
        assert_eq!(text(limits(Some(&RateLimits::default()), now)), None);
        assert_eq!(text(limits(None, now)), None);
    }

    #[test]
    fn cache_is_warm_for_a_while_then_cold() {
        let now = 1_796_061_140;
        let c = |warm, observed, at: Option<u64>| PromptCache {
            warm,
            caching_observed: observed,
            expires_at: at.map(|a| a as f64),
        };
        assert_eq!(
            text(cache(Some(&c(Some(true), Some(true), Some(now + 300))), now)).as_deref(),
            Some("cache 5m")
        );
        assert_eq!(
            text(cache(Some(&c(Some(true), Some(true), Some(now + 200))), now)).as_deref(),
            Some("cache 3m")
        );
        assert_eq!(
            text(cache(Some(&c(Some(true), Some(true), Some(now + 40))), now)).as_deref(),
            Some("cache 40s")
        );
        let cold = cache(Some(&c(Some(true), Some(true), Some(now - 1))), now).unwrap();
        assert_eq!(
            (cold.text.as_str(), cold.color),
            ("cache cold", "33"),
            "expired since the reply"
        );
        assert_eq!(
            text(cache(Some(&c(Some(false), Some(true), None)), now)).as_deref(),
            Some("cache cold")
        );
        assert_eq!(
            text(cache(Some(&c(Some(false), Some(false), None)), now)),
            None,
            "no caching reported"
        );
        assert_eq!(text(cache(None, now)), None);
    }

    #[test]
    fn compactions_count_from_the_first() {
        assert_eq!(text(compactions(0)), None);
        assert_eq!(text(compactions(1)).as_deref(), Some("1 compaction"));
        assert_eq!(text(compactions(3)).as_deref(), Some("3 compactions"));
    }
}
