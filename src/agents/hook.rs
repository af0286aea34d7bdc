//! SubagentStart and SubagentStop: record the run in the ledger first (start time, HEAD and
//! the files already dirty; then end time, files changed, final message, transcript), then
//! spot-check it. A flagged run is told to the subagent once (SubagentStop context reaches
//! the subagent, which may fix its work or its report) and, if it stands, to the orchestrator
//! at its next PostToolUse (`notices`): when its `Agent` call returns, or for a background
//! agent, at the first tool call after the run ended.

use std::path::Path;

use super::ledger::{self, Run, Status};
use super::{notices, verify};
use crate::git;
use crate::hook::event::Event;
use crate::hook::payload::HookPayload;
use crate::planning::Project;

/// Handles a SubagentStart or SubagentStop payload; returns the context to add, if any.
/// Failures are logged (`$BATON_LOG`), never shown.
pub fn on_event(event: &Event) -> Option<String> {
    let (name, payload) = (event.name().unwrap_or_default(), event.payload);
    let Some(id) = event.agent_id() else {
        crate::log::note(&format!("{name}: no usable agent_id; run not recorded"));
        return None;
    };
    let cwd = event.place.dir();
    let project = event.place.project()?;
    if name == "SubagentStop" && is_compaction_fork(project, id, payload) {
        crate::log::note(&format!(
            "SubagentStop {id}: the compaction's summarising fork; not a run"
        ));
        return None;
    }
    match name {
        "SubagentStart" => {
            record_start(project, id, payload, cwd);
            None
        }
        "SubagentStop" => record_stop(project, id, payload, cwd),
        _ => None,
    }
}

fn record_start(project: &Project, id: &str, payload: &HookPayload, cwd: &Path) {
    let snapshot = git::snapshot(cwd);
    let result = ledger::update(project, id, |run| {
        fill_identity(run, payload, cwd);
        run.status = Status::Running;
        run.started_at = Some(ledger::now());
        match &snapshot {
            Some(s) => {
                run.worktree = Some(s.toplevel.display().to_string());
                run.head_at_start = s.head.clone();
                run.branch_at_start = s.branch.clone();
                run.dirty_at_start = git::fingerprints(s);
                run.dirty_at_start.retain(|path, _| !is_baton_state(path));
                if s.dirty.len() > git::MAX_DIRTY {
                    run.notes.push(format!(
                        "{} paths were dirty at the start; only {} are told apart from the agent's work",
                        s.dirty.len(),
                        git::MAX_DIRTY
                    ));
                }
            }
            None => run
                .notes
                .push("not a git work tree (or git failed): files changed are not computed".into()),
        }
    });
    if let Err(e) = result {
        crate::log::note(&format!("SubagentStart {id}: {e}"));
    }
}

fn record_stop(project: &Project, id: &str, payload: &HookPayload, cwd: &Path) -> Option<String> {
    let started = ledger::file(project, id)
        .filter(|p| p.is_file())
        .and_then(|p| ledger::read(&p).ok());
    let snapshot = git::snapshot(cwd);
    let changes = snapshot.as_ref().and_then(|now| {
        let start = started.as_ref();
        let empty = Default::default();
        git::changed_since(
            now,
            start.and_then(|r| r.head_at_start.as_deref()),
            start.map_or(&empty, |r| &r.dirty_at_start),
        )
    });
    let changes = changes.map(|mut files| {
        files.retain(|path| !is_baton_state(path));
        files
    });
    let recorded = ledger::update(project, id, |run| {
        fill_identity(run, payload, cwd);
        if run.started_at.is_none() {
            run.notes
                .push("no SubagentStart record: files changed include everything dirty at the stop".into());
        }
        run.status = Status::Finished;
        run.ended_at = Some(ledger::now());
        run.files_changed = changes;
        if let Some(s) = &snapshot {
            run.worktree.get_or_insert_with(|| s.toplevel.display().to_string());
            run.head_at_end = s.head.clone();
        }
        if let Some(message) = &payload.last_assistant_message {
            run.last_message = Some(ledger::clip_message(message));
        } else if payload.cut_short {
            run.notes.push(format!(
                "the SubagentStop payload was over {} MiB: its final message was not read",
                crate::hook::stdin::MAX_PAYLOAD_BYTES / (1024 * 1024)
            ));
        }
        if payload.agent_transcript_path.is_some() {
            run.transcript_path = payload.agent_transcript_path.clone();
        }
        if payload.background_task_ids.iter().any(|task| task == id) {
            run.background = true;
        }
    });
    let run = match recorded {
        Ok(run) => run,
        Err(e) => {
            crate::log::note(&format!("SubagentStop {id}: {e}"));
            return None;
        }
    };
    let verification = verify::verify(project, &run);
    // Claude Code hands SubagentStop context to the subagent, which then continues (observed
    // on 2.1.197): tell it once; when it stops again (`stop_hook_active`) only record.
    let retry = payload.stop_hook_active != Some(true);
    let text = (verification.flagged && retry).then(|| verify::subagent_text(&verification));
    // The orchestrator hears of the run's last word only: a flagged run that is about to be
    // told (and may still correct itself) is not owed yet; a clean one is owed nothing.
    if let Some(session) = run.session_id.as_deref() {
        let owed = if verification.flagged && !retry {
            notices::owe(session, id, &verify::orchestrator_text(&run, &verification))
        } else {
            notices::forgive(session, id)
        };
        if let Err(e) = owed {
            crate::log::note(&format!(
                "SubagentStop {id}: noting the spot-check for the orchestrator: {e}"
            ));
        }
    }
    if let Err(e) = ledger::update(project, id, |r| r.verification = Some(verification)) {
        crate::log::note(&format!("SubagentStop {id}: {e}"));
    }
    text
}

