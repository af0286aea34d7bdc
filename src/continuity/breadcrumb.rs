//! What the hooks record and restore around lost context: the resume brief injected at
//! SessionStart, the automatic breadcrumb written at PreCompact, and the note in STATE.md
//! at the monitor's first CRITICAL of a session.

use crate::error::Result;
use crate::hook::envelope;
use crate::hook::event::Event;
use crate::hook::fit::{self, Section};
use crate::planning::Project;
use crate::planning::state_edit;

use super::handoff;
use super::pause::{self, PauseRequest};
use super::resume;

/// Trigger of the automatic breadcrumb; such handoffs are used once, at the next SessionStart.
pub const PRE_COMPACT: &str = "pre-compact";

/// SessionStart (any source): the resume brief when a handoff or a paused STATE.md exists,
/// fitted into Claude Code's cap on hook context (whole lines left out from the least
/// important parts, and a line saying so).
/// An automatic breadcrumb is archived once delivered to the session that wrote it (the same
/// session after compaction); other sessions get the brief and leave it. A person's handoff
/// stays until `baton resume`.
pub fn session_start_context(event: &Event) -> Option<String> {
    let (payload, project) = (event.payload, event.place.project()?);
    if !resume::has_paused_work(project) {
        return None;
    }
    let brief = match resume::brief(project) {
        Ok(Some(brief)) => brief,
        Ok(None) => return None,
        Err(e) => {
            crate::log::note(&format!("session start: {e}"));
            return None;
        }
    };
    let breadcrumb = handoff::read(&project.root)
        .ok()
        .flatten()
        .filter(|h| h.trigger.as_deref() == Some(PRE_COMPACT));
    let own = breadcrumb
        .as_ref()
        .is_some_and(|h| h.session_id.is_some() && h.session_id == payload.session_id);
    let mut sections = vec![Section::new(
        "Heading",
        0,
        "baton: this project has paused work. Resume brief:\n".to_owned(),
    )];
    sections.extend(resume::sections(&brief));
    let mut more = "`baton resume --keep` prints the whole brief.".to_owned();
    if own {
        match resume::archive(project, true, chrono::Utc::now()) {
            Ok(moved) if !moved.is_empty() => {
                let names: Vec<String> = moved
                    .iter()
                    .map(|p| crate::platform::path::below(p, &project.root))
                    .collect();
                more = format!("The whole handoff is archived as {}.", names.join(", "));
            }
            Ok(_) => {}
            Err(e) => crate::log::note(&format!("session start: archiving the breadcrumb failed: {e}")),
        }
    } else if breadcrumb.is_some() {
        let note = "This is another session's automatic breadcrumb; `baton resume` archives it once picked up.\n";
        sections.push(Section::new("Archiving", 0, note.to_owned()));
    } else {
        let note = "Once picked up, `baton resume` archives the handoff.\n";
        sections.push(Section::new("Archiving", 0, note.to_owned()));
    }
    Some(fit::fit(&sections, envelope::MAX_CONTEXT_UNITS, &more))
}

/// PreCompact: in a project with planning state, writes an automatic handoff so the
/// position survives compaction, unless a person's handoff is already waiting. The note
/// names the payload's `trigger` (`manual|auto`).
pub fn pre_compact(event: &Event) -> Result<()> {
    let (payload, trigger) = (event.payload, event.payload.trigger.as_deref());
    let Some(project) = event.place.project() else {
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
        session_id: payload.session_id.clone(),
        ..PauseRequest::default()
    };
    pause::pause(project, &request, chrono::Utc::now()).map(|_| ())
}

/// The monitor's first CRITICAL in a project with planning state: notes in STATE.md where
/// the work stopped (`context exhaustion at 80% (2026-11-30)`).
pub fn record_context_exhaustion(project: &Project, used_percent: u8) -> Result<()> {
    let _guard = project.lock("planning")?;
    let note = format!(
        "context exhaustion at {used_percent}% ({})",
        chrono::Utc::now().format("%Y-%m-%d")
    );
    state_edit::update(project, |text| {
        let edited = state_edit::set_frontmatter_value(text, "stopped_at", &note);
        state_edit::set_continuity_line(&edited, "Stopped at:", &note)
    })
    .map(|_| ())
}
