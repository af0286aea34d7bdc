//! Where Claude Code compacts: the token count its own context indicator counts toward, in
//! the two regimes the client has (checked on 2.1.332, probe/FINDINGS.md §4).
//!
//! - *Enforced*: the client compacts once a reply reports `used ≥ T`, with
//!   `T = E − 13,000`, or `min(floor(E·p/100), E − 13,000)` under
//!   `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE=p`; its footer reads "N% until auto-compact".
//! - *Not enforced*: no proactive compaction (the client waits for the API's prompt-too-long);
//!   its footer reads "N% context used", counted toward `E`.
//!
//! `E = W − reserve` (the client's output reserve: 20,000, or `CLAUDE_CODE_MAX_OUTPUT_TOKENS`
//! when lower), and `W` the model's window, lowered by `CLAUDE_CODE_AUTO_COMPACT_WINDOW` (at
//! least 100,000).

use crate::config::Config;

/// The client's summary buffer: enforced compaction fires this far below `E`.
const SUMMARY_BUFFER: u64 = 13_000;
/// The smallest auto-compact window the client accepts; smaller values count as this.
const MIN_AUTO_COMPACT_WINDOW: u64 = 100_000;

/// Whether the client compacts on its own at a threshold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Regime {
    /// Compacts at `T`; the footer counts down "N% until auto-compact".
    Enforced,
    /// Waits for the API to refuse; the footer shows "N% context used" of `E`.
    NotEnforced,
}

/// What the client was told about auto-compaction: its environment (hooks and the statusline
/// inherit it), and baton's config for the settings a hook cannot see (`autoCompactWindow`,
/// `autoCompactEnabled`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CompactionSettings {
    /// `CLAUDE_CODE_AUTO_COMPACT_WINDOW`, else baton's `auto_compact_window`.
    pub auto_compact_window: Option<u64>,
    /// `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE` when in (0, 100].
    pub pct_override: Option<f64>,
    /// `CLAUDE_CODE_MAX_OUTPUT_TOKENS`: the client reserves the smaller of it and 20,000.
    pub max_output_tokens: Option<u64>,
    /// `DISABLE_AUTO_COMPACT`/`DISABLE_COMPACT`, or baton's `"auto_compact": false`.
    pub disabled: bool,
}

impl CompactionSettings {
    /// From the process environment, then `config`.
    pub fn from_env(config: &Config) -> Self {
        let var = |name: &str| std::env::var(name).ok();
        let mut settings = Self::from_values(
            var("CLAUDE_CODE_AUTO_COMPACT_WINDOW").as_deref(),
            var("CLAUDE_AUTOCOMPACT_PCT_OVERRIDE").as_deref(),
            ["DISABLE_AUTO_COMPACT", "DISABLE_COMPACT"]
                .iter()
                .any(|name| var(name).is_some_and(|v| truthy(&v))),
            config,
        );
        settings.max_output_tokens = var("CLAUDE_CODE_MAX_OUTPUT_TOKENS")
            .as_deref()
            .and_then(parse_max_output);
        settings
    }

    fn from_values(window: Option<&str>, pct: Option<&str>, env_disabled: bool, config: &Config) -> Self {
        Self {
            auto_compact_window: window.and_then(parse_window).or(config.auto_compact_window()),
            // The client reads it with JavaScript's parseFloat: `50%` is 50.
            pct_override: pct
                .and_then(|p| leading_number(p, true))
                .filter(|p| *p > 0.0 && *p <= 100.0),
            disabled: env_disabled || config.auto_compact() == Some(false),
            max_output_tokens: None,
        }
    }
}

/// The number a text starts with (after spaces), as JavaScript's `parseFloat` (`fraction`) or
/// `parseInt(…, 10)` reads it: `50%` is 50, `8000 tokens` is 8000; `None` without digits.
fn leading_number(text: &str, fraction: bool) -> Option<f64> {
    let text = text.trim_start();
    let mut end = usize::from(text.starts_with(['+', '-']));
    let digits = |from: usize| from + text[from..].bytes().take_while(u8::is_ascii_digit).count();
    end = digits(end);
    if fraction && text[end..].starts_with('.') {
        end = digits(end + 1);
    }
    if fraction && text[end..].starts_with(['e', 'E']) {
        let sign = usize::from(text[end + 1..].starts_with(['+', '-']));
        let exponent_end = digits(end + 1 + sign);
        if exponent_end > end + 1 + sign {
            end = exponent_end;
        }
    }
    text[..end].parse::<f64>().ok().filter(|n| n.is_finite())
}

