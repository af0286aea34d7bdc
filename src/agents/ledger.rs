//! The ledger of subagent runs: one `.baton/agents/<run-id>.json` per run, written by the
//! SubagentStart and SubagentStop hooks (start HEAD, times, files changed, the agent's final
//! message, its transcript, the spot-check) and read by `baton agents list/verify`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::verification::Verification;
use crate::clock;
use crate::error::{Context, Error, Result};
use crate::fsx;
use crate::planning::Project;

/// Largest ledger file baton reads (a final message is capped well below this).
const MAX_RUN_BYTES: u64 = 4 * 1024 * 1024;
/// Longest final message kept in the ledger.
pub const MAX_MESSAGE_CHARS: usize = 100_000;

/// Where a run is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    #[default]
    Running,
    Finished,
}

/// One subagent run as recorded.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Run {
    /// Claude Code's `agent_id`, also the file name.
    pub id: String,
    /// `agent_type`: `general-purpose`, `gsd-executor`, …
    #[serde(rename = "type")]
    pub agent_type: Option<String>,
    pub status: Status,
    /// The orchestrating session.
    pub session_id: Option<String>,
    /// RFC 3339, milliseconds, UTC.
    pub started_at: Option<String>,
    pub ended_at: Option<String>,
    /// The directory the agent worked in.
    pub cwd: Option<String>,
    /// The git work tree's top, when the project is in git.
    pub worktree: Option<String>,
    pub head_at_start: Option<String>,
    pub branch_at_start: Option<String>,
    /// Paths already dirty at the start, with their fingerprints (not the agent's work).
    pub dirty_at_start: BTreeMap<String, String>,
    /// Paths (relative to `worktree`) changed during the run, computed at stop;
    /// `None` when git could not tell.
    pub files_changed: Option<Vec<String>>,
    /// Paths this run wrote through its own Write/Edit/MultiEdit/NotebookEdit calls (relative
    /// to `worktree` when below it, else absolute), recorded by PostToolUse inside the
    /// subagent. Empty when it wrote none that way, or in records made before baton kept them.
    pub tool_edits: Vec<String>,
    pub head_at_end: Option<String>,
    /// The agent's final message.
    pub last_message: Option<String>,
    pub transcript_path: Option<String>,
    /// The run went on in the background (Claude Code 2.1.332's default for agents): its
    /// SubagentStop listed it among the session's `background_tasks`.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub background: bool,
    pub verification: Option<Verification>,
    /// What the bridge extracted from the run's files for the next agent (`baton bridge`),
    /// written at SubagentStop: the bridge's handoff as JSON, kept here without reading it
    /// (the bridge, above the ledger, reads it back).
    pub handoff: Option<serde_json::Value>,
    /// What went wrong while recording (git missing, no start record, …).
    pub notes: Vec<String>,
    pub generator: String,
}

impl Run {
    /// Milliseconds since the epoch at the start, if recorded.
    pub fn started_ms(&self) -> Option<i64> {
        clock::timestamp_millis(self.started_at.as_deref()?)
    }

    /// Milliseconds since the epoch at the end, if recorded.
    pub fn ended_ms(&self) -> Option<i64> {
        clock::timestamp_millis(self.ended_at.as_deref()?)
    }

    /// Milliseconds the run took, when both ends are known.
    pub fn duration_ms(&self) -> Option<i64> {
        Some(self.ended_ms()? - self.started_ms()?)
    }

    /// Records a file this run wrote with its own tool call (once; at most [`MAX_TOOL_EDITS`]).
    pub fn add_tool_edit(&mut self, path: &Path) {
        if self.tool_edits.len() >= MAX_TOOL_EDITS {
            return;
        }
        let relative = self.worktree.as_deref().and_then(|top| below(path, Path::new(top)));
        let shown = crate::platform::path::shown(relative.as_deref().unwrap_or(path));
        if !self.tool_edits.contains(&shown) {
            self.tool_edits.push(shown);
        }
    }

    /// [`Run::tool_edits`] as absolute paths.
    pub fn tool_edits_absolute(&self) -> Vec<PathBuf> {
        let top = self.worktree.as_deref().or(self.cwd.as_deref()).map(Path::new);
        self.tool_edits
            .iter()
            .map(|p| match top {
                Some(top) if Path::new(p).is_relative() => top.join(p),
                _ => PathBuf::from(p),
            })
            .collect()
    }

