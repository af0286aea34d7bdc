//! baton's own settings: `~/.config/baton/config.json` (or `$BATON_CONFIG`), overridden
//! field by field by the project's `.baton/config.json`. Every key is optional.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::json::lenient::lenient;

mod client_mod;
mod segments;
pub use client_mod::{ModFile, ModSettings};
pub use segments::{ALL_SEGMENTS, DEFAULT_SEGMENTS, Segment};
use segments::{segment_list, segments_in_order};

/// Largest config file baton reads.
pub const MAX_CONFIG_BYTES: u64 = 1024 * 1024;
/// Keys of the config file that only a command reads, each with its own checks
/// (`"prices"`: `baton report`).
pub const KEYS_READ_ELSEWHERE: [&str; 1] = ["prices"];

/// Claude Code's output reserve: its effective window is the window less this many tokens
/// (measured on 2.1.197: 150k of 200k shows 83%, 160k 89%, 175k 97%).
pub const CLAUDE_CODE_RESERVE: u64 = 20_000;

/// How the statusline states the percentage.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PercentMode {
    /// The same figure as Claude Code's own indicator: the share of the limit it counts toward
    /// (where it compacts, or the window less its output reserve; `context::window::limit`).
    #[default]
    Claude,
    /// The raw share of the whole window (what /context and the bridge file use).
    Raw,
}

/// One config file as baton reads it: absent keys, and values it cannot read, are `None`.
/// Written back (`Serialize`), it is what baton understood of the file (`doctor` compares).
#[derive(Debug, Default, Serialize, Deserialize, Clone)]
#[serde(default)]
pub struct ConfigFile {
    #[serde(deserialize_with = "lenient")]
    pub monitor: Option<MonitorFile>,
    #[serde(deserialize_with = "lenient")]
    pub statusline: Option<StatuslineFile>,
    /// The window to assume when neither Claude Code nor the model id says.
    #[serde(deserialize_with = "lenient")]
    pub context_window_size: Option<u64>,
    /// Claude Code's `autoCompactWindow` setting, which hooks cannot see (the environment's
    /// `CLAUDE_CODE_AUTO_COMPACT_WINDOW` wins).
    #[serde(deserialize_with = "lenient")]
    pub auto_compact_window: Option<u64>,
    /// `false` when Claude Code's `autoCompactEnabled` is off.
    #[serde(deserialize_with = "lenient")]
    pub auto_compact: Option<bool>,
    #[serde(deserialize_with = "lenient")]
    pub bridge: Option<BridgeFile>,
    /// `"mod"`: what baton's mod does (`client_mod.rs`).
    #[serde(rename = "mod", deserialize_with = "lenient")]
    pub client_mod: Option<ModFile>,
}

/// `"bridge"`: what `baton bridge` looks for beyond its defaults.
#[derive(Debug, Default, Serialize, Deserialize, Clone)]
#[serde(default)]
pub struct BridgeFile {
    /// Prefixes of the team's own finding ids (`["SEC"]` finds `SEC-123`).
    #[serde(deserialize_with = "lenient")]
    pub finding_prefixes: Option<Vec<String>>,
    /// Package prefixes of the design system (`["@acme/ui"]`).
    #[serde(deserialize_with = "lenient")]
    pub design_system: Option<Vec<String>>,
}

#[derive(Debug, Default, Serialize, Deserialize, Clone)]
#[serde(default)]
pub struct MonitorFile {
    #[serde(deserialize_with = "lenient")]
    pub enabled: Option<bool>,
    #[serde(deserialize_with = "lenient")]
    pub warning_remaining: Option<u8>,
    #[serde(deserialize_with = "lenient")]
    pub critical_remaining: Option<u8>,
    #[serde(deserialize_with = "lenient")]
    pub debounce_calls: Option<u32>,
    #[serde(deserialize_with = "lenient")]
    pub stale_seconds: Option<u64>,
}

#[derive(Debug, Default, Serialize, Deserialize, Clone)]
#[serde(default)]
pub struct StatuslineFile {
    #[serde(deserialize_with = "lenient")]
    pub percent: Option<PercentMode>,
    #[serde(deserialize_with = "lenient")]
    pub reserve_tokens: Option<u64>,
    #[serde(deserialize_with = "lenient")]
    pub show_branch: Option<bool>,
    /// The segments to show, in order; names baton does not know are skipped.
    #[serde(deserialize_with = "segment_list")]
    pub segments: Option<Vec<Segment>>,
    /// `false` hides the forecast beside the context bar.
    #[serde(deserialize_with = "lenient")]
    pub forecast: Option<bool>,
}

