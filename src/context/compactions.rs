//! Compactions so far in a session, for the statusline: a count in baton's private directory
//! (`session-<session>-compactions.json`, where no other user can plant a file), advanced under
//! a lock by the hooks that see a compaction. Claude Code fires SessionStart (`compact`) and then PostCompact for each one
//! (probe/FINDINGS.md §3), but either may be missing (PostCompact is not wired before baton
//! wired it, SessionStart `compact` is reported not to fire always): the two of one compaction
//! count once, and either alone counts.

use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::fsx;

/// Longest a hook waits for another hook of the session to finish its update.
const LOCK_WAIT: Duration = Duration::from_secs(3);
const MAX_STATE_BYTES: u64 = 4096;
/// SessionStart `compact` and PostCompact this close together are one compaction.
const PAIR_WITHIN_SECS: u64 = 120;

/// A hook event that reports a finished compaction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Event {
    /// SessionStart with `source: "compact"`.
    SessionStartCompact,
    /// PostCompact.
    PostCompact,
}

/// The stored count.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    #[serde(default)]
    pub count: u32,
    /// The event that counted the last compaction while its partner has not come yet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unpaired: Option<Event>,
    /// Unix seconds of that event.
    #[serde(default)]
    pub at: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generator: Option<String>,
}

/// The state after `event` at `now`: the partner of an unpaired event completes it; any other
/// event is a new compaction.
pub fn step(mut state: State, event: Event, now: u64) -> State {
    match state.unpaired {
        Some(other) if other != event && now.saturating_sub(state.at) <= PAIR_WITHIN_SECS => state.unpaired = None,
        _ => {
            state.count = state.count.saturating_add(1);
            state.unpaired = Some(event);
            state.at = now;
        }
    }
    state.generator = Some(crate::context::bridge::GENERATOR.to_owned());
    state
}

fn state_path(session_id: &str) -> std::io::Result<Option<PathBuf>> {
    fsx::private_session_path(session_id, "-compactions.json")
}

fn lock_path(session_id: &str) -> std::io::Result<Option<PathBuf>> {
    fsx::private_session_path(session_id, "-compactions.lock")
}

/// Records `event` for the session under its lock (nothing for an unsafe id).
pub fn record(session_id: &str, event: Event, now: u64) -> std::io::Result<()> {
    let (Some(path), Some(lock)) = (state_path(session_id)?, lock_path(session_id)?) else {
        return Ok(());
    };
    let _guard = fsx::lock_exclusive(&lock, LOCK_WAIT)?;
    let next = step(read_at(&path).unwrap_or_default(), event, now);
    let json = serde_json::to_vec(&next).map_err(std::io::Error::other)?;
    fsx::rewrite_locked(&path, &json)
}

/// Compactions recorded for the session; 0 when none (or the file is unreadable).
pub fn count(session_id: &str) -> u32 {
    state_path(session_id)
        .ok()
        .flatten()
        .and_then(|p| read_at(&p))
        .map_or(0, |s| s.count)
}

fn read_at(path: &std::path::Path) -> Option<State> {
    let bytes = fsx::read_private(path, MAX_STATE_BYTES).ok()?;
    serde_json::from_slice(&bytes).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(events: &[(Event, u64)]) -> u32 {
        events
            .iter()
            .fold(State::default(), |s, (event, at)| step(s, *event, *at))
            .count
    }

    #[test]
    fn the_two_events_of_one_compaction_count_once() {
        use Event::*;
        assert_eq!(run(&[(SessionStartCompact, 10), (PostCompact, 11)]), 1);
        assert_eq!(run(&[(PostCompact, 10), (SessionStartCompact, 11)]), 1, "either order");
        assert_eq!(
            run(&[
                (SessionStartCompact, 10),
                (PostCompact, 11),
                (SessionStartCompact, 500),
                (PostCompact, 501)
            ]),
            2
        );
    }

    #[test]
    fn either_event_alone_counts() {
        use Event::*;
        assert_eq!(run(&[(PostCompact, 10), (PostCompact, 40), (PostCompact, 90)]), 3);
        assert_eq!(run(&[(SessionStartCompact, 10), (SessionStartCompact, 40)]), 2);
        assert_eq!(
            run(&[(SessionStartCompact, 10), (PostCompact, 10 + 600)]),
            2,
            "too far apart"
        );
    }
}
