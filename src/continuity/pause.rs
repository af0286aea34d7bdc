//! `baton pause`: records where the work stands (HANDOFF.json, `.continue-here.md`) and
//! notes the pause in STATE.md's session-continuity fields, changing nothing else there.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::error::{Context, Error, Result};
use crate::planning::Project;
use crate::planning::snapshot::Snapshot;
use crate::planning::state_edit;

use super::handoff::{self, Blocker, Decision, Handoff, HumanAction, Task};
use super::{archive, continue_here, worktree};

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
    /// The Claude Code session pausing, when known (hooks).
    pub session_id: Option<String>,
}

/// What `pause` wrote.
#[derive(Debug, Clone)]
pub struct PauseOutcome {
    pub handoff: PathBuf,
    pub continue_here: PathBuf,
    /// STATE.md, when it exists and was updated.
    pub state: Option<PathBuf>,
    /// Why STATE.md was not updated although it exists (not UTF-8, unreadable).
    pub state_problem: Option<String>,
    /// The previous handoff and a `.continue-here.md` baton did not write, moved to
    /// `.planning/handoffs/` before being replaced.
    pub archived: Vec<PathBuf>,
    pub record: Handoff,
}

/// Writes the handoff, `.continue-here.md` and the STATE.md continuity fields. What was
/// there before is archived, never overwritten: the previous handoff (whose blockers,
/// human actions and decisions carry over) and a `.continue-here.md` baton did not write.
/// Each file is archived before the new one replaces it atomically, so a crash at any point
/// leaves the old file or the new one in place. A link among these paths (the project's
/// rule, `planning::files`) refuses the pause before anything is read or written.
pub fn pause(project: &Project, request: &PauseRequest, now: chrono::DateTime<chrono::Utc>) -> Result<PauseOutcome> {
    let _guard = project.lock("planning")?;
    let snapshot = Snapshot::load(project)?;
    let current = handoff::path(&project.root);
    let dir = snapshot.position().phase_dir.unwrap_or_else(|| project.planning_dir());
    let continue_path = dir.join(".continue-here.md");
    for path in [
        &current,
        &continue_path,
        &state_edit::path(project),
        &archive::dir(project),
    ] {
        project.check_writable(path)?;
    }
    let mut record = build(&snapshot, request, now)?;
    if let Ok(Some(previous)) = handoff::read(&project.root) {
        carry_forward(&mut record, &previous, request.structured.as_ref());
    }
    handoff::validate(&project.root, &record)?;

    let mut archived = Vec::new();
    if current.symlink_metadata().is_ok() {
        archived.push(archive::keep(
            project,
            &current,
            archive::Entry {
                stem: "HANDOFF",
                ext: "json",
                at: now,
            },
        )?);
    }
    let handoff_path = handoff::write(project, &record)?;

    // Read within a bound (a FIFO or a huge file planted there would stall the PreCompact
    // hook); a page that cannot be read is not baton's, so it is archived too.
    let existing = crate::fsx::read_regular(&continue_path, continue_here::MAX_PAGE_BYTES);
    let someone_elses = match &existing {
        Ok(bytes) => !continue_here::is_batons(&String::from_utf8_lossy(bytes)),
        Err(e) => e.kind() != std::io::ErrorKind::NotFound,
    };
    if someone_elses {
        let stem = format!("continue-here-{}", archive::dir_label(&dir));
        archived.push(archive::keep(
            project,
            &continue_path,
            archive::Entry {
                stem: &stem,
                ext: "md",
                at: now,
            },
        )?);
    }
    project.write_file(&continue_path, continue_here::render(&record).as_bytes())?;

    let (state, state_problem) = match record_in_state(project, &record, &continue_path, now) {
        Ok(state) => (state, None),
        Err(e) => (None, Some(e.to_string())),
    };
    Ok(PauseOutcome {
        handoff: handoff_path,
        continue_here: continue_path,
        state,
        state_problem,
        archived,
        record,
    })
}

/// Keeps what the previous handoff knew and the new one does not: its blockers, human
/// actions and decisions (once each), unless `--json-in` gave that list.
fn carry_forward(record: &mut Handoff, previous: &Handoff, structured: Option<&Value>) {
    let given = |key: &str| structured.and_then(|s| s.get(key)).is_some_and(|v| !v.is_null());
    let same = |a: &Option<String>, b: &Option<String>| {
        a.as_deref()
            .map(str::trim)
            .is_some_and(|a| Some(a) == b.as_deref().map(str::trim))
    };
    if !given("blockers") {
        for old in &previous.blockers {
            if !record.blockers.iter().any(|b| same(&b.description, &old.description)) {
                record.blockers.push(old.clone());
            }
        }
    }
    if !given("human_actions_pending") {
        for old in &previous.human_actions_pending {
            if !record
                .human_actions_pending
                .iter()
                .any(|a| same(&a.action, &old.action))
            {
                record.human_actions_pending.push(old.clone());
            }
        }
    }
    if !given("decisions") {
        for old in &previous.decisions {
            if !record.decisions.iter().any(|d| same(&d.decision, &old.decision)) {
                record.decisions.push(old.clone());
            }
        }
    }
    if !given("async_jobs") {
        let listed = |jobs: &[Value], id: &Value| jobs.iter().any(|j| j.get("job_id") == Some(id));
        for old in &previous.async_jobs {
            match old.get("job_id") {
                Some(id) if listed(&record.async_jobs, id) => {}
                _ => record.async_jobs.push(old.clone()),
            }
        }
    }
}

