//! The bridge file `$TMPDIR/claude-ctx-<session>.json`: the statusline writes the current
//! figures, the monitor reads them. GSD's fields come first so GSD's own monitor reads it.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::context::forecast::Forecast;
use crate::context::window::{self, ContextUsage, UsageSource};
use crate::fsx;
use crate::json::lenient::{lenient, lenient_number};

/// Bigger than any bridge file baton or GSD writes.
const MAX_BRIDGE_BYTES: u64 = 64 * 1024;

/// Marks temp files baton wrote, so its sweep never removes another tool's.
pub const GENERATOR: &str = "baton";

/// The bridge file's contents.
#[derive(Debug, Default, Clone, Serialize, Deserialize, PartialEq)]
pub struct Bridge {
    // GSD's fields.
    #[serde(default, deserialize_with = "lenient")]
    pub session_id: Option<String>,
    #[serde(default, deserialize_with = "lenient_number", serialize_with = "whole_number")]
    pub remaining_percentage: Option<f64>,
    #[serde(default, deserialize_with = "lenient_number", serialize_with = "whole_number")]
    pub used_pct: Option<f64>,
    /// Unix seconds of the write.
    #[serde(default, deserialize_with = "lenient_number", serialize_with = "whole_number")]
    pub timestamp: Option<f64>,
    // baton's extras.
    #[serde(default, deserialize_with = "lenient", skip_serializing_if = "Option::is_none")]
    pub generator: Option<String>,
    #[serde(default, deserialize_with = "lenient", skip_serializing_if = "Option::is_none")]
    pub context_window_size: Option<u64>,
    #[serde(default, deserialize_with = "lenient", skip_serializing_if = "Option::is_none")]
    pub used_tokens: Option<u64>,
    #[serde(default, deserialize_with = "lenient", skip_serializing_if = "Option::is_none")]
    pub model_id: Option<String>,
    #[serde(default, deserialize_with = "lenient", skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Requests left before compaction at the recent rate; absent without enough history.
    #[serde(default, deserialize_with = "lenient", skip_serializing_if = "Option::is_none")]
    pub forecast: Option<Forecast>,
}

impl Bridge {
    /// The bridge record for `usage` in `session_id`, stamped `now` (Unix seconds).
    pub fn new(
        session_id: &str,
        usage: &ContextUsage,
        model_id: Option<&str>,
        forecast: Option<Forecast>,
        now: u64,
    ) -> Self {
        Self {
            session_id: Some(session_id.to_owned()),
            remaining_percentage: Some(f64::from(usage.remaining_percent())),
            used_pct: Some(f64::from(usage.used_percent())),
            timestamp: Some(now as f64),
            generator: Some(GENERATOR.to_owned()),
            context_window_size: Some(usage.window),
            used_tokens: Some(usage.used_tokens),
            model_id: model_id.map(str::to_owned),
            source: Some(usage.source.as_str().to_owned()),
            forecast,
        }
    }

    /// Age in seconds at `now`; a timestamp in the future counts as fresh.
    pub fn age_seconds(&self, now: u64) -> Option<u64> {
        self.timestamp.map(|t| now.saturating_sub(t as u64))
    }

    /// The usage this record states, as the monitor sees it. GSD's files carry only
    /// percentages: the tokens are rebuilt from them in the window the record names, else
    /// the one of its model, else `configured`, else the default. A figure rebuilt from a
    /// percentage (GSD's, or baton's from a payload without token counts) is as rounded as the
    /// payload's percentage it came from, and says so (`UsageSource::PayloadPercent`).
    pub fn usage(&self, configured: Option<u64>) -> Option<ContextUsage> {
        let remaining = self.remaining_percentage?.clamp(0.0, 100.0);
        let window = window::window_size(
            self.context_window_size,
            self.model_id.as_deref(),
            configured,
            self.used_tokens,
        );
        let used_tokens = self
            .used_tokens
            .unwrap_or_else(|| window::tokens_at_percent(100.0 - remaining, window));
        let percent_only =
            self.used_tokens.is_none() || self.source.as_deref() == Some(UsageSource::PayloadPercent.as_str());
        Some(ContextUsage {
            used_tokens,
            window,
            source: if percent_only {
                UsageSource::PayloadPercent
            } else {
                UsageSource::Bridge
            },
        })
    }
}

/// Writes whole numbers as JSON integers (`25`, not `25.0`), as GSD does.
fn whole_number<S: serde::Serializer>(n: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match n {
        Some(v) if v.fract() == 0.0 && v.abs() < 9e15 => s.serialize_i64(*v as i64),
        Some(v) => s.serialize_f64(*v),
        None => s.serialize_none(),
    }
}

/// The bridge file's path for a session, `None` for an unsafe session id.
pub fn path(session_id: &str) -> Option<PathBuf> {
    fsx::session_temp_path(session_id, ".json")
}

/// Reads a session's bridge file; absent, foreign-owned, symlinked or corrupt reads as `None`.
pub fn read(session_id: &str) -> Option<Bridge> {
    read_at(&path(session_id)?)
}

