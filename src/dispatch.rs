//! `baton hook`: one entry point for every hook event. Reads the payload, builds one
//! [`Event`] of it (the project and configs in it looked up once, when a handler first asks),
//! dispatches on `hook_event_name` to the handlers (the context monitor, the agent ledger,
//! the continuity breadcrumbs, the store, the bridge), and prints nothing or one JSON object.
//! It never fails visibly.
//! While baton's mod speaks for a session (`context::mod_marker`), the monitor and the
//! SubagentStart handoff leave it to the mod.

use std::time::Duration;

use crate::context::{bridge, compactions, debounce, mod_marker, monitor};
use crate::fsx;
use crate::hook::envelope::{self, MAX_CONTEXT_UNITS};
use crate::hook::event::Event;
use crate::hook::fit::utf16_len;
use crate::hook::payload::HookPayload;
use crate::hook::stdin;

/// How long a hook waits for its payload; Claude Code has left stdin open.
const STDIN_WAIT: Duration = Duration::from_secs(2);

/// Reads the payload from stdin and handles it; returns what to print (maybe nothing).
pub fn run() -> Option<String> {
    let (bytes, cut_short) = match stdin::read_hook_payload(STDIN_WAIT) {
        Ok(read) => read,
        Err(why) => {
            crate::log::note(&format!("hook: no payload: {why:?}"));
            return None;
        }
    };
    let mut payload: HookPayload = match serde_json::from_slice(&bytes) {
        Ok(p) => p,
        Err(e) => {
            crate::log::note(&format!("hook: unreadable payload: {e}"));
            return None;
        }
    };
    if cut_short {
        crate::log::note(&format!(
            "hook: the payload is over {} MiB: only its members before that were read",
            stdin::MAX_PAYLOAD_BYTES / (1024 * 1024)
        ));
        payload.cut_short = true;
    }
    handle(&payload, crate::clock::unix_now())
}

/// Dispatches one payload handled at `now`; returns the hook output to print, if any.
pub fn handle(payload: &HookPayload, now: u64) -> Option<String> {
    handle_event(&Event::new(payload, now))
}

/// Dispatches one event to its handlers, each given the same [`Event`] (so the project and the
/// configs are looked up once at most); returns the hook output to print, if any.
fn handle_event(event: &Event) -> Option<String> {
    let (payload, now) = (event.payload, event.now);
    let name = event.name()?;
    match name {
        "PostToolUse" => {
            crate::context::sweep::sweep_if_due(now);
            crate::agents::hook::record_tool_edit(event);
            joined(
                name,
                [
                    monitor::on_tool_use(event),
                    crate::agents::hook::owed_to_orchestrator(event),
                ],
            )
        }
        "SessionStart" => {
            crate::context::gsd_monitor::on_session_start(event, |project| {
                crate::install::wired::Monitors::read(Some(project)).both_on_tool_use()
            });
            if matches!(payload.source.as_deref(), Some("compact" | "clear")) {
                forget_context_figures(event.session_id());
            }
            if payload.source.as_deref() == Some("compact") {
                count_compaction(event.session_id(), compactions::Event::SessionStartCompact, now);
            }
            let text = crate::continuity::breadcrumb::session_start_context(event)?;
            envelope::additional_context(name, &text)
        }
        "PreCompact" => {
            if let Err(e) = crate::continuity::breadcrumb::pre_compact(event) {
                crate::log::note(&format!("pre-compact breadcrumb failed: {e}"));
            }
            None
        }
        // Claude Code rejects additionalContext here (probe/FINDINGS.md §6) and shows what a
        // PostCompact hook prints to the model after /compact: print nothing.
        "PostCompact" => {
            forget_context_figures(event.session_id());
            count_compaction(event.session_id(), compactions::Event::PostCompact, now);
            None
        }
        "SubagentStart" => {
            crate::agents::hook::on_event(event);
            let inputs = crate::store::hook::on_event(event);
            // baton's mod gave the agent its inputs and handoffs with its task, at its spawn.
            if event.session_id().is_some_and(mod_marker::is_live) {
                return None;
            }
            let text = subagent_start_text(inputs, |budget| {
                crate::bridge::deliver::on_subagent_start(event, budget)
            })?;
            envelope::additional_context(name, &text)
        }
        "SubagentStop" => {
            crate::context::gsd_monitor::on_subagent_stop(event);
            let verdict = crate::agents::hook::on_event(event);
            if let Some((agent_type, handoff)) = crate::bridge::deliver::on_subagent_stop(event) {
                crate::store::hook::record_handoff(event, &agent_type, handoff);
            }
            let status = crate::store::hook::on_event(event);
            joined(name, [verdict, status])
        }
        _ => None,
    }
}

/// Counts a compaction for the statusline.
/// `session_id` is safe to name a file by ([`Event::session_id`]).
fn count_compaction(session_id: Option<&str>, event: compactions::Event, now: u64) {
    let Some(id) = session_id else {
        return;
    };
    if let Err(e) = compactions::record(id, event, now) {
        crate::log::note(&format!("hook: compaction count failed: {e}"));
    }
}

/// What a starting subagent is given, by the SubagentStart hook or by baton's mod with its
/// task: its own inputs from the context store first, then `handoffs` (of the agents before
/// it) in what is left of Claude Code's 10,000-unit cap on hook context.
pub fn subagent_start_text(inputs: Option<String>, handoffs: impl FnOnce(usize) -> Option<String>) -> Option<String> {
    let used = inputs.as_deref().map_or(0, |t| utf16_len(t) + 2);
    let handoffs = handoffs(MAX_CONTEXT_UNITS.saturating_sub(used));
    paragraphs([inputs, handoffs])
}

/// The texts that are there, one paragraph each, as the event's additional context.
fn joined<const N: usize>(event: &str, texts: [Option<String>; N]) -> Option<String> {
    envelope::additional_context(event, &paragraphs(texts)?)
}

/// The texts that are there, one paragraph each; `None` when there are none.
fn paragraphs<const N: usize>(texts: [Option<String>; N]) -> Option<String> {
    let texts: Vec<String> = texts.into_iter().flatten().collect();
    (!texts.is_empty()).then(|| texts.join("\n\n"))
}

/// After /compact or /clear the old figures are wrong: drop the debounce and the bridge (with
/// its forecast; the transcript's history restarts at the compact boundary). `session_id` is
/// safe to name a file by ([`Event::session_id`]).
fn forget_context_figures(session_id: Option<&str>) {
    let Some(id) = session_id else {
        return;
    };
    if let Err(e) = debounce::reset(id) {
        crate::log::note(&format!("hook: debounce reset failed: {e}"));
    }
    if let Some(path) = bridge::path(id)
        && let Err(e) = fsx::remove_if_exists(&path)
    {
        crate::log::note(&format!("hook: bridge removal failed: {e}"));
    }
}
