//! `.planning/HANDOFF.json`, GSD's schema plus `"generator": "baton"` and the trigger:
//! reading (lenient about types and shapes, strict about syntax), validation, and writing.
//! Fields baton does not know (GSD's `git_branch`, `resume_command`, a task's `files`, …)
//! are kept, at the top level and inside every list item, and written back as they came.

mod fields;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use fields::{flag, list, objects, scalar, text, texts};

use crate::error::{Context, Error, Result};
use crate::fsx;
use crate::planning::Project;

/// The schema version GSD writes.
pub const VERSION: &str = "1.0";
/// Largest handoff baton reads.
const MAX_HANDOFF_BYTES: u64 = 8 * 1024 * 1024;
/// Blocker types GSD knows.
pub const BLOCKER_TYPES: &[&str] = &["technical", "human_action", "external"];

/// A task of the current plan (or a plan, when tasks are not known).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Task {
    /// As written: a number stays a number.
    #[serde(deserialize_with = "scalar", skip_serializing_if = "Option::is_none")]
    pub id: Option<Value>,
    #[serde(deserialize_with = "text")]
    pub name: Option<String>,
    #[serde(deserialize_with = "text")]
    pub status: Option<String>,
    #[serde(deserialize_with = "text", skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Blocker {
    #[serde(deserialize_with = "text")]
    pub description: Option<String>,
    #[serde(rename = "type", deserialize_with = "text")]
    pub kind: Option<String>,
    #[serde(deserialize_with = "text", skip_serializing_if = "Option::is_none")]
    pub workaround: Option<String>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Blocker {
    /// `[human_action] Stripe key missing (workaround: test mode)`; `None` without a description.
    pub fn describe(&self) -> Option<String> {
        let text = self.description.as_deref()?;
        let kind = self.kind.as_deref().unwrap_or("technical");
        let workaround = self
            .workaround
            .as_deref()
            .map(|w| format!(" (workaround: {w})"))
            .unwrap_or_default();
        Some(format!("[{kind}] {text}{workaround}"))
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct HumanAction {
    #[serde(deserialize_with = "text")]
    pub action: Option<String>,
    #[serde(deserialize_with = "text", skip_serializing_if = "Option::is_none")]
    pub context: Option<String>,
    #[serde(deserialize_with = "flag")]
    pub blocking: bool,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl HumanAction {
    /// `Add STRIPE_KEY to .env — payments (blocking)`; `None` without an action.
    pub fn describe(&self) -> Option<String> {
        let action = self.action.as_deref()?;
        let context = self.context.as_deref().map(|c| format!(" — {c}")).unwrap_or_default();
        let blocking = if self.blocking { " (blocking)" } else { "" };
        Some(format!("{action}{context}{blocking}"))
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Decision {
    #[serde(deserialize_with = "text")]
    pub decision: Option<String>,
    #[serde(deserialize_with = "text", skip_serializing_if = "Option::is_none")]
    pub rationale: Option<String>,
    #[serde(deserialize_with = "text", skip_serializing_if = "Option::is_none")]
    pub phase: Option<String>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Where work stands, written by `pause` and read first by `resume`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Handoff {
    #[serde(deserialize_with = "text")]
    pub version: Option<String>,
    #[serde(deserialize_with = "text")]
    pub timestamp: Option<String>,
    #[serde(deserialize_with = "text")]
    pub phase: Option<String>,
    #[serde(deserialize_with = "text")]
    pub phase_name: Option<String>,
    #[serde(deserialize_with = "text")]
    pub phase_dir: Option<String>,
    #[serde(deserialize_with = "text")]
    pub plan: Option<String>,
    #[serde(deserialize_with = "text")]
    pub task: Option<String>,
    #[serde(deserialize_with = "text")]
    pub total_tasks: Option<String>,
    #[serde(deserialize_with = "text")]
    pub status: Option<String>,
    #[serde(deserialize_with = "list")]
    pub completed_tasks: Vec<Task>,
    #[serde(deserialize_with = "list")]
    pub remaining_tasks: Vec<Task>,
    #[serde(deserialize_with = "list")]
    pub blockers: Vec<Blocker>,
    #[serde(deserialize_with = "list")]
    pub human_actions_pending: Vec<HumanAction>,
    #[serde(deserialize_with = "list")]
    pub decisions: Vec<Decision>,
    #[serde(deserialize_with = "texts")]
    pub uncommitted_files: Vec<String>,
    /// gsd-core's external jobs still running at the pause, its "primary resume context".
    #[serde(deserialize_with = "objects", skip_serializing_if = "Vec::is_empty")]
    pub async_jobs: Vec<Value>,
    #[serde(deserialize_with = "text")]
    pub next_action: Option<String>,
    #[serde(deserialize_with = "text")]
    pub context_notes: Option<String>,
    #[serde(deserialize_with = "text", skip_serializing_if = "Option::is_none")]
    pub generator: Option<String>,
    /// Why it was written: `manual`, `pre-compact`, `context-critical`.
    #[serde(deserialize_with = "text", skip_serializing_if = "Option::is_none")]
    pub trigger: Option<String>,
    /// The Claude Code session that wrote it (automatic breadcrumbs; GSD writes it too).
    #[serde(deserialize_with = "text", skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Handoff {
    /// Every problem that keeps this handoff from being written; empty when valid.
    pub fn problems(&self) -> Vec<String> {
        let mut problems = Vec::new();
        if self.version.as_deref() != Some(VERSION) {
            problems.push(format!("version must be \"{VERSION}\""));
        }
        if self.status.as_deref() != Some("paused") {
            problems.push("status must be \"paused\"".to_owned());
        }
        match self.timestamp.as_deref().map(chrono::DateTime::parse_from_rfc3339) {
            Some(Ok(_)) => {}
            _ => problems.push("timestamp must be an RFC 3339 time such as 2026-11-30T10:00:00Z".to_owned()),
        }
        for (i, t) in self.completed_tasks.iter().chain(&self.remaining_tasks).enumerate() {
            if t.name.is_none() {
                problems.push(format!("task {} has no name", i + 1));
            }
        }
        for (i, b) in self.blockers.iter().enumerate() {
            if b.description.is_none() {
                problems.push(format!("blockers[{i}] has no description"));
            }
            if !b.kind.as_deref().is_some_and(|k| BLOCKER_TYPES.contains(&k)) {
                problems.push(format!(
                    "blockers[{i}].type must be one of {}",
                    BLOCKER_TYPES.join(", ")
                ));
            }
        }
        for (i, h) in self.human_actions_pending.iter().enumerate() {
            if h.action.is_none() {
                problems.push(format!("human_actions_pending[{i}] has no action"));
            }
        }
        for (i, d) in self.decisions.iter().enumerate() {
            if d.decision.is_none() {
                problems.push(format!("decisions[{i}] has no decision"));
            }
        }
        problems
    }

    /// One line saying where work stopped: `Phase 3 (API), plan 03-02: <in-progress task>`.
    pub fn stopped_at(&self) -> String {
        let mut text = match (&self.phase, &self.phase_name) {
            (Some(p), Some(n)) => format!("Phase {p} ({n})"),
            (Some(p), None) => format!("Phase {p}"),
            _ => "Paused".to_owned(),
        };
        if let Some(plan) = &self.plan {
            text.push_str(&format!(", plan {plan}"));
        }
        // "Plan 03-02" adds nothing to ", plan 03-02"; a real task name does.
        if let Some(task) = self.in_progress_task().and_then(|t| t.name.as_deref())
            && self.plan.as_deref().is_none_or(|p| !task.contains(p))
        {
            text.push_str(&format!(": {task}"));
        }
        text
    }

    /// The task in progress: one marked `in_progress` (gsd-core lists it among
    /// `completed_tasks`, baton among `remaining_tasks`), else the first remaining.
    pub fn in_progress_task(&self) -> Option<&Task> {
        self.completed_tasks
            .iter()
            .chain(&self.remaining_tasks)
            .find(|t| t.status.as_deref() == Some("in_progress"))
            .or_else(|| self.remaining_tasks.first())
    }

    /// The external jobs it records, as read.
    pub fn jobs(&self) -> Vec<crate::planning::async_jobs::Job> {
        self.async_jobs
            .iter()
            .filter_map(crate::planning::async_jobs::Job::from_value)
            .collect()
    }
}

/// `<root>/.planning/HANDOFF.json`.
pub fn path(root: &Path) -> PathBuf {
    root.join(".planning").join("HANDOFF.json")
}

/// Reads a handoff; `Ok(None)` when there is none, an error naming the file when it is
/// unreadable or not valid JSON (a truncated write, hand edits).
pub fn read(root: &Path) -> Result<Option<Handoff>> {
    let path = path(root);
    let bytes = match fsx::read_regular(&path, MAX_HANDOFF_BYTES) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::io(&path, e)),
    };
    serde_json::from_slice(&bytes)
        .map(Some)
        .map_err(|e| Error::invalid(&path, format!("not a readable handoff ({e})")).caused_by(e))
}

/// An error naming every problem that keeps `handoff` from being written.
pub fn validate(root: &Path, handoff: &Handoff) -> Result<()> {
    let problems = handoff.problems();
    if problems.is_empty() {
        return Ok(());
    }
    Err(Error::invalid(
        &path(root),
        format!("refusing to write an invalid handoff: {}", problems.join("; ")),
    ))
}

/// Validates and writes a handoff atomically (fsync, rename over the old one, whose mode it
/// keeps), then reads it back.
pub fn write(project: &Project, handoff: &Handoff) -> Result<PathBuf> {
    let root = &project.root;
    validate(root, handoff)?;
    let path = path(root);
    let mut json = serde_json::to_vec_pretty(handoff).context("cannot encode the handoff")?;
    json.push(b'\n');
    project.write_file(&path, &json)?;
    match read(root)? {
        Some(back) if back == *handoff => Ok(path),
        _ => Err(Error::invalid(&path, "the handoff did not read back as written")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_gsds_schema_with_numbers_and_nulls() {
        let h: Handoff = serde_json::from_str(
            r#"{"version":"1.0","timestamp":"2026-11-30T10:00:00Z","phase":3,"phase_name":"API","phase_dir":".planning/phases/03-api",
                "plan":2,"task":3,"total_tasks":5,"status":"paused",
                "completed_tasks":[{"id":1,"name":"Schema","status":"done","commit":"abc1234"}],
                "remaining_tasks":[{"id":3,"name":"Routes","status":"in_progress"},{"id":4,"name":"Tests","status":"pending"}],
                "blockers":[{"description":"Stripe key missing","type":"human_action","workaround":null}],
                "human_actions_pending":[{"action":"Add STRIPE_KEY to .env","context":"payments","blocking":true}],
                "decisions":[{"decision":"Use JWT","rationale":"stateless","phase":"3"}],
                "uncommitted_files":["src/api.rs"],"next_action":"Finish routes","context_notes":null}"#,
        )
        .unwrap();
        assert_eq!((h.phase.as_deref(), h.task.as_deref()), (Some("3"), Some("3")));
        assert_eq!(h.in_progress_task().unwrap().name.as_deref(), Some("Routes"));
        assert_eq!(h.context_notes, None);
        assert!(h.problems().is_empty(), "{:?}", h.problems());
    }

    /// Found by fuzzing (fuzz/fuzz_targets/handoff.rs): JSON numbers were read to the
    /// nearest float only roughly, so `1e96` in a field GSD or an agent added read back as
    /// `9.999999999999999e95` from baton's own JSON, and `write` refused the handoff.
    #[test]
    fn numbers_in_any_field_read_back_exactly() {
        let given = r#"{"version":"1.0","status":"paused","x":1e96,"y":4.444444444444445e106,
            "remaining_tasks":[{"name":"a","weight":0.30000000000000004}]}"#;
        let h: Handoff = serde_json::from_str(given).unwrap();
        assert_eq!(h.extra["x"].as_f64(), Some(1e96));
        let back: Handoff = serde_json::from_slice(&serde_json::to_vec_pretty(&h).unwrap()).unwrap();
        assert_eq!(back, h);
    }

    #[test]
    fn keeps_unknown_fields_and_numeric_ids_and_tolerates_odd_shapes() {
        let given = r#"{"version":"1.0","timestamp":"2026-11-30T10:00:00Z","status":"paused","git_branch":"feat/cart",
            "session_id":"abc","resume_command":"/gsd:resume-work",
            "completed_tasks":[{"id":1,"name":"Schema","status":"done","files":["a.rs"]}],
            "remaining_tasks":["Routes",{"id":"3","name":"Tests","progress":"half"}],
            "blockers":[{"description":"Key","type":"external","owner":"ops"}],
            "human_actions_pending":[{"action":"Approve","blocking":null,"due":"today"}],
            "decisions":[{"decision":"JWT","phase":3,"by":"me"}],"uncommitted_files":null}"#;
        let h: Handoff = serde_json::from_str(given).unwrap();
        assert_eq!(h.remaining_tasks[0].name.as_deref(), Some("Routes"));
        assert!(!h.human_actions_pending[0].blocking && h.uncommitted_files.is_empty());
        assert!(h.problems().is_empty(), "{:?}", h.problems());
        let back = serde_json::to_value(&h).unwrap();
        assert_eq!(back["git_branch"], "feat/cart");
        assert_eq!(back["resume_command"], "/gsd:resume-work");
        assert_eq!(back["session_id"], "abc");
        assert_eq!(back["completed_tasks"][0]["id"], 1);
        assert_eq!(back["completed_tasks"][0]["files"][0], "a.rs");
        assert_eq!(back["remaining_tasks"][1]["progress"], "half");
        assert_eq!(back["blockers"][0]["owner"], "ops");
        assert_eq!(back["human_actions_pending"][0]["due"], "today");
        assert_eq!(back["decisions"][0]["by"], "me");
        let again: Handoff = serde_json::from_value(back).unwrap();
        assert_eq!(again, h);
    }

    #[test]
    fn validation_names_every_problem() {
        let h = Handoff {
            blockers: vec![Blocker {
                kind: Some("urgent".into()),
                ..Blocker::default()
            }],
            ..Handoff::default()
        };
        let problems = h.problems().join("\n");
        for expected in [
            "version",
            "status",
            "timestamp",
            "blockers[0] has no description",
            "blockers[0].type",
        ] {
            assert!(problems.contains(expected), "{expected} missing from {problems}");
        }
    }
}
