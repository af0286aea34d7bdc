//! One hook event as every handler sees it: the payload, the time it is handled at, its ids
//! once checked safe to name files by, and the [`Place`] it is about (the project and the
//! configs, looked up at most once and only when a handler asks). `dispatch` builds it once
//! per event and hands it to each handler.

use super::payload::HookPayload;
use super::place::Place;
use crate::fsx;

/// One hook event.
#[derive(Debug)]
pub struct Event<'a> {
    /// What Claude Code sent.
    pub payload: &'a HookPayload,
    /// The time the event is handled at (Unix seconds).
    pub now: u64,
    /// The payload's `cwd` and what is looked up from it.
    pub place: Place,
    session_id: Option<&'a str>,
    agent_id: Option<&'a str>,
}

impl<'a> Event<'a> {
    /// The event of `payload`, handled at `now`; nothing is looked up yet.
    pub fn new(payload: &'a HookPayload, now: u64) -> Self {
        let safe = |id: &'a Option<String>| id.as_deref().filter(|id| fsx::is_safe_session_id(id));
        Self {
            payload,
            now,
            place: Place::of(payload.cwd.as_deref()),
            session_id: safe(&payload.session_id),
            agent_id: safe(&payload.agent_id),
        }
    }

    /// The event's name (`hook_event_name`: `PostToolUse`, `SubagentStop`…).
    pub fn name(&self) -> Option<&'a str> {
        self.payload.hook_event_name.as_deref()
    }

    /// The session's id, when it is safe to name a file by; `None` when absent or not.
    pub fn session_id(&self) -> Option<&'a str> {
        self.session_id
    }

    /// The subagent run's id (SubagentStart/SubagentStop, or a hook inside a subagent), when
    /// it is safe to name a file by; `None` when absent or not.
    pub fn agent_id(&self) -> Option<&'a str> {
        self.agent_id
    }
}