/// Every compaction runs a summarising fork that ends with a SubagentStop of its own (agent
/// type `""`, no SubagentStart before it, a transcript that does not exist; observed on
/// 2.1.197 and 2.1.332). It is not a subagent run, and its final message is the summary.
fn is_compaction_fork(project: &Project, id: &str, payload: &HookPayload) -> bool {
    payload.agent_type.as_deref() == Some("") && !ledger::file(project, id).is_some_and(|f| f.is_file())
}

/// PostToolUse inside a subagent (`agent_id` set) of a call that writes a file (Write, Edit,
/// MultiEdit, NotebookEdit): adds the file to the run's own edits in the ledger, so the
/// spot-check can tell its work from that of runs going on at the same time. Nothing for any
/// other call, and nothing for a run SubagentStart did not record.
pub fn record_tool_edit(event: &Event) {
    let payload = event.payload;
    let Some(id) = event.agent_id() else {
        return;
    };
    if !matches!(
        payload.tool_name.as_deref(),
        Some("Write" | "Edit" | "MultiEdit" | "NotebookEdit")
    ) {
        return;
    }
    let Some(path) = payload.tool_input_path.as_deref().filter(|p| !p.is_empty()) else {
        return;
    };
    let Some(project) = event.place.project() else {
        return;
    };
    if !ledger::file(project, id).is_some_and(|f| f.is_file()) {
        return;
    }
    let absolute = event.place.dir().join(path);
    if let Err(e) = ledger::update(project, id, |run| run.add_tool_edit(&absolute)) {
        crate::log::note(&format!("PostToolUse {id}: {e}"));
    }
}

/// PostToolUse of the main agent (no `agent_id`): the spot-checks of runs that ended flagged
/// since its last tool call, each told once (for a foreground agent this is the PostToolUse
/// of its own `Agent` call).
pub fn owed_to_orchestrator(event: &Event) -> Option<String> {
    if event.payload.agent_id.is_some() {
        return None;
    }
    let session = event.session_id()?;
    let texts = notices::take(session)
        .map_err(|e| crate::log::note(&format!("PostToolUse: reading what the orchestrator is owed: {e}")))
        .ok()?;
    (!texts.is_empty()).then(|| texts.join("\n\n"))
}

fn fill_identity(run: &mut Run, payload: &HookPayload, cwd: &Path) {
    if payload.agent_type.is_some() {
        run.agent_type = payload.agent_type.clone();
    }
    if payload.session_id.is_some() {
        run.session_id = payload.session_id.clone();
    }
    run.cwd.get_or_insert_with(|| cwd.display().to_string());
}

/// baton's own files (this ledger, its locks) are never an agent's work.
pub(crate) fn is_baton_state(path: &str) -> bool {
    path.starts_with(".baton/") || path.contains("/.baton/")
}
