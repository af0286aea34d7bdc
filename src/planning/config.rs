//! `.planning/config.json`, GSD's project settings. Only the keys baton honours are read.

use std::io;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::json::lenient::lenient;

use super::Project;
use super::number::PhaseIds;

/// Largest config.json baton reads.
const MAX_CONFIG_BYTES: u64 = 1024 * 1024;

/// `<project>/.planning/config.json`.
pub fn path(project: &Project) -> PathBuf {
    project.planning_dir().join("config.json")
}

/// The bytes of the config.json at `path`: a regular file of at most 1 MiB.
pub fn read_bytes(path: &Path) -> io::Result<Vec<u8>> {
    crate::fsx::read_regular(path, MAX_CONFIG_BYTES)
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct PlanningConfig {
    #[serde(deserialize_with = "lenient")]
    pub hooks: Option<HooksConfig>,
    /// gsd-core's phase numbering (`milestone-prefixed`); GSD 1.x has no such key.
    #[serde(deserialize_with = "lenient")]
    pub phase_id_convention: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct HooksConfig {
    #[serde(deserialize_with = "lenient")]
    pub context_warnings: Option<bool>,
    /// gsd-core's warning threshold, as a remaining percentage.
    #[serde(deserialize_with = "lenient")]
    pub context_warning_threshold: Option<f64>,
    /// gsd-core's critical threshold, as a remaining percentage.
    #[serde(deserialize_with = "lenient")]
    pub context_critical_threshold: Option<f64>,
}

/// The monitor's two thresholds (remaining percentages) a project sets.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Thresholds {
    pub warning: f64,
    pub critical: f64,
}

impl PlanningConfig {
    /// Reads the project's config.json; missing or unreadable reads as empty.
    pub fn read(project: &Project) -> Self {
        read_bytes(&path(project))
            .ok()
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default()
    }

    /// GSD's switch: `hooks.context_warnings: false` turns the monitor off.
    pub fn context_warnings(&self) -> bool {
        self.hooks.as_ref().and_then(|h| h.context_warnings) != Some(false)
    }

    /// How the project numbers its phases.
    pub fn phase_ids(&self) -> PhaseIds {
        match self.phase_id_convention.as_deref() {
            Some("milestone-prefixed") => PhaseIds::MilestonePrefixed,
            _ => PhaseIds::Sequential,
        }
    }

    /// Whether the file carries a key only gsd-core writes.
    pub fn is_gsd_core(&self) -> bool {
        self.phase_id_convention.is_some()
    }

    /// gsd-core's per-project thresholds (`hooks.context_warning_threshold`,
    /// `hooks.context_critical_threshold`), read as gsd-core's monitor reads them: each a number
    /// from 0 to 100, else `defaults`' value; a pair whose critical is not below its warning is
    /// dropped whole for `defaults`. `None` when the project sets neither.
    pub fn thresholds(&self, defaults: Thresholds) -> Option<Thresholds> {
        let hooks = self.hooks.as_ref()?;
        if hooks.context_warning_threshold.is_none() && hooks.context_critical_threshold.is_none() {
            return None;
        }
        let usable = |value: Option<f64>, default: f64| {
            value
                .filter(|v| v.is_finite() && (0.0..=100.0).contains(v))
                .unwrap_or(default)
        };
        let set = Thresholds {
            warning: usable(hooks.context_warning_threshold, defaults.warning),
            critical: usable(hooks.context_critical_threshold, defaults.critical),
        };
        Some(if set.critical < set.warning { set } else { defaults })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(json: &str) -> PlanningConfig {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn thresholds_as_gsd_core_reads_them() {
        let defaults = Thresholds {
            warning: 35.0,
            critical: 25.0,
        };
        let t = |json: &str| config(json).thresholds(defaults).map(|t| (t.warning, t.critical));
        assert_eq!(t("{}"), None);
        assert_eq!(t(r#"{"hooks":{"context_warnings":true}}"#), None);
        assert_eq!(
            t(r#"{"hooks":{"context_warning_threshold":50,"context_critical_threshold":40}}"#),
            Some((50.0, 40.0))
        );
        assert_eq!(t(r#"{"hooks":{"context_warning_threshold":45}}"#), Some((45.0, 25.0)));
        // A string is no threshold; out of range, or a pair the wrong way round, gives the defaults.
        assert_eq!(t(r#"{"hooks":{"context_warning_threshold":"50"}}"#), None);
        assert_eq!(t(r#"{"hooks":{"context_critical_threshold":120}}"#), Some((35.0, 25.0)));
        assert_eq!(t(r#"{"hooks":{"context_warning_threshold":20}}"#), Some((35.0, 25.0)));
        assert_eq!(
            t(r#"{"hooks":{"context_warning_threshold":30.5,"context_critical_threshold":10}}"#),
            Some((30.5, 10.0))
        );
    }

    #[test]
    fn phase_ids_and_gsd_core_keys() {
        assert_eq!(config("{}").phase_ids(), PhaseIds::Sequential);
        let prefixed = config(r#"{"phase_id_convention":"milestone-prefixed"}"#);
        assert_eq!(prefixed.phase_ids(), PhaseIds::MilestonePrefixed);
        assert!(prefixed.is_gsd_core() && !config("{}").is_gsd_core());
    }
}