/// The monitor's settings after defaults (GSD's thresholds and debounce).
#[derive(Debug, Clone, PartialEq)]
pub struct MonitorSettings {
    pub enabled: bool,
    pub warning_remaining: u8,
    pub critical_remaining: u8,
    pub debounce_calls: u32,
    pub stale_seconds: u64,
}

/// The statusline's settings after defaults.
#[derive(Debug, Clone, PartialEq)]
pub struct StatuslineSettings {
    pub percent: PercentMode,
    pub reserve_tokens: u64,
    pub show_branch: bool,
    /// The segments in order, each once; the context bar is always among them.
    pub segments: Vec<Segment>,
    pub forecast: bool,
}

/// Both config files merged, project over user.
#[derive(Debug, Default, Clone)]
pub struct Config {
    user: ConfigFile,
    project: ConfigFile,
}

impl Config {
    /// Loads the user file and, when `project_root` is given, the project's file.
    /// A missing or unreadable file counts as empty: the hot path never fails on config.
    pub fn load(project_root: Option<&Path>) -> Self {
        Self {
            user: user_config_path().map(|p| read_file(&p)).unwrap_or_default(),
            project: project_root
                .map(|r| read_file(&project_config_path(r)))
                .unwrap_or_default(),
        }
    }

    /// Builds a config from already-parsed files (for tests and `doctor`).
    pub fn from_files(user: ConfigFile, project: ConfigFile) -> Self {
        Self { user, project }
    }

    /// The monitor's settings, project over user, with GSD's defaults.
    pub fn monitor(&self) -> MonitorSettings {
        let pick = |f: fn(&MonitorFile) -> Option<u64>| {
            self.project
                .monitor
                .as_ref()
                .and_then(f)
                .or_else(|| self.user.monitor.as_ref().and_then(f))
        };
        let warning = pick(|m| m.warning_remaining.map(u64::from)).unwrap_or(35).min(100) as u8;
        let critical = pick(|m| m.critical_remaining.map(u64::from))
            .unwrap_or(25)
            .min(u64::from(warning)) as u8;
        MonitorSettings {
            enabled: pick(|m| m.enabled.map(u64::from)).is_none_or(|v| v != 0),
            warning_remaining: warning,
            critical_remaining: critical,
            debounce_calls: pick(|m| m.debounce_calls.map(u64::from)).unwrap_or(5).clamp(1, 10_000) as u32,
            stale_seconds: pick(|m| m.stale_seconds).unwrap_or(60),
        }
    }

    /// The statusline's settings, project over user, with the defaults.
    pub fn statusline(&self) -> StatuslineSettings {
        let project = self.project.statusline.as_ref();
        let user = self.user.statusline.as_ref();
        StatuslineSettings {
            percent: project
                .and_then(|s| s.percent)
                .or(user.and_then(|s| s.percent))
                .unwrap_or_default(),
            reserve_tokens: project
                .and_then(|s| s.reserve_tokens)
                .or(user.and_then(|s| s.reserve_tokens))
                .unwrap_or(CLAUDE_CODE_RESERVE),
            show_branch: project
                .and_then(|s| s.show_branch)
                .or(user.and_then(|s| s.show_branch))
                .unwrap_or(true),
            segments: segments_in_order(
                project
                    .and_then(|s| s.segments.as_deref())
                    .or(user.and_then(|s| s.segments.as_deref()))
                    .unwrap_or(&DEFAULT_SEGMENTS),
            ),
            forecast: project
                .and_then(|s| s.forecast)
                .or(user.and_then(|s| s.forecast))
                .unwrap_or(true),
        }
    }

    /// Claude Code's `autoCompactWindow`, as mirrored in baton's config (project over user).
    pub fn auto_compact_window(&self) -> Option<u64> {
        self.project.auto_compact_window.or(self.user.auto_compact_window)
    }

    /// Claude Code's `autoCompactEnabled`, as mirrored in baton's config (project over user).
    pub fn auto_compact(&self) -> Option<bool> {
        self.project.auto_compact.or(self.user.auto_compact)
    }

    /// Finding id prefixes for the bridge: the project's list, else the user's.
    pub fn finding_prefixes(&self) -> Vec<String> {
        self.bridge_list(|b| b.finding_prefixes.clone())
    }

    /// Design-system package prefixes for the bridge: the project's list, else the user's.
    pub fn design_system(&self) -> Vec<String> {
        self.bridge_list(|b| b.design_system.clone())
    }

