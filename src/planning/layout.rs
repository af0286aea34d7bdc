//! How a project's `.planning/` is laid out, and by which GSD: the live directory (an active
//! gsd-core workstream's, `.planning/workstreams/<ws>/`, else `.planning/` itself), how its
//! phases are numbered, and whether gsd-core (`@opengsd/gsd-core`) or GSD 1.x
//! (`get-shit-done-cc`) keeps it, which decides when a phase is complete.

use std::io::Read;
use std::path::{Path, PathBuf};

use super::Project;
use super::number::PhaseIds;

/// How much of STATE.md is looked at for gsd-core's marks (its frontmatter comes first).
const STATE_HEAD_BYTES: u64 = 8 * 1024;
/// Longest workstream name read from `.planning/active-workstream`.
const MAX_WORKSTREAM_NAME: usize = 64;

/// Which GSD keeps the project.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Generation {
    /// `get-shit-done-cc` 1.x: a phase is done when its summaries cover its plans.
    Classic,
    /// `@opengsd/gsd-core`: a phase is done when its verification has passed.
    Core,
}

/// Where the live planning files are and how to read them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// The directory holding STATE.md, ROADMAP.md and `phases/`.
    pub live: PathBuf,
    /// The active workstream, when the project uses them.
    pub workstream: Option<String>,
    pub ids: PhaseIds,
    pub generation: Generation,
}

impl Layout {
    /// Reads the layout from the project's files: `.planning/active-workstream` (or
    /// `GSD_WORKSTREAM`, as gsd-core's tools take it), `config.json`'s `phase_id_convention`,
    /// and gsd-core's marks.
    pub fn of(project: &Project) -> Self {
        let planning = project.planning_dir();
        let (live, workstream) = live_dir(&planning);
        let config = super::config::PlanningConfig::read(project);
        let ids = config.phase_ids();
        let generation = if workstream.is_some() || config.is_gsd_core() || core_marks(&planning, &live) {
            Generation::Core
        } else {
            Generation::Classic
        };
        Self {
            live,
            workstream,
            ids,
            generation,
        }
    }

    /// `.planning/` itself, as GSD 1.x lays it out (for tests and callers without a project).
    pub fn classic(planning: &Path) -> Self {
        Self {
            live: planning.to_path_buf(),
            workstream: None,
            ids: PhaseIds::Sequential,
            generation: Generation::Classic,
        }
    }

    /// The live STATE.md.
    pub fn state_md(&self) -> PathBuf {
        self.live.join("STATE.md")
    }

    /// What gsd-core's commands take after their arguments to stay in this workstream.
    pub fn workstream_flag(&self) -> String {
        self.workstream
            .as_ref()
            .map(|ws| format!(" --ws {ws}"))
            .unwrap_or_default()
    }
}

/// The live directory under `planning` and the active workstream that names it, if any.
pub fn live_dir(planning: &Path) -> (PathBuf, Option<String>) {
    match active_workstream(planning) {
        Some(ws) => (planning.join("workstreams").join(&ws), Some(ws)),
        None => (planning.to_path_buf(), None),
    }
}

/// The workstream gsd-core's tools would use: `GSD_WORKSTREAM`, else the name in
/// `.planning/active-workstream`, when it is a plain name whose directory exists.
fn active_workstream(planning: &Path) -> Option<String> {
    let named = std::env::var("GSD_WORKSTREAM").ok().or_else(|| {
        let bytes = crate::fsx::read_regular(&planning.join("active-workstream"), 4096).ok()?;
        Some(String::from_utf8_lossy(&bytes).trim().to_owned())
    })?;
    let plain = !named.is_empty()
        && named.len() <= MAX_WORKSTREAM_NAME
        && named != "."
        && named != ".."
        && named
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    (plain && planning.join("workstreams").join(&named).is_dir()).then_some(named)
}

/// What gsd-core leaves and GSD 1.x does not: `.planning/state.json` or `milestone.lock`, or
/// in STATE.md's frontmatter a quoted `gsd_state_version`, `last_activity_desc` or `state_head`.
fn core_marks(planning: &Path, live: &Path) -> bool {
    if planning.join("state.json").is_file() || planning.join("milestone.lock").is_file() {
        return true;
    }
    let mut head = Vec::new();
    // Only its head, and never blocking on a FIFO planted there.
    let read =
        crate::fsx::open_regular(&live.join("STATE.md")).and_then(|f| f.take(STATE_HEAD_BYTES).read_to_end(&mut head));
    if read.is_err() {
        return false;
    }
    let text = String::from_utf8_lossy(&head).replace("\r\n", "\n");
    let Some(frontmatter) = super::state::split_frontmatter(&text).0 else {
        return false;
    };
    frontmatter.lines().any(|line| {
        line.starts_with("last_activity_desc:")
            || line.starts_with("state_head:")
            || line
                .strip_prefix("gsd_state_version:")
                .is_some_and(|v| v.trim_start().starts_with(['"', '\'']))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn project(files: &[(&str, &str)]) -> (tempfile::TempDir, Project) {
        let tmp = tempfile::tempdir().unwrap();
        fs::create_dir_all(tmp.path().join(".planning")).unwrap();
        for (path, text) in files {
            let p = tmp.path().join(".planning").join(path);
            fs::create_dir_all(p.parent().unwrap()).unwrap();
            fs::write(p, text).unwrap();
        }
        let project = Project {
            root: tmp.path().to_path_buf(),
        };
        (tmp, project)
    }

    #[test]
    fn tells_gsd_core_from_gsd_1() {
        let classic = "---\ngsd_state_version: 1.0\nstatus: executing\n---\n# State\n";
        let (_t, p) = project(&[("STATE.md", classic)]);
        assert_eq!(Layout::of(&p).generation, Generation::Classic);
        for core in [
            "---\ngsd_state_version: \"1.0\"\n---\n",
            "---\ngsd_state_version: 1.0\nlast_activity_desc: Phase 1 started\n---\n",
            "---\r\nstate_head: abc123\r\n---\r\n",
        ] {
            let (_t, p) = project(&[("STATE.md", core)]);
            assert_eq!(Layout::of(&p).generation, Generation::Core, "{core:?}");
        }
        let (_t, p) = project(&[("STATE.md", classic), ("state.json", "{}")]);
        assert_eq!(Layout::of(&p).generation, Generation::Core);
        // A body line is not the frontmatter.
        let (_t, p) = project(&[("STATE.md", "# State\nstate_head: x\n")]);
        assert_eq!(Layout::of(&p).generation, Generation::Classic);
    }

    #[test]
    fn an_active_workstream_holds_the_live_files() {
        let (_t, p) = project(&[
            ("active-workstream", "billing\n"),
            ("workstreams/billing/STATE.md", "x"),
        ]);
        let layout = Layout::of(&p);
        assert_eq!(layout.workstream.as_deref(), Some("billing"));
        assert_eq!(layout.live, p.planning_dir().join("workstreams/billing"));
        assert_eq!(
            (layout.generation, layout.workstream_flag().as_str()),
            (Generation::Core, " --ws billing")
        );
        for bad in ["../x\n", "gone\n", "\n"] {
            let (_t, p) = project(&[("active-workstream", bad), ("workstreams/billing/STATE.md", "x")]);
            assert_eq!(Layout::of(&p).live, p.planning_dir(), "{bad:?}");
        }
    }
}
