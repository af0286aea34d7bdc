//! What the hooks record and restore around lost context: the resume brief injected at
//! SessionStart, the automatic breadcrumb written at PreCompact, and the note in STATE.md
//! at the monitor's first CRITICAL of a session.

use crate::error::Result;
use crate::fsx;
use crate::hook::payload::HookPayload;
use crate::planning::Project;
use crate::planning::state_edit;

use super::handoff;
use super::pause::{self, PauseRequest};
use super::resume;

/// Trigger of the automatic breadcrumb; such handoffs are used once, at the next SessionStart.
pub const PRE_COMPACT: &str = "pre-compact";

/// SessionStart (any source): the resume brief when a handoff or a paused STATE.md exists.
/// An automatic breadcrumb is archived once delivered; a person's handoff stays until
/// `baton resume`.
pub fn session_start_context(payload: &HookPayload) -> Option<String> {
    let project = Project::find(&crate::hook::working_dir(payload.cwd.as_deref()))?;
    if !resume::has_paused_work(&project) {
        return None;
    }
    let brief = match resume::brief(&project) {
        Ok(Some(brief)) => brief,
        Ok(None) => return None,
        Err(e) => {
            crate::log::note(&format!("session start: {e}"));
            return None;
        }
    };
    let automatic = handoff::read(&project.root)
        .ok()
        .flatten()
        .is_some_and(|h| h.trigger.as_deref() == Some(PRE_COMPACT));
    let mut text = String::from("baton: this project has paused work. Resume brief:\n");
    text.push_str(&resume::render(&brief));
    if automatic {
        if let Err(e) = resume::archive(&project, chrono::Utc::now()) {
            crate::log::note(&format!("session start: archiving the breadcrumb failed: {e}"));
        }
    } else {
        text.push_str("Once picked up, `baton resume` archives the handoff.\n");
    }
    Some(text)
}

/// PreCompact: in a project with planning state, writes an automatic handoff so the
/// position survives compaction, unless a person's handoff is already waiting.
pub fn pre_compact(payload: &HookPayload, trigger: Option<&str>) -> Result<()> {
    let Some(project) = Project::find(&crate::hook::working_dir(payload.cwd.as_deref())) else {
        return Ok(());
    };
    if !project.has_planning_state() {
        return Ok(());
    }
    match handoff::read(&project.root) {
        Ok(Some(h)) if h.trigger.as_deref() != Some(PRE_COMPACT) => return Ok(()),
        Err(_) => return Ok(()), // an unreadable handoff is the user's to repair; never overwrite it
        _ => {}
    }
    let request = PauseRequest {
        notes: vec![format!(
            "Automatic breadcrumb written before {} compaction.",
            trigger.unwrap_or("a")
        )],
        trigger: PRE_COMPACT.to_owned(),
        ..PauseRequest::default()
    };
    pause::pause(&project, &request, chrono::Utc::now()).map(|_| ())
}

/// The monitor's first CRITICAL in a project with planning state: notes in STATE.md where
/// the work stopped (`context exhaustion at 80% (2026-11-30)`).
pub fn record_context_exhaustion(project: &Project, used_percent: u8) -> Result<()> {
    let _guard = project.lock("planning")?;
    let path = project.planning_dir().join("STATE.md");
    let Some(text) = fsx::read_regular(&path, 4 * 1024 * 1024)
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
    else {
        return Ok(());
    };
    let note = format!(
        "context exhaustion at {used_percent}% ({})",
        chrono::Utc::now().format("%Y-%m-%d")
    );
    let mut edited = state_edit::set_frontmatter_value(&text, "stopped_at", Some(&note));
    edited = state_edit::set_continuity_line(&edited, "Stopped at:", &note);
    fsx::write_atomic(&path, edited.as_bytes(), 0o644, fsx::Durability::Durable)
        .map_err(|e| crate::error::Error::io(&path, e))
}
