//! `.planning/config.json`, GSD's project settings. Only the keys baton honours are read.

use std::io;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::json::lenient::lenient;

use super::Project;

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
        read_bytes(&path(project))
            .ok()
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default()
    }

    /// GSD's switch: `hooks.context_warnings: false` turns the monitor off.
    pub fn context_warnings(&self) -> bool {
        self.hooks.as_ref().and_then(|h| h.context_warnings) != Some(false)
    }
}