    /// Whether the two runs were under way at the same time (an unknown end is still running).
    pub fn overlaps(&self, other: &Run) -> bool {
        let span = |r: &Run| (r.started_ms().unwrap_or(i64::MIN), r.ended_ms().unwrap_or(i64::MAX));
        let ((a0, a1), (b0, b1)) = (span(self), span(other));
        a0 <= b1 && b0 <= a1
    }
}

/// `path` relative to `top` when below it, also through symlinks (git reports the real top).
fn below(path: &Path, top: &Path) -> Option<PathBuf> {
    match path.strip_prefix(top) {
        Ok(relative) => Some(relative.to_path_buf()),
        Err(_) => Some(
            crate::platform::path::canonical(path)
                .ok()?
                .strip_prefix(top)
                .ok()?
                .to_path_buf(),
        ),
    }
}

/// Most tool edits kept per run.
pub const MAX_TOOL_EDITS: usize = 2_000;

/// Now as the ledger writes times: RFC 3339 UTC with milliseconds (read back with
/// `clock::timestamp_millis`; `clock::utc_rfc3339` keeps only seconds, too
/// coarse to order runs that start within one second).
pub fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// `<project>/.baton/agents`.
pub fn dir(project: &Project) -> PathBuf {
    project.root.join(".baton").join("agents")
}

/// The ledger file of run `id`; `None` for an id unsafe in a file name.
pub fn file(project: &Project, id: &str) -> Option<PathBuf> {
    fsx::is_safe_session_id(id).then(|| dir(project).join(format!("{id}.json")))
}

/// Reads one ledger file.
pub fn read(path: &Path) -> Result<Run> {
    let bytes = fsx::read_regular(path, MAX_RUN_BYTES).map_err(|e| Error::io(path, e))?;
    serde_json::from_slice(&bytes).map_err(|e| {
        Error::invalid(
            path,
            format!("not a baton ledger record ({e}); remove the file if it is damaged"),
        )
        .caused_by(e)
    })
}

/// Every readable run, oldest first, and the files that could not be read.
pub fn list(project: &Project) -> (Vec<Run>, Vec<Error>) {
    let mut runs = Vec::new();
    let mut broken = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir(project)) else {
        return (runs, broken);
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if !name.ends_with(".json") || name.starts_with('.') {
            continue;
        }
        match read(&path) {
            Ok(run) => runs.push(run),
            Err(e) => broken.push(e),
        }
    }
    runs.sort_by(|a, b| (a.started_ms(), &a.id).cmp(&(b.started_ms(), &b.id)));
    (runs, broken)
}

/// The readable runs of session `session_id`, oldest first. A record is parsed only when its
/// bytes hold the session id, so a long ledger costs a read, not a parse, per other run.
pub fn list_of_session(project: &Project, session_id: &str) -> Vec<Run> {
    let Ok(entries) = std::fs::read_dir(dir(project)) else {
        return Vec::new();
    };
    let needle = serde_json::to_string(session_id).unwrap_or_default();
    let mut runs: Vec<Run> = entries
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".json"))
        .filter_map(|e| fsx::read_regular(&e.path(), MAX_RUN_BYTES).ok())
        .filter(|bytes| memchr::memmem::find(bytes, needle.as_bytes()).is_some())
        .filter_map(|bytes| serde_json::from_slice::<Run>(&bytes).ok())
        .filter(|run| run.session_id.as_deref() == Some(session_id))
        .collect();
    runs.sort_by(|a, b| (a.started_ms(), &a.id).cmp(&(b.started_ms(), &b.id)));
    runs
}

/// The run whose id is `wanted` or starts with it (`last` = the latest run).
pub fn find(project: &Project, wanted: &str) -> Result<Run> {
    let (runs, _) = list(project);
    if wanted == "last" {
        return runs.into_iter().next_back().ok_or_else(|| no_runs(project));
    }
    if let Some(path) = file(project, wanted)
        && path.is_file()
    {
        return read(&path);
    }
    let mut matching: Vec<Run> = runs.into_iter().filter(|r| r.id.starts_with(wanted)).collect();
    match matching.len() {
        1 => Ok(matching.remove(0)),
        0 => Err(Error::Failed(format!(
            "no run '{wanted}' in {}; `baton agents list` shows the recorded runs",
            dir(project).display()
        ))),
        n => Err(Error::Usage(format!(
            "'{wanted}' matches {n} runs ({}); give more of the id",
            matching.iter().map(|r| r.id.as_str()).collect::<Vec<_>>().join(", ")
        ))),
    }
}