/// `CLAUDE_CODE_MAX_OUTPUT_TOKENS` as the client reads it (a leading integer); nothing when it
/// is not a positive count (the client then keeps the model's own, at least 20,000 for every
/// model it compacts).
fn parse_max_output(text: &str) -> Option<u64> {
    leading_number(text, false).filter(|n| *n >= 1.0).map(|n| n as u64)
}

/// The client's truthy environment values.
fn truthy(value: &str) -> bool {
    matches!(value.trim().to_ascii_lowercase().as_str(), "1" | "true" | "yes" | "on")
}

/// `CLAUDE_CODE_AUTO_COMPACT_WINDOW` as the client reads it: a token count, `k`/`m` suffixes
/// allowed (`200k`, `1.5m`); values under 100,000 count as 100,000; anything else is ignored.
fn parse_window(text: &str) -> Option<u64> {
    let text = text.trim();
    let (number, scale) = match text.char_indices().last()? {
        (i, 'k' | 'K') => (&text[..i], 1_000.0),
        (i, 'm' | 'M') => (&text[..i], 1_000_000.0),
        _ => (text, 1.0),
    };
    let tokens = (number.trim().parse::<f64>().ok()? * scale).round();
    (1.0..9e15)
        .contains(&tokens)
        .then(|| (tokens as u64).max(MIN_AUTO_COMPACT_WINDOW))
}

/// The limit a session's context counts toward.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    /// Tokens at which the client's indicator reaches 100% (and, enforced, it compacts).
    pub tokens: u64,
    pub regime: Regime,
}

impl Limit {
    /// The limit for a session in `window` tokens running `model_id`, with the client's output
    /// `reserve` (a reserve over half the window is a misconfiguration and ignored).
    pub fn new(window: u64, model_id: Option<&str>, reserve: u64, settings: &CompactionSettings) -> Self {
        let reserve = settings.max_output_tokens.map_or(reserve, |max| reserve.min(max));
        let regime = if settings.disabled {
            Regime::NotEnforced
        } else if settings.auto_compact_window.is_some() || !is_reactive_model(model_id) {
            Regime::Enforced
        } else {
            Regime::NotEnforced
        };
        let window = match (regime, settings.auto_compact_window) {
            (Regime::Enforced, Some(lowered)) => lowered.min(window),
            _ => window,
        };
        let effective = if reserve < window / 2 { window - reserve } else { window };
        let tokens = match regime {
            Regime::NotEnforced => effective,
            Regime::Enforced => {
                let buffered = effective.saturating_sub(SUMMARY_BUFFER);
                match settings.pct_override {
                    Some(p) => buffered.min((effective as f64 * p / 100.0).floor() as u64),
                    None => buffered,
                }
            }
        };
        Self {
            tokens: tokens.max(1),
            regime,
        }
    }

    /// The limit for a session as baton's hooks see it: the environment and `config`.
    pub fn for_session(window: u64, model_id: Option<&str>, config: &Config) -> Self {
        let settings = CompactionSettings::from_env(config);
        Self::new(window, model_id, config.statusline().reserve_tokens, &settings)
    }

    /// The percentage Claude Code's indicator shows at `used` tokens:
    /// `100 − max(0, round(100·(limit − used)/limit))` (JavaScript's rounding), 0–100.
    pub fn indicator_percent(&self, used: u64) -> u8 {
        let left = (self.tokens as f64 - used as f64) * 100.0 / self.tokens as f64;
        let left = (left + 0.5).floor().max(0.0);
        (100.0 - left).clamp(0.0, 100.0) as u8
    }
}

