//! `.planning/config.json`, GSD's project settings. Only the keys baton honours are read.

use serde::Deserialize;

use crate::json::lenient::lenient;

use super::Project;

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct PlanningConfig {
    #[serde(deserialize_with = "lenient")]
    pub hooks: Option<HooksConfig>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct HooksConfig {
    #[serde(deserialize_with = "lenient")]
    pub context_warnings: Option<bool>,
}

impl PlanningConfig {
    /// Reads the project's config.json; missing or unreadable reads as empty.
    pub fn read(project: &Project) -> Self {
        crate::fsx::read_regular(&project.planning_dir().join("config.json"), 1024 * 1024)
            .ok()
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default()
    }

    /// GSD's switch: `hooks.context_warnings: false` turns the monitor off.
    pub fn context_warnings(&self) -> bool {
        self.hooks.as_ref().and_then(|h| h.context_warnings) != Some(false)
    }
}
