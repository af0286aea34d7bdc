//! `baton pause`: records where the work stands (HANDOFF.json, `.continue-here.md`) and
//! notes the pause in STATE.md's session-continuity fields, changing nothing else there.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::error::{Error, Result};
use crate::fsx;
use crate::planning::Project;
use crate::planning::snapshot::Snapshot;
use crate::planning::state_edit;

use super::continue_here;
use super::handoff::{self, Blocker, Decision, Handoff, HumanAction, Task};

/// What the agent or person knows that the files do not.
#[derive(Debug, Default, Clone)]
pub struct PauseRequest {
    pub notes: Vec<String>,
    pub next: Option<String>,
    pub blockers: Vec<String>,
    pub human_actions: Vec<String>,
    pub decisions: Vec<String>,
    /// A whole or partial handoff (GSD's schema) whose fields win over computed ones.
    pub structured: Option<Value>,
    /// `manual`, `pre-compact`, `context-critical`.
    pub trigger: String,
}

/// What `pause` wrote.
#[derive(Debug, Clone)]
pub struct PauseOutcome {
    pub handoff: PathBuf,
    pub continue_here: PathBuf,
    /// STATE.md, when it exists and was updated.
    pub state: Option<PathBuf>,
    pub record: Handoff,
}

/// Writes the handoff, `.continue-here.md` and the STATE.md continuity fields.
pub fn pause(project: &Project, request: &PauseRequest, now: chrono::DateTime<chrono::Utc>) -> Result<PauseOutcome> {
    let _guard = project.lock("planning")?;
    let snapshot = Snapshot::load(project);
    let record = build(&snapshot, request, now)?;
    let handoff_path = handoff::write(&project.root, &record)?;

    let dir = snapshot.position().phase_dir.unwrap_or_else(|| project.planning_dir());
    let continue_path = dir.join(".continue-here.md");
    let text = continue_here::render(&record);
    fsx::write_atomic(&continue_path, text.as_bytes(), 0o644, fsx::Durability::Durable)
        .map_err(|e| Error::io(&continue_path, e))?;

    let state = record_in_state(project, &record, &continue_path, now)?;
    Ok(PauseOutcome {
        handoff: handoff_path,
        continue_here: continue_path,
        state,
        record,
    })
}

/// The handoff record: state files first, then the request's fields, then `structured`.
pub fn build(snapshot: &Snapshot, request: &PauseRequest, now: chrono::DateTime<chrono::Utc>) -> Result<Handoff> {
    let position = snapshot.position();
    let phase = snapshot.current_phase();
    let relative = |p: &Path| {
        p.strip_prefix(&snapshot.project.root)
            .unwrap_or(p)
            .display()
            .to_string()
    };
    let mut record = Handoff {
        version: Some(handoff::VERSION.to_owned()),
        timestamp: Some(now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)),
        phase: position.phase.clone(),
        phase_name: position.phase_name.clone(),
        phase_dir: position.phase_dir.as_deref().map(relative),
        plan: position.plan.clone(),
        status: Some("paused".to_owned()),
        generator: Some("baton".to_owned()),
        trigger: Some(request.trigger.clone()),
        ..Handoff::default()
    };
    if let Some(phase) = phase {
        // Plans stand in for tasks: done plans have SUMMARYs, the next one is in progress.
        let dir = phase.dir.as_deref().and_then(crate::planning::phases::PhaseDir::read);
        for id in dir.iter().flat_map(|d| d.plans.iter()) {
            let done = dir.as_ref().is_some_and(|d| d.summaries.contains(id));
            let status = if done {
                "done"
            } else if Some(id) == phase.next_plan.as_ref() {
                "in_progress"
            } else {
                "pending"
            };
            let task = Task {
                id: Some(id.clone()),
                name: Some(format!("Plan {id}")),
                status: Some(status.to_owned()),
                commit: None,
            };
            if done {
                record.completed_tasks.push(task)
            } else {
                record.remaining_tasks.push(task)
            }
        }
        record.total_tasks = Some(phase.plans_total.to_string()).filter(|_| phase.plans_total > 0);
        record.task =
            Some((phase.plans_done + 1).min(phase.plans_total.max(1)).to_string()).filter(|_| phase.plans_total > 0);
    }
    let state = snapshot.state.clone().unwrap_or_default();
    record.blockers = state
        .blockers
        .iter()
        .chain(&request.blockers)
        .map(|b| blocker(b))
        .collect();
    record.human_actions_pending = request
        .human_actions
        .iter()
        .map(|a| HumanAction {
            action: Some(a.trim().to_owned()),
            context: None,
            blocking: true,
        })
        .collect();
    record.decisions = request
        .decisions
        .iter()
        .map(|d| Decision {
            decision: Some(d.trim().to_owned()),
            rationale: None,
            phase: position.phase.clone(),
        })
        .collect();
    record.uncommitted_files = crate::git::uncommitted_files(&snapshot.project.root).unwrap_or_default();
    record.next_action = request.next.clone().or_else(|| {
        let next = snapshot.next_action();
        Some(format!("{} ({})", next.command, next.reason))
    });
    let notes: Vec<&str> = request
        .notes
        .iter()
        .map(|n| n.trim())
        .filter(|n| !n.is_empty())
        .collect();
    record.context_notes = (!notes.is_empty()).then(|| notes.join("\n"));
    if let Some(structured) = &request.structured {
        record = overlay(record, structured)?;
    }
    Ok(record)
}