/// gsd-core's external jobs still running (`.planning/async-jobs/*.json`), as a handoff lists
/// them: the manifest as written, with its path.
fn live_jobs(project: &Project) -> Vec<Value> {
    crate::planning::async_jobs::manifests(project)
        .into_iter()
        .filter(|(job, _)| job.is_live())
        .map(|(_, value)| value)
        .collect()
}

/// The handoff record: state files first, then the request's fields, then `structured`.
pub fn build(snapshot: &Snapshot, request: &PauseRequest, now: chrono::DateTime<chrono::Utc>) -> Result<Handoff> {
    let position = snapshot.position();
    let phase = snapshot.current_phase();
    // GSD reads these with `/` between the parts, on every system.
    let relative = |p: &Path| crate::platform::path::below(p, &snapshot.project.root);
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
        session_id: request.session_id.clone(),
        ..Handoff::default()
    };
    if let Some(phase) = phase {
        // Plans stand in for tasks, as the progress definition sees them: done plans have
        // SUMMARYs, the next one is in progress.
        for plan in &phase.plans {
            let status = if plan.done {
                "done"
            } else if Some(&plan.id) == phase.next_plan.as_ref() {
                "in_progress"
            } else {
                "pending"
            };
            let task = Task {
                id: Some(Value::from(plan.id.clone())),
                name: Some(format!("Plan {}", plan.id)),
                status: Some(status.to_owned()),
                ..Task::default()
            };
            if plan.done {
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
            blocking: true,
            ..HumanAction::default()
        })
        .collect();
    record.decisions = request
        .decisions
        .iter()
        .map(|d| Decision {
            decision: Some(d.trim().to_owned()),
            phase: position.phase.clone(),
            ..Decision::default()
        })
        .collect();
    record.uncommitted_files = worktree::uncommitted_files(&snapshot.project.root).unwrap_or_default();
    record.async_jobs = live_jobs(&snapshot.project);
    // Outside a GSD project there is no plan to take the next step from.
    let planned = snapshot.state.is_some() || snapshot.progress.total_phases > 0;
    record.next_action = request.next.clone().or_else(|| {
        planned.then(|| {
            let next = snapshot.next_action();
            format!("{} ({})", next.command, next.reason)
        })
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
                ..Blocker::default()
            };
        }
    }
    Blocker {
        description: Some(text.to_owned()),
        kind: Some("technical".to_owned()),
        ..Blocker::default()
    }
}

/// Lays the fields of a structured handoff over the computed record.
fn overlay(record: Handoff, structured: &Value) -> Result<Handoff> {
    let Value::Object(given) = structured else {
        return Err(Error::Failed(
            "--json-in expects a JSON object in HANDOFF.json's schema on stdin".to_owned(),
        ));
    };
    let mut merged = serde_json::to_value(&record).context("cannot encode the handoff")?;
    for (key, value) in given {
        if !value.is_null() {
            merged[key] = value.clone();
        }
    }
    // The version and status are the schema's, whatever came in.
    merged["version"] = Value::from(handoff::VERSION);
    merged["status"] = Value::from("paused");
    serde_json::from_value(merged).context("--json-in: the handoff does not fit GSD's schema")
}

/// Notes the pause in STATE.md (frontmatter `paused_at`, `stopped_at`; body `Last session:`,
/// `Stopped at:`, `Resume file:`); `None` when there is no STATE.md.
fn record_in_state(
    project: &Project,
    record: &Handoff,
    continue_path: &Path,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<Option<PathBuf>> {
    let stopped = record.stopped_at();
    let stamp = now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let resume = crate::platform::path::below(continue_path, &project.root);
    state_edit::update(project, |text| {
        // Only a pause someone asked for marks the project paused; breadcrumbs just note the spot.
        let mut edited = if record.trigger.as_deref() == Some("manual") {
            state_edit::set_frontmatter_value(text, "paused_at", &stamp)
        } else {
            text.to_owned()
        };
        edited = state_edit::set_frontmatter_value(&edited, "stopped_at", &stopped);
        edited = state_edit::set_continuity_line(&edited, "Last session:", &stamp);
        edited = state_edit::set_continuity_line(&edited, "Stopped at:", &stopped);
        state_edit::set_continuity_line(&edited, "Resume file:", &resume)
    })
}