fn no_runs(project: &Project) -> Error {
    Error::Failed(format!("no subagent runs recorded in {}", dir(project).display()))
}

/// Reads run `id` (a fresh one when missing), applies `change`, and writes it back
/// atomically under the run's own lock (parallel agents starting or stopping together do
/// not wait for each other; a hook gives up on a lock after a few tens of milliseconds).
pub fn update(project: &Project, id: &str, change: impl FnOnce(&mut Run)) -> Result<Run> {
    let path = file(project, id).ok_or_else(|| Error::Failed(format!("'{id}' is not a usable run id")))?;
    let _lock = project.lock(&format!("agents-{id}"))?;
    project.check_writable(&path)?;
    let mut run = if path.exists() {
        read(&path)?
    } else {
        Run {
            id: id.to_owned(),
            ..Run::default()
        }
    };
    change(&mut run);
    run.generator = "baton".to_owned();
    let mut text = serde_json::to_string_pretty(&run).context("cannot encode the ledger record")?;
    text.push('\n');
    project.write_file(&path, text.as_bytes())?;
    Ok(run)
}

/// Keeps at most [`MAX_MESSAGE_CHARS`] of a final message.
pub fn clip_message(message: &str) -> String {
    match message.char_indices().nth(MAX_MESSAGE_CHARS) {
        Some((end, _)) => format!("{}…", &message[..end]),
        None => message.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn updates_round_trip_and_ids_are_checked() {
        let tmp = tempfile::tempdir().unwrap();
        let project = Project {
            root: tmp.path().to_path_buf(),
        };
        update(&project, "ab81ffb4535095a29", |r| {
            r.started_at = Some("2026-11-29T10:00:00.000Z".into());
        })
        .unwrap();
        let run = update(&project, "ab81ffb4535095a29", |r| {
            r.status = Status::Finished;
            r.ended_at = Some("2026-11-29T10:00:02.500Z".into());
        })
        .unwrap();
        assert_eq!(run.duration_ms(), Some(2500));
        assert_eq!(find(&project, "ab81").unwrap(), run);
        assert_eq!(find(&project, "last").unwrap().id, "ab81ffb4535095a29");
        assert!(update(&project, "../evil", |_| {}).is_err());
        std::fs::write(dir(&project).join("broken.json"), "{").unwrap();
        let (runs, broken) = list(&project);
        assert_eq!((runs.len(), broken.len()), (1, 1));
        assert!(
            find(&project, "zz")
                .unwrap_err()
                .to_string()
                .contains("baton agents list")
        );
    }

    #[test]
    fn tool_edits_are_kept_relative_to_the_work_tree_once_each() {
        let mut run = Run {
            worktree: Some("/p".into()),
            started_at: Some("2026-11-29T10:00:00.000Z".into()),
            ended_at: Some("2026-11-29T10:00:05.000Z".into()),
            ..Run::default()
        };
        for path in ["/p/src/a.rs", "/p/src/a.rs", "/elsewhere/b.rs"] {
            run.add_tool_edit(Path::new(path));
        }
        assert_eq!(run.tool_edits, ["src/a.rs", "/elsewhere/b.rs"]);
        assert_eq!(
            run.tool_edits_absolute(),
            [PathBuf::from("/p/src/a.rs"), PathBuf::from("/elsewhere/b.rs")]
        );
        let at = |start: &str, end: Option<&str>| Run {
            started_at: Some(format!("2026-11-29T10:00:{start}.000Z")),
            ended_at: end.map(|e| format!("2026-11-29T10:00:{e}.000Z")),
            ..Run::default()
        };
        assert!(run.overlaps(&at("04", Some("09"))) && run.overlaps(&at("01", None)));
        assert!(!run.overlaps(&at("06", None)) && !at("06", None).overlaps(&run));
        assert!(run.overlaps(&Run::default()), "an unknown span may overlap anything");
    }

    #[test]
    fn clips_long_messages_on_a_char_boundary() {
        let long = "é".repeat(MAX_MESSAGE_CHARS + 5);
        assert_eq!(clip_message(&long).chars().count(), MAX_MESSAGE_CHARS + 1);
        assert_eq!(clip_message("short"), "short");
    }
}