/// Models the client leaves to the API's prompt-too-long (no proactive compaction): the
/// Claude 3 family, Sonnet 4, and Sonnet, Opus and Haiku 4.5. Measured on 2.1.332 against a
/// loopback mock (190,000 tokens of a 200k window went uncompacted for claude-sonnet-4-5,
/// claude-opus-4-5, claude-haiku-4-5, claude-sonnet-4-20250514, claude-3-7-sonnet-20250219,
/// claude-3-5-haiku-20241022). Every other id is taken as enforced, the side that forecasts
/// fewer requests: claude-sonnet-4-6, claude-opus-4-6/4-7/4-8, claude-opus-4-1 and
/// claude-opus-4-20250514 compacted at the threshold, and ids the client does not know
/// (claude-sonnet-9-9, glm-4.6) are enforced too ("auto-compact keeps this session within…").
/// Accepts the forms ids come in: dated (`-20250929`), `[1m]`, Bedrock (`us.anthropic.…-v1:0`),
/// Vertex (`…@20250929`).
pub fn is_reactive_model(model_id: Option<&str>) -> bool {
    let Some(id) = model_id.map(str::to_ascii_lowercase) else {
        return false;
    };
    if id.contains("claude-3-") || id.contains("claude-3.") {
        return true;
    }
    let minor_of = |family: &str| {
        let at = id.find(family)? + family.len();
        let rest = &id[at..];
        let digits: String = rest
            .strip_prefix('-')
            .unwrap_or("")
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        // `claude-sonnet-4`, `…-4@2025…`, `…-4-20250514`: the first release, 4.0.
        Some(if digits.len() >= 6 || digits.is_empty() {
            0
        } else {
            digits.parse::<u32>().ok()?
        })
    };
    match (
        minor_of("claude-sonnet-4"),
        minor_of("claude-opus-4"),
        minor_of("claude-haiku-4"),
    ) {
        (Some(minor), _, _) => matches!(minor, 0 | 5),
        (_, Some(minor), _) => minor == 5,
        (_, _, Some(minor)) => minor == 5,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limit(window: u64, model: &str, settings: &CompactionSettings) -> Limit {
        Limit::new(window, Some(model), 20_000, settings)
    }

    #[test]
    fn the_regime_follows_the_model_measured_on_the_client() {
        for reactive in [
            "claude-sonnet-4-5",
            "claude-sonnet-4-5-20250929",
            "claude-sonnet-4-5[1m]",
            "claude-opus-4-5",
            "claude-haiku-4-5-20251001",
            "claude-sonnet-4-20250514",
            "claude-sonnet-4",
            "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
            "claude-sonnet-4-5@20250929",
            "claude-3-7-sonnet-20250219",
            "claude-3-5-haiku-20241022",
        ] {
            assert!(is_reactive_model(Some(reactive)), "{reactive}");
        }
        for enforced in [
            "claude-sonnet-4-6",
            "claude-opus-4-6",
            "claude-opus-4-7",
            "claude-opus-4-8[1m]",
            "claude-opus-4-1-20250805",
            "claude-opus-4-20250514",
            "claude-sonnet-4-10",
            "claude-sonnet-9-9",
            "glm-4.6",
            "",
        ] {
            assert!(!is_reactive_model(Some(enforced)), "{enforced}");
        }
        assert!(!is_reactive_model(None), "unknown: enforced");
    }

    #[test]
    fn limits_match_the_clients_measured_thresholds() {
        let none = CompactionSettings::default();
        // Not enforced: the footer counts toward E = W − 20k.
        let l = limit(200_000, "claude-sonnet-4-5", &none);
        assert_eq!((l.tokens, l.regime), (180_000, Regime::NotEnforced));
        assert_eq!(limit(1_000_000, "claude-sonnet-4-5[1m]", &none).tokens, 980_000);
        // Enforced by model: T = E − 13k.
        let l = limit(200_000, "claude-sonnet-4-6", &none);
        assert_eq!((l.tokens, l.regime), (167_000, Regime::Enforced));
        assert_eq!(limit(1_000_000, "claude-opus-4-8", &none).tokens, 967_000);
        // Enforced by the window setting, for any model; small windows count as 100k.
        let window = |w| CompactionSettings {
            auto_compact_window: Some(w),
            ..CompactionSettings::default()
        };
        assert_eq!(limit(200_000, "claude-sonnet-4-5", &window(200_000)).tokens, 167_000);
        assert_eq!(limit(200_000, "claude-sonnet-4-5", &window(100_000)).tokens, 67_000);
        assert_eq!(
            limit(200_000, "claude-sonnet-4-5", &window(500_000)).tokens,
            167_000,
            "never above W"
        );
        // The percentage override lowers T: W=200k, p=50 → 90,000.
        let pct = CompactionSettings {
            auto_compact_window: Some(200_000),
            pct_override: Some(50.0),
            ..CompactionSettings::default()
        };
        assert_eq!(limit(200_000, "claude-sonnet-4-5", &pct).tokens, 90_000);
        // Turned off: nothing compacts at a threshold.
        let off = CompactionSettings { disabled: true, ..pct };
        assert_eq!(limit(200_000, "claude-sonnet-4-6", &off).regime, Regime::NotEnforced);
    }

    #[test]
    fn the_indicator_reads_like_the_clients_footer() {
        let none = CompactionSettings::default();
        // Not enforced, measured: 147k→82, 148k→82, 150k→83, 175k→97, 185k→100.
        let l = limit(200_000, "claude-sonnet-4-5", &none);
        for (used, shown) in [
            (147_000, 82),
            (148_000, 82),
            (150_000, 83),
            (175_000, 97),
            (185_000, 100),
        ] {
            assert_eq!(l.indicator_percent(used), shown, "{used}");
        }
        // 1M, measured: 960k → 98.
        assert_eq!(
            limit(1_000_000, "claude-sonnet-4-5[1m]", &none).indicator_percent(960_000),
            98
        );
        // Enforced, measured: 150k → "10% until auto-compact" (90 used); PCT=50 at 80k → "11%".
        assert_eq!(
            limit(200_000, "claude-sonnet-4-6", &none).indicator_percent(150_000),
            90
        );
        let pct = CompactionSettings {
            auto_compact_window: Some(200_000),
            pct_override: Some(50.0),
            ..CompactionSettings::default()
        };
        assert_eq!(limit(200_000, "claude-sonnet-4-5", &pct).indicator_percent(80_000), 89);
        assert_eq!(l.indicator_percent(0), 0);
    }

    #[test]
    fn reads_the_window_variable_as_the_client_does() {
        assert_eq!(parse_window("200000"), Some(200_000));
        assert_eq!(parse_window(" 200k "), Some(200_000));
        assert_eq!(parse_window("1.5M"), Some(1_500_000));
        assert_eq!(parse_window("50000"), Some(100_000), "below the minimum");
        for bad in ["", "lots", "-5", "0", "k", "1e400"] {
            assert_eq!(parse_window(bad), None, "{bad:?}");
        }
        let config = Config::default();
        let s = CompactionSettings::from_values(Some("x"), Some("150"), false, &config);
        assert_eq!((s.auto_compact_window, s.pct_override), (None, None));
        let s = CompactionSettings::from_values(None, Some("50"), false, &config);
        assert_eq!(s.pct_override, Some(50.0));
        let s = CompactionSettings::from_values(None, Some(" 50%"), false, &config);
        assert_eq!(s.pct_override, Some(50.0), "parseFloat reads the leading number");
        let s = CompactionSettings::from_values(None, Some("0.5e2x"), false, &config);
        assert_eq!(s.pct_override, Some(50.0));
        for bad in ["", "%50", "-5", "0", "12.5e3"] {
            let s = CompactionSettings::from_values(None, Some(bad), false, &config);
            assert_eq!(s.pct_override, None, "{bad:?}");
        }
    }

    #[test]
    fn a_lower_max_output_lowers_the_reserve_as_measured() {
        assert_eq!(parse_max_output("8000"), Some(8_000));
        assert_eq!(parse_max_output(" 16384 "), Some(16_384));
        for bad in ["", "lots", "0", "-8000"] {
            assert_eq!(parse_max_output(bad), None, "{bad:?}");
        }
        // Measured on 2.1.332 with CLAUDE_CODE_MAX_OUTPUT_TOKENS=8000 at 170,000 tokens:
        // "89% context used" (E = 192,000), and with a 200k auto-compact window
        // "5% until auto-compact" (T = 179,000).
        let eight_k = |window| CompactionSettings {
            auto_compact_window: window,
            max_output_tokens: Some(8_000),
            ..CompactionSettings::default()
        };
        let l = limit(200_000, "claude-sonnet-4-5", &eight_k(None));
        assert_eq!((l.tokens, l.indicator_percent(170_000)), (192_000, 89));
        let l = limit(200_000, "claude-sonnet-4-5", &eight_k(Some(200_000)));
        assert_eq!((l.tokens, 100 - l.indicator_percent(170_000)), (179_000, 5));
        // Above 20,000 it changes nothing.
        let big = CompactionSettings {
            max_output_tokens: Some(64_000),
            ..CompactionSettings::default()
        };
        assert_eq!(limit(200_000, "claude-sonnet-4-6", &big).tokens, 167_000);
    }
}
