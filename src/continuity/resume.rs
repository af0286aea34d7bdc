//! `baton resume`: the brief that restores the position after /clear or in a new session,
//! from the handoff first and the state files when there is none or it is unreadable;
//! blockers and human actions first. A successful resume archives the handoff.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::error::Result;
use crate::hook::fit::Section;
use crate::planning::Project;
use crate::planning::async_jobs::{self, Job};
use crate::planning::snapshot::Snapshot;
use crate::planning::state_edit;

use super::handoff::{self, Handoff};
use super::{archive, worktree};

/// How the handoff's uncommitted files compare with `git status` now.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct UncommittedCheck {
    /// Recorded at the pause and still uncommitted.
    pub unchanged: Vec<String>,
    /// Recorded at the pause but clean now (committed or reverted since).
    pub now_clean: Vec<String>,
    /// Uncommitted now but not at the pause.
    pub new: Vec<String>,
}

/// What a resuming agent needs, most urgent first.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Brief {
    /// `handoff` or `state`.
    pub source: String,
    /// Why the state files were used instead of a handoff.
    pub fallback_reason: Option<String>,
    pub paused_at: Option<String>,
    /// gsd-core's external jobs (manifests, and those the handoff recorded), shown first.
    pub external_jobs: Vec<String>,
    pub blockers: Vec<String>,
    pub human_actions: Vec<String>,
    pub position: String,
    pub in_progress: Option<String>,
    pub next_action: Option<String>,
    pub notes: Option<String>,
    pub decisions: Vec<String>,
    /// `None` when git could not be asked (not a repository, no git).
    pub uncommitted: Option<UncommittedCheck>,
}

/// Whether there is anything to resume: a handoff (even an unreadable one) or a paused STATE.md.
pub fn has_paused_work(project: &Project) -> bool {
    handoff::path(&project.root).exists()
        || crate::planning::state::PlanningState::read(project).is_some_and(|s| s.is_paused())
}

/// Builds the brief. `Ok(None)` when there is neither a handoff nor STATE.md.
pub fn brief(project: &Project) -> Result<Option<Brief>> {
    let snapshot = Snapshot::load(project)?;
    match handoff::read(&project.root) {
        Ok(Some(h)) => Ok(Some(from_handoff(&snapshot, &h))),
        Ok(None) if snapshot.state.is_some() => Ok(Some(from_state(
            &snapshot,
            "there is no .planning/HANDOFF.json".to_owned(),
        ))),
        Ok(None) => Ok(None),
        Err(e) if snapshot.state.is_some() || snapshot.progress.total_phases > 0 => Ok(Some(from_state(
            &snapshot,
            format!("the handoff could not be used: {e}"),
        ))),
        Err(e) => Err(e),
    }
}

fn from_handoff(snapshot: &Snapshot, h: &Handoff) -> Brief {
    let mut blockers: Vec<String> = h.blockers.iter().filter_map(handoff::Blocker::describe).collect();
    let live = snapshot.state.as_ref().map(|s| s.blockers.clone()).unwrap_or_default();
    let missing: Vec<String> = live
        .into_iter()
        .filter(|b| !blockers.iter().any(|x| x.ends_with(b.as_str())))
        .map(|b| format!("[technical] {b}"))
        .collect();
    blockers.extend(missing);
    let mut position = match (&h.phase, &h.phase_name) {
        (Some(p), Some(n)) => format!("Phase {p} ({n})"),
        (Some(p), None) => format!("Phase {p}"),
        _ => snapshot_position(snapshot),
    };
    if let Some(plan) = &h.plan {
        position.push_str(&format!(", plan {plan}"));
    }
    if let (Some(task), Some(total)) = (&h.task, &h.total_tasks) {
        position.push_str(&format!(", task {task} of {total}"));
    }
    Brief {
        source: "handoff".to_owned(),
        fallback_reason: None,
        paused_at: h.timestamp.clone(),
        external_jobs: external_jobs(&snapshot.project, &h.jobs()),
        blockers,
        human_actions: h
            .human_actions_pending
            .iter()
            .filter_map(handoff::HumanAction::describe)
            .collect(),
        position,
        in_progress: h.in_progress_task().and_then(|t| t.name.clone()),
        next_action: h.next_action.clone(),
        notes: h.context_notes.clone(),
        decisions: h.decisions.iter().filter_map(|d| d.decision.clone()).collect(),
        uncommitted: worktree::uncommitted_files(&snapshot.project.root).map(|now| compare(&h.uncommitted_files, &now)),
    }
}