fn read_at(path: &Path) -> Option<Bridge> {
    let bytes = fsx::read_private(path, MAX_BRIDGE_BYTES).ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// A bridge file with the same figures is left alone while younger than this: the statusline
/// re-renders often with nothing new, and a rename on ext4 costs more than the whole render.
/// Well under the monitor's 60 s staleness limit.
pub const REWRITE_AFTER_SECS: u64 = 15;

impl Bridge {
    /// Same figures, ignoring when they were written.
    fn same_figures(&self, other: &Bridge) -> bool {
        let strip = |b: &Bridge| Bridge {
            timestamp: None,
            ..b.clone()
        };
        strip(self) == strip(other)
    }
}

/// Writes a session's bridge file unless it already holds the same figures and is younger
/// than [`REWRITE_AFTER_SECS`] at `now`. Returns whether it wrote.
pub fn write_if_changed(bridge: &Bridge, now: u64) -> std::io::Result<bool> {
    let session_id = bridge.session_id.as_deref().unwrap_or_default();
    let path = path(session_id).ok_or_else(|| std::io::Error::other("unsafe session id"))?;
    update(&path, bridge, now)
}

/// [`write_if_changed`] at an explicit path.
fn update(path: &Path, bridge: &Bridge, now: u64) -> std::io::Result<bool> {
    if let Some(current) = read_at(path)
        && current.same_figures(bridge)
        && current.age_seconds(now).is_some_and(|age| age < REWRITE_AFTER_SECS)
    {
        return Ok(false);
    }
    let json = serde_json::to_vec(bridge).map_err(std::io::Error::other)?;
    // Atomic, 0600, replacing (never following) a symlink planted at the path.
    fsx::write_atomic(path, &json, 0o600, fsx::Durability::Ephemeral).map(|()| true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gsd_fields_come_first_and_match_gsds_arithmetic() {
        let usage = ContextUsage::stated(150_000, 200_000);
        let json = serde_json::to_string(&Bridge::new(
            "s1",
            &usage,
            Some("claude-sonnet-4-5"),
            None,
            1_795_996_764,
        ))
        .unwrap();
        assert!(json.starts_with(
            r#"{"session_id":"s1","remaining_percentage":25,"used_pct":75,"timestamp":1795996764,"generator":"baton""#
        ), "{json}");
    }

    #[test]
    fn unchanged_figures_are_not_rewritten_until_they_age() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("claude-ctx-s.json");
        let usage = ContextUsage::stated(150_000, 200_000);
        assert!(update(&path, &Bridge::new("s", &usage, None, None, 1000), 1000).unwrap());
        assert!(!update(&path, &Bridge::new("s", &usage, None, None, 1005), 1005).unwrap());
        assert!(
            update(&path, &Bridge::new("s", &usage, None, None, 1015), 1015).unwrap(),
            "aged"
        );
        let more = ContextUsage {
            used_tokens: 151_000,
            ..usage
        };
        assert!(
            update(&path, &Bridge::new("s", &more, None, None, 1016), 1016).unwrap(),
            "new figures"
        );
        assert_eq!(read_at(&path).unwrap().used_tokens, Some(151_000));
    }

    #[test]
    fn carries_the_forecast_and_reads_a_damaged_one_as_none() {
        let usage = ContextUsage::stated(120_000, 200_000);
        let forecast = Forecast {
            tokens_per_request: 10_000,
            requests_left: 5,
        };
        let json = serde_json::to_string(&Bridge::new("s", &usage, None, Some(forecast), 1)).unwrap();
        assert!(
            json.ends_with(r#""forecast":{"tokens_per_request":10000,"requests_left":5}}"#),
            "{json}"
        );
        let damaged: Bridge =
            serde_json::from_str(r#"{"remaining_percentage":40,"forecast":{"requests_left":"many"}}"#).unwrap();
        assert_eq!((damaged.forecast, damaged.remaining_percentage), (None, Some(40.0)));
    }

    #[test]
    fn reads_gsds_own_files() {
        let gsd: Bridge = serde_json::from_str(
            r#"{"session_id":"s","remaining_percentage":30,"used_pct":70,"timestamp":1795996764}"#,
        )
        .unwrap();
        let usage = gsd.usage(None).unwrap();
        assert_eq!((usage.remaining_percent(), usage.used_tokens), (30, 140_000));
        assert_eq!(usage.rounding_slack(), 1_000, "30% left stands for up to 30.5%");
        let exact = Bridge::new("s", &ContextUsage::stated(140_600, 200_000), None, None, 1);
        assert_eq!(
            exact.usage(None).unwrap().rounding_slack(),
            0,
            "baton's token count is exact"
        );
        let rebuilt = ContextUsage {
            source: UsageSource::PayloadPercent,
            ..ContextUsage::stated(140_000, 200_000)
        };
        let from_percent = Bridge::new("s", &rebuilt, None, None, 1);
        assert_eq!(
            from_percent.usage(None).unwrap().rounding_slack(),
            1_000,
            "baton's figure from a payload's percentage is as rounded"
        );
        assert_eq!(gsd.age_seconds(1_795_996_800), Some(36));
    }
}
