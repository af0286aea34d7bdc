//! The directory a hook event (or a question of baton's mod) is about, with what handlers look
//! up from it: its project, baton's config there and GSD's config of the project. Each is
//! looked up once, when a handler first asks, so an event that needs none costs no search.

use std::cell::OnceCell;
use std::path::{Path, PathBuf};

use crate::config::Config;
use crate::planning::Project;
use crate::planning::config::PlanningConfig;

/// A working directory and what was looked up from it.
#[derive(Debug)]
pub struct Place {
    dir: PathBuf,
    project: OnceCell<Option<Project>>,
    config: OnceCell<Config>,
    planning_config: OnceCell<Option<PlanningConfig>>,
}

impl Place {
    /// The place a payload's `cwd` names ([`super::working_dir`]); nothing is looked up yet.
    pub fn of(cwd: Option<&str>) -> Self {
        Self {
            dir: super::working_dir(cwd),
            project: OnceCell::new(),
            config: OnceCell::new(),
            planning_config: OnceCell::new(),
        }
    }

    /// The working directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The project the directory belongs to ([`Project::find`]), searched for once.
    pub fn project(&self) -> Option<&Project> {
        self.project.get_or_init(|| Project::find(&self.dir)).as_ref()
    }

    /// baton's config for the project (the user's file, then the project's), read once.
    pub fn config(&self) -> &Config {
        self.config
            .get_or_init(|| Config::load(self.project().map(|p| p.root.as_path())))
    }

    /// GSD's config of the project (`.planning/config.json`), read once; `None` outside a
    /// project.
    pub fn planning_config(&self) -> Option<&PlanningConfig> {
        self.planning_config
            .get_or_init(|| self.project().map(PlanningConfig::read))
            .as_ref()
    }
}
