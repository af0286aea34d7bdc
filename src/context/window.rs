//! The context window's math, in one place: the window a model has, the tokens in it, the
//! remaining percentage the monitor and bridge use, the percentage the statusline shows, and
//! (in `limit`) where Claude Code compacts.

pub mod limit;

use crate::config::PercentMode;
use crate::hook::payload::ContextWindow;
use limit::Limit;

/// The window Claude Code uses when nothing says otherwise.
pub const DEFAULT_WINDOW: u64 = 200_000;
/// The window of `[1m]` model ids.
pub const LARGE_WINDOW: u64 = 1_000_000;

/// Where a usage figure came from; written to the bridge file as `source`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UsageSource {
    /// `context_window.current_usage` token counts.
    Payload,
    /// `context_window.used_percentage`/`remaining_percentage` without token counts.
    PayloadPercent,
    /// The last main-chain assistant line of the transcript.
    Transcript,
    /// `postTokens` of the last compact boundary (no reply since).
    CompactBoundary,
    /// The statusline's bridge file, read by the monitor.
    Bridge,
    /// The client's own figure for a request, handed over by baton's mod.
    Mod,
}

impl UsageSource {
    /// The name written to and read from the bridge file.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Payload => "payload",
            Self::PayloadPercent => "payload-percent",
            Self::Transcript => "transcript",
            Self::CompactBoundary => "compact-boundary",
            Self::Bridge => "bridge",
            Self::Mod => "mod",
        }
    }
}

/// How full the context window is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContextUsage {
    pub used_tokens: u64,
    pub window: u64,
    pub source: UsageSource,
}

impl ContextUsage {
    /// Figures as a statusline payload states them (for tests).
    #[cfg(test)]
    pub(crate) fn stated(used_tokens: u64, window: u64) -> Self {
        Self {
            used_tokens,
            window,
            source: UsageSource::Payload,
        }
    }

    /// Raw share of the window in use, 0–100, unrounded.
    pub fn used_fraction_percent(&self) -> f64 {
        if self.window == 0 {
            return 100.0;
        }
        (self.used_tokens as f64 * 100.0 / self.window as f64).clamp(0.0, 100.0)
    }

    /// Raw used percentage, rounded: what Claude Code reports as `used_percentage`.
    pub fn used_percent(&self) -> u8 {
        self.used_fraction_percent().round() as u8
    }

    /// `100 − used`: what Claude Code reports as `remaining_percentage`; the monitor's thresholds.
    pub fn remaining_percent(&self) -> u8 {
        100 - self.used_percent()
    }

    /// How far below the real count `used_tokens` may be: up to half a percent of the window
    /// when it was rebuilt from a whole percentage, else nothing.
    pub fn rounding_slack(&self) -> u64 {
        match self.source {
            UsageSource::PayloadPercent => self.window.div_ceil(200),
            _ => 0,
        }
    }

    /// The percentage the statusline shows: Claude Code's own indicator for `limit`, or the
    /// raw share of the window.
    pub fn display_percent(&self, mode: PercentMode, limit: &Limit) -> u8 {
        match mode {
            PercentMode::Raw => self.used_percent(),
            PercentMode::Claude => limit.indicator_percent(self.used_tokens),
        }
    }
}

/// The window for a model: the payload's size when given, else `[1m]` ids get 1M, else the
/// configured size, else 200k. A window inferred from the model id or the default (not one
/// Claude Code reported or the user configured) that is smaller than `used_tokens` cannot be
/// right: recent Opus models default to 1M and transcripts never say so, so the 1M window is
/// assumed then, unless `CLAUDE_CODE_DISABLE_1M_CONTEXT` is set.
pub fn window_size(
    payload_window: Option<u64>,
    model_id: Option<&str>,
    configured: Option<u64>,
    used_tokens: Option<u64>,
) -> u64 {
    window_size_with(payload_window, model_id, configured, used_tokens, !one_m_disabled())
}

fn window_size_with(
    payload_window: Option<u64>,
    model_id: Option<&str>,
    configured: Option<u64>,
    used_tokens: Option<u64>,
    one_m_allowed: bool,
) -> u64 {
    if let Some(w) = payload_window.filter(|w| *w > 0) {
        return w;
    }
    if model_id.is_some_and(|id| id.to_ascii_lowercase().contains("[1m]")) {
        return LARGE_WINDOW;
    }
    if let Some(w) = configured.filter(|w| *w > 0) {
        return w;
    }
    if one_m_allowed && used_tokens.is_some_and(|used| used > DEFAULT_WINDOW) {
        return LARGE_WINDOW;
    }
    DEFAULT_WINDOW
}

/// `CLAUDE_CODE_DISABLE_1M_CONTEXT=1` (or `true`) keeps Claude Code at 200k windows.
fn one_m_disabled() -> bool {
    std::env::var("CLAUDE_CODE_DISABLE_1M_CONTEXT")
        .is_ok_and(|v| matches!(v.trim().to_ascii_lowercase().as_str(), "1" | "true" | "yes"))
}

/// Tokens in use for a used percentage of `window` (sources that carry only percentages:
/// payloads without token counts, GSD's bridge files).
pub fn tokens_at_percent(used_percent: f64, window: u64) -> u64 {
    (used_percent.clamp(0.0, 100.0) * window as f64 / 100.0).round() as u64
}