    fn bridge_list(&self, pick: fn(&BridgeFile) -> Option<Vec<String>>) -> Vec<String> {
        let of = |f: &ConfigFile| f.bridge.as_ref().and_then(pick);
        of(&self.project).or_else(|| of(&self.user)).unwrap_or_default()
    }

    /// The configured window size (project over user), for when Claude Code does not say.
    pub fn context_window_size(&self) -> Option<u64> {
        self.project.context_window_size.or(self.user.context_window_size)
    }
}

/// `$BATON_CONFIG`, else `<config dir>/baton/config.json`.
pub fn user_config_path() -> Option<PathBuf> {
    match std::env::var_os("BATON_CONFIG") {
        Some(p) if !p.is_empty() => Some(PathBuf::from(p)),
        _ => dirs::config_dir().map(|d| d.join("baton").join("config.json")),
    }
}

/// `<project root>/.baton/config.json`.
pub fn project_config_path(project_root: &Path) -> PathBuf {
    project_root.join(".baton").join("config.json")
}

/// The `"prices"` maps of the user's and then the project's config file, with the file
/// each came from. Only `baton report` reads them, so the hot path never parses prices.
/// A file that is not JSON is an error here: the report would otherwise price silently wrong.
pub fn price_maps(project_root: Option<&Path>) -> crate::error::Result<Vec<(PathBuf, serde_json::Value)>> {
    let paths = user_config_path()
        .into_iter()
        .chain(project_root.map(project_config_path));
    let mut maps = Vec::new();
    for path in paths {
        let Ok(bytes) = crate::fsx::read_regular(&path, MAX_CONFIG_BYTES) else {
            continue;
        };
        let value: serde_json::Value = serde_json::from_slice(&bytes).map_err(|e| {
            crate::error::Error::invalid(&path, format!("not JSON ({e}); fix or remove the file")).caused_by(e)
        })?;
        if let Some(prices) = value.get("prices") {
            maps.push((path, prices.clone()));
        }
    }
    Ok(maps)
}

fn read_file(path: &Path) -> ConfigFile {
    let Ok(bytes) = crate::fsx::read_regular(path, MAX_CONFIG_BYTES) else {
        return ConfigFile::default();
    };
    match serde_json::from_slice(&bytes) {
        Ok(config) => config,
        Err(e) => {
            crate::log::note(&format!("ignoring {}: {e}", path.display()));
            ConfigFile::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(json: &str) -> ConfigFile {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn defaults_are_gsds_thresholds() {
        let m = Config::default().monitor();
        assert_eq!(
            m,
            MonitorSettings {
                enabled: true,
                warning_remaining: 35,
                critical_remaining: 25,
                debounce_calls: 5,
                stale_seconds: 60
            }
        );
        assert_eq!(Config::default().statusline().percent, PercentMode::Claude);
    }

    #[test]
    fn project_overrides_user_field_by_field() {
        let c = Config::from_files(
            file(r#"{"monitor":{"warning_remaining":40,"debounce_calls":3},"statusline":{"percent":"raw"}}"#),
            file(r#"{"monitor":{"debounce_calls":7,"enabled":false}}"#),
        );
        let m = c.monitor();
        assert_eq!((m.warning_remaining, m.debounce_calls, m.enabled), (40, 7, false));
        assert_eq!(c.statusline().percent, PercentMode::Raw);
    }

    #[test]
    fn critical_never_exceeds_warning_and_bad_values_are_ignored() {
        let c = Config::from_files(
            file(r#"{"monitor":{"warning_remaining":20,"critical_remaining":30}}"#),
            file("{}"),
        );
        assert_eq!(c.monitor().critical_remaining, 20);
        let c = Config::from_files(
            file(r#"{"monitor":{"warning_remaining":"lots"},"statusline":7}"#),
            file("{}"),
        );
        assert_eq!(c.monitor().warning_remaining, 35);
    }

    #[test]
    fn segments_keep_their_order_skip_unknown_names_and_keep_the_bar() {
        assert_eq!(Config::default().statusline().segments, DEFAULT_SEGMENTS);
        let c = Config::from_files(
            file(r#"{"statusline":{"segments":["cost","model","bogus",7,"cost","limits"],"forecast":false}}"#),
            file("{}"),
        );
        let s = c.statusline();
        assert_eq!(
            s.segments,
            [Segment::Cost, Segment::Model, Segment::Limits, Segment::Context]
        );
        assert!(!s.forecast);
        let c = Config::from_files(file(r#"{"statusline":{"segments":"all"}}"#), file("{}"));
        assert_eq!(c.statusline().segments, DEFAULT_SEGMENTS, "not a list: the default");
    }
}