fn from_state(snapshot: &Snapshot, reason: String) -> Brief {
    let state = snapshot.state.clone().unwrap_or_default();
    let next = snapshot.next_action();
    Brief {
        source: "state".to_owned(),
        fallback_reason: Some(reason),
        paused_at: state.paused_at.clone(),
        external_jobs: external_jobs(&snapshot.project, &[]),
        blockers: state.blockers.iter().map(|b| format!("[technical] {b}")).collect(),
        human_actions: Vec::new(),
        position: snapshot_position(snapshot),
        in_progress: state.stopped_at.clone(),
        next_action: Some(format!("{} ({})", next.command, next.reason)),
        notes: None,
        decisions: Vec::new(),
        uncommitted: None,
    }
}

fn snapshot_position(snapshot: &Snapshot) -> String {
    let p = snapshot.position();
    let mut text = match (&p.phase, &p.phase_name) {
        (Some(n), Some(name)) => format!("Phase {n} of {} ({name})", p.total_phases),
        (Some(n), None) => format!("Phase {n} of {}", p.total_phases),
        _ => "No current phase".to_owned(),
    };
    if let Some(plan) = &p.plan {
        text.push_str(&format!(", plan {plan} ({} of {} done)", p.plans_done, p.plans_total));
    }
    if let Some(status) = &p.status {
        text.push_str(&format!("; status {status}"));
    }
    text
}

/// The recorded entries (paths, or gsd-core's porcelain lines) against the paths now.
fn compare(recorded: &[String], now: &[String]) -> UncommittedCheck {
    let mut paths: Vec<&str> = Vec::new();
    for path in recorded.iter().map(|entry| worktree::entry_path(entry)) {
        if !worktree::is_batons_own(path) && !paths.contains(&path) {
            paths.push(path);
        }
    }
    let now: Vec<&str> = now.iter().map(String::as_str).collect();
    UncommittedCheck {
        unchanged: paths
            .iter()
            .filter(|f| now.contains(f))
            .map(|f| f.to_string())
            .collect(),
        now_clean: paths
            .iter()
            .filter(|f| !now.contains(f))
            .map(|f| f.to_string())
            .collect(),
        new: now
            .iter()
            .filter(|f| !paths.contains(f))
            .map(|f| f.to_string())
            .collect(),
    }
}

/// The external jobs to look at first: the manifests under `.planning/async-jobs/` (their
/// status is the current one), then the handoff's jobs that have no manifest any more.
fn external_jobs(project: &Project, recorded: &[Job]) -> Vec<String> {
    let manifests = async_jobs::read(project);
    let unlisted = recorded
        .iter()
        .filter(|r| !manifests.iter().any(|m| m.job_id.is_some() && m.job_id == r.job_id));
    manifests.iter().chain(unlisted).map(Job::describe).collect()
}

/// The brief as text: blockers and human actions first.
pub fn render(b: &Brief) -> String {
    sections(b).into_iter().map(|s| s.text).collect()
}