/// Usage from the statusline payload: token counts first (a `current_usage` with an
/// unreadable count was already set aside when the payload was read), then the percentages.
/// `None` when the payload carries no usage (session start, right after /compact, old
/// versions): the caller falls back to the transcript's tail.
/// `payload_window` is the payload's `context_window_size`; `configured` the user's setting.
pub fn from_payload(
    cw: &ContextWindow,
    payload_window: Option<u64>,
    model_id: Option<&str>,
    configured: Option<u64>,
) -> Option<ContextUsage> {
    if let Some(tokens) = cw.current_usage.as_ref().and_then(|u| u.context_tokens()) {
        return Some(ContextUsage {
            used_tokens: tokens,
            window: window_size(payload_window, model_id, configured, Some(tokens)),
            source: UsageSource::Payload,
        });
    }
    let used_pct = cw.used_percentage.or(cw.remaining_percentage.map(|r| 100.0 - r))?;
    let window = window_size(payload_window, model_id, configured, None);
    Some(ContextUsage {
        used_tokens: tokens_at_percent(used_pct, window),
        window,
        source: UsageSource::PayloadPercent,
    })
}

/// A token count as people say it: `950`, `140k`, `1.2M`.
pub fn short_tokens(n: u64) -> String {
    match n {
        0..1_000 => n.to_string(),
        1_000..1_000_000 => format!("{}k", (n as f64 / 1_000.0).round() as u64),
        _ => {
            let m = n as f64 / 1_000_000.0;
            if m.fract() < 0.05 {
                format!("{}M", m.round() as u64)
            } else {
                format!("{m:.1}M")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::CLAUDE_CODE_RESERVE;

    fn usage(used: u64, window: u64) -> ContextUsage {
        ContextUsage::stated(used, window)
    }

    #[test]
    fn display_agrees_with_claude_codes_indicator() {
        // Measured live on Claude Code 2.1.197 with a 200k window.
        let settings = limit::CompactionSettings::default();
        let reactive = Limit::new(200_000, Some("claude-sonnet-4-5"), CLAUDE_CODE_RESERVE, &settings);
        for (tokens, shown) in [(150_000, 83), (160_000, 89), (175_000, 97)] {
            assert_eq!(
                usage(tokens, 200_000).display_percent(PercentMode::Claude, &reactive),
                shown
            );
        }
        assert_eq!(usage(150_000, 200_000).display_percent(PercentMode::Raw, &reactive), 75);
        assert_eq!(
            usage(250_000, 200_000).display_percent(PercentMode::Claude, &reactive),
            100
        );
        // Where the client compacts at 167k, its footer counts down to that: 150k is 90% of the way.
        let enforced = Limit::new(200_000, Some("claude-sonnet-4-6"), CLAUDE_CODE_RESERVE, &settings);
        assert_eq!(
            usage(150_000, 200_000).display_percent(PercentMode::Claude, &enforced),
            90
        );
    }

    #[test]
    fn short_tokens_reads_like_people_talk() {
        assert_eq!(short_tokens(950), "950");
        assert_eq!(short_tokens(140_000), "140k");
        assert_eq!(short_tokens(1_000_000), "1M");
        assert_eq!(short_tokens(1_250_000), "1.2M");
    }

    #[test]
    fn remaining_is_the_complement_of_rounded_used() {
        let u = usage(150_000, 200_000);
        assert_eq!((u.used_percent(), u.remaining_percent()), (75, 25));
        let u = usage(129_001, 200_000); // 64.5005% → 65 used, 35 remaining
        assert_eq!((u.used_percent(), u.remaining_percent()), (65, 35));
        assert_eq!(usage(5, 0).remaining_percent(), 0);
    }

    #[test]
    fn window_prefers_the_payload_then_the_model_then_config() {
        let w = |p, m, c| window_size_with(p, m, c, None, true);
        assert_eq!(w(Some(500_000), Some("claude-opus-4-6[1m]"), None), 500_000);
        assert_eq!(w(None, Some("claude-sonnet-4-5[1m]"), Some(300_000)), LARGE_WINDOW);
        assert_eq!(w(Some(0), Some("claude-sonnet-4-5"), Some(300_000)), 300_000);
        assert_eq!(w(None, None, None), DEFAULT_WINDOW);
    }

    #[test]
    fn more_than_an_inferred_200k_means_the_1m_window() {
        let w = |p, c, used, allowed| window_size_with(p, Some("claude-opus-4-6"), c, Some(used), allowed);
        assert_eq!(w(None, None, 250_000, true), LARGE_WINDOW);
        assert_eq!(w(None, None, 200_000, true), DEFAULT_WINDOW);
        assert_eq!(w(None, None, 250_000, false), DEFAULT_WINDOW, "1M disabled");
        assert_eq!(w(Some(200_000), None, 250_000, true), 200_000, "Claude Code said so");
        assert_eq!(w(None, Some(180_000), 250_000, true), 180_000, "the user said so");
    }

    #[test]
    fn payload_percentages_stand_in_for_missing_token_counts() {
        let cw: ContextWindow = serde_json::from_str(r#"{"remaining_percentage":30}"#).unwrap();
        let u = from_payload(&cw, Some(200_000), None, None).unwrap();
        assert_eq!((u.used_tokens, u.source), (140_000, UsageSource::PayloadPercent));
        assert_eq!(u.rounding_slack(), 1_000, "70% stands for up to 70.5%");
        assert_eq!(usage(140_000, 200_000).rounding_slack(), 0, "a token count is exact");
        let cw: ContextWindow = serde_json::from_str(r#"{"current_usage":null,"used_percentage":null}"#).unwrap();
        assert!(from_payload(&cw, Some(200_000), None, None).is_none());
    }
}