/// `--blocker` text: `human_action: …` or `external: …` set the type; otherwise technical.
fn blocker(text: &str) -> Blocker {
    let text = text.trim();
    for kind in handoff::BLOCKER_TYPES {
        if let Some(rest) = text.strip_prefix(kind).and_then(|r| r.strip_prefix(':')) {
            return Blocker {
                description: Some(rest.trim().to_owned()),
                kind: Some((*kind).to_owned()),
                workaround: None,
            };
        }
    }
    Blocker {
        description: Some(text.to_owned()),
        kind: Some("technical".to_owned()),
        workaround: None,
    }
}

/// Lays the fields of a structured handoff over the computed record.
fn overlay(record: Handoff, structured: &Value) -> Result<Handoff> {
    let Value::Object(given) = structured else {
        return Err(Error::Failed(
            "--json-in expects a JSON object in HANDOFF.json's schema on stdin".to_owned(),
        ));
    };
    let mut merged = serde_json::to_value(&record).map_err(|e| Error::Failed(e.to_string()))?;
    for (key, value) in given {
        if !value.is_null() {
            merged[key] = value.clone();
        }
    }
    // The version and status are the schema's, whatever came in.
    merged["version"] = Value::from(handoff::VERSION);
    merged["status"] = Value::from("paused");
    serde_json::from_value(merged)
        .map_err(|e| Error::Failed(format!("--json-in: the handoff does not fit GSD's schema: {e}")))
}

/// Notes the pause in STATE.md (frontmatter `paused_at`, `stopped_at`; body `Last session:`,
/// `Stopped at:`, `Resume file:`); `None` when there is no STATE.md.
fn record_in_state(
    project: &Project,
    record: &Handoff,
    continue_path: &Path,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<Option<PathBuf>> {
    let path = project.planning_dir().join("STATE.md");
    let Ok(bytes) = fsx::read_regular(&path, 4 * 1024 * 1024) else {
        return Ok(None);
    };
    let Ok(text) = String::from_utf8(bytes) else {
        return Err(Error::invalid(&path, "is not UTF-8 text; baton leaves it untouched"));
    };
    let stopped = stopped_at(record);
    let stamp = now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let resume = continue_path
        .strip_prefix(&project.root)
        .unwrap_or(continue_path)
        .display()
        .to_string();
    // Only a pause someone asked for marks the project paused; breadcrumbs just note the spot.
    let mut edited = if record.trigger.as_deref() == Some("manual") {
        state_edit::set_frontmatter_value(&text, "paused_at", Some(&stamp))
    } else {
        text.clone()
    };
    edited = state_edit::set_frontmatter_value(&edited, "stopped_at", Some(&stopped));
    edited = state_edit::set_continuity_line(&edited, "Last session:", &stamp);
    edited = state_edit::set_continuity_line(&edited, "Stopped at:", &stopped);
    edited = state_edit::set_continuity_line(&edited, "Resume file:", &resume);
    fsx::write_atomic(&path, edited.as_bytes(), 0o644, fsx::Durability::Durable).map_err(|e| Error::io(&path, e))?;
    Ok(Some(path))
}

/// One line saying where work stopped: `Phase 3 (API), plan 03-02: <in-progress task>`.
pub fn stopped_at(record: &Handoff) -> String {
    let mut text = match (&record.phase, &record.phase_name) {
        (Some(p), Some(n)) => format!("Phase {p} ({n})"),
        (Some(p), None) => format!("Phase {p}"),
        _ => "Paused".to_owned(),
    };
    if let Some(plan) = &record.plan {
        text.push_str(&format!(", plan {plan}"));
    }
    // "Plan 03-02" adds nothing to ", plan 03-02"; a real task name does.
    if let Some(task) = record.in_progress_task().and_then(|t| t.name.as_deref())
        && record.plan.as_deref().is_none_or(|p| !task.contains(p))
    {
        text.push_str(&format!(": {task}"));
    }
    text
}