/// The brief's parts in display order, ranked for fitting into a hook's context
/// ([`crate::hook::fit`]): blockers, human actions and the next action are kept longest,
/// then the position; notes, decisions and the uncommitted files go first, in that
/// order from the last.
pub fn sections(b: &Brief) -> Vec<Section> {
    let mut out = Vec::new();
    let source = match (&b.source[..], &b.fallback_reason) {
        ("handoff", _) => format!(
            "Resuming from .planning/HANDOFF.json (paused {}).\n",
            b.paused_at.as_deref().unwrap_or("at an unknown time")
        ),
        (_, Some(reason)) => format!("Resuming from the state files, because {reason}.\n"),
        _ => "Resuming from the state files.\n".to_owned(),
    };
    out.push(Section::new("Source", 1, source));
    out.extend(list(
        "External jobs",
        0,
        "EXTERNAL JOBS (look at these first)",
        &b.external_jobs,
    ));
    out.extend(list("Blockers", 0, "BLOCKERS", &b.blockers));
    out.extend(list("Human actions", 0, "HUMAN ACTIONS PENDING", &b.human_actions));
    out.push(Section::new("Position", 1, format!("Position: {}\n", b.position)));
    if let Some(task) = &b.in_progress {
        out.push(Section::new("In progress", 1, format!("In progress: {task}\n")));
    }
    if let Some(next) = &b.next_action {
        out.push(Section::new("Next action", 0, format!("Next action: {next}\n")));
    }
    if let Some(notes) = &b.notes {
        out.push(Section::new(
            "Notes",
            2,
            format!("Notes: {}\n", notes.replace('\n', "\n  ")),
        ));
    }
    out.extend(list("Decisions", 3, "Decisions", &b.decisions));
    if let Some(check) = &b.uncommitted {
        if !check.now_clean.is_empty() || !check.new.is_empty() {
            let mut text = "Uncommitted files changed since the pause:\n".to_owned();
            for f in &check.now_clean {
                text.push_str(&format!("  - {f}: uncommitted at the pause, clean now\n"));
            }
            for f in &check.new {
                text.push_str(&format!("  - {f}: uncommitted now, not at the pause\n"));
            }
            out.push(Section::new("Uncommitted files", 4, text).with_heading());
        } else if !check.unchanged.is_empty() {
            let text = format!("Uncommitted files as at the pause: {}\n", check.unchanged.join(", "));
            out.push(Section::new("Uncommitted files", 4, text));
        }
    }
    out
}

fn list(name: &str, rank: u8, title: &str, items: &[String]) -> Option<Section> {
    if items.is_empty() {
        return None;
    }
    let mut text = format!("{title}:\n");
    for item in items {
        text.push_str(&format!("  - {item}\n"));
    }
    Some(Section::new(name, rank, text).with_heading())
}

/// After a successful resume: moves HANDOFF.json (when `handoff`: the brief came from it)
/// and the `.continue-here.md` pages into `.planning/handoffs/` (never deletes them), then
/// ends the pause in STATE.md: `paused_at` cleared, `Resume file:` set to `None`. A link among
/// these paths (the project's rule, `planning::files`) refuses it before anything moves.
pub fn archive(project: &Project, handoff: bool, now: chrono::DateTime<chrono::Utc>) -> Result<Vec<PathBuf>> {
    let _guard = project.lock("planning")?;
    let planning = project.planning_dir();
    let current = handoff::path(&project.root);
    let present = |p: &Path| p.symlink_metadata().is_ok_and(|m| !m.is_dir());
    let mut files = Vec::new();
    if handoff && present(&current) {
        files.push((current, "HANDOFF".to_owned(), "json"));
    }
    let dirs =
        std::iter::once(planning.clone()).chain(crate::planning::phases::scan(project)?.into_iter().map(|d| d.path));
    for dir in dirs {
        let page = dir.join(".continue-here.md");
        if present(&page) {
            files.push((page, format!("continue-here-{}", archive::dir_label(&dir)), "md"));
        }
    }
    let targets = files.iter().map(|(path, _, _)| path.clone());
    for path in targets.chain([archive::dir(project), state_edit::path(project)]) {
        project
            .check_writable(&path)
            .map_err(|e| e.advised("\n(`baton resume --keep` shows the brief without archiving.)"))?;
    }
    let mut moved = Vec::new();
    for (path, stem, ext) in &files {
        moved.push(archive::move_in(project, path, archive::Entry { stem, ext, at: now })?);
    }
    // The resume itself succeeded; a STATE.md baton may not rewrite (not UTF-8) only keeps its marks.
    if let Err(e) = end_pause(project) {
        crate::log::note(&format!("resume: {e}"));
    }
    Ok(moved)
}

/// Deletes `paused_at` and, when STATE.md names a resume file, sets it to `None` (the file
/// was archived).
fn end_pause(project: &Project) -> Result<()> {
    state_edit::update(project, |text| {
        // A STATE.md past a bound was refused before the resume got here.
        let Ok(state) = crate::planning::state::PlanningState::parse(text) else {
            return text.to_owned();
        };
        let mut edited = text.to_owned();
        if state.paused_at.is_some() {
            edited = state_edit::remove_frontmatter_value(&edited, "paused_at");
        }
        if state.resume_file.is_some() {
            edited = state_edit::set_continuity_line(&edited, "Resume file:", "None");
        }
        edited
    })
    .map(|_| ())
}
