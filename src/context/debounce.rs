//! The monitor's debounce, in GSD's record format (`callsSinceWarn`, `lastLevel`,
//! `criticalRecorded`) but in baton's private directory (`session-<session>-warned.json`), so
//! GSD's own monitor, when wired too, cannot move it (see `gsd_monitor`); advanced under a lock
//! (every baton reader takes it, so the file is rewritten in place) so parallel PostToolUse
//! hooks of one session lose no count.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::fsx;

/// Longest a hook waits for another hook of the same session to finish its update.
const LOCK_WAIT: Duration = Duration::from_secs(3);
const MAX_STATE_BYTES: u64 = 64 * 1024;

/// How low the context is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Warning,
    Critical,
}

/// GSD's debounce record, with baton's marker.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DebounceState {
    #[serde(default)]
    pub calls_since_warn: u32,
    #[serde(default)]
    pub last_level: Option<Level>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub critical_recorded: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generator: Option<String>,
}

/// One tool call at `level`: returns the next state and whether a warning fires.
/// The first warning fires at once; later ones when the count reaches `debounce_calls`
/// (calls 1, 6, 11… for 5); WARNING→CRITICAL fires at once regardless of the count. A state
/// that records no level (`{}`, or GSD's `lastLevel: null`) has seen no warning yet: the
/// next one is the first.
pub fn step(previous: Option<DebounceState>, level: Level, debounce_calls: u32) -> (DebounceState, bool) {
    let mut state = previous.unwrap_or_default();
    let first = state.last_level.is_none();
    state.calls_since_warn = state.calls_since_warn.saturating_add(1);
    let escalated = level == Level::Critical && state.last_level == Some(Level::Warning);
    let fire = first || escalated || state.calls_since_warn >= debounce_calls;
    if fire {
        state.calls_since_warn = 0;
        state.last_level = Some(level);
    }
    state.generator = Some(crate::context::bridge::GENERATOR.to_owned());
    (state, fire)
}

/// The debounce key of a subagent run (`<session>-agent-<agent_id>`): a subagent has its own
/// context, so it counts apart from the main agent. `None` when either id is unsafe.
pub fn subagent_key(session_id: &str, agent_id: &str) -> Option<String> {
    let key = format!("{session_id}-agent-{agent_id}");
    (fsx::is_safe_session_id(session_id) && fsx::is_safe_session_id(agent_id) && fsx::is_safe_session_id(&key))
        .then_some(key)
}

/// The state of `key` in baton's private directory; `Ok(None)` for an unsafe key, an error
/// when there is no private directory.
fn state_path(key: &str) -> std::io::Result<Option<PathBuf>> {
    fsx::private_session_path(key, "-warned.json")
}

/// The lock every reader and writer of `key`'s state takes, in baton's private directory.
fn lock_path(key: &str) -> std::io::Result<Option<PathBuf>> {
    fsx::private_session_path(key, "-warned.lock")
}

/// Reads, advances and writes the debounce state of `key` (a session id, or a
/// [`subagent_key`]) under its lock; `None` for an unsafe key. A warning is held back only
/// when this call's count was stored, so that a later call can know about it: when the
/// lock cannot be taken or the state cannot be written (an unwritable temp dir, something
/// else at the path), the warning fires (and the failure goes to `$BATON_LOG`).
pub fn advance(key: &str, level: Level, debounce_calls: u32) -> Option<(DebounceState, bool)> {
    let path = match state_path(key) {
        Ok(path) => path?,
        Err(e) => return Some(unkept(key, "place", &e, step(None, level, debounce_calls).0)),
    };
    let locked = lock_path(key).and_then(|lock| match lock {
        Some(lock) => fsx::lock_exclusive(&lock, LOCK_WAIT),
        None => Err(std::io::Error::other("unsafe key")),
    });
    let _guard = match locked {
        Ok(guard) => guard,
        Err(e) => return Some(unkept(key, "lock", &e, step(None, level, debounce_calls).0)),
    };
    // A corrupt or foreign file reads as no state: the warning fires, which is the safe side.
    let (next, fire) = step(read_state(&path), level, debounce_calls);
    match write_state(&path, &next) {
        Ok(()) => Some((next, fire)),
        Err(e) => Some(unkept(key, "write", &e, next)),
    }
}

/// Whether a call at `level` would warn, read without the lock and without counting the call
/// (for deciding whether to look closer before [`advance`]).
pub fn due(key: &str, level: Level, debounce_calls: u32) -> bool {
    let previous = state_path(key).ok().flatten().and_then(|path| read_state(&path));
    step(previous, level, debounce_calls).1
}

/// The outcome of a call whose count could not be kept: it warns.
fn unkept(key: &str, what: &str, error: &std::io::Error, state: DebounceState) -> (DebounceState, bool) {
    crate::log::note(&format!(
        "monitor: debounce {what} failed for {key} ({error}); warning anyway"
    ));
    (state, true)
}

fn read_state(path: &Path) -> Option<DebounceState> {
    let bytes = fsx::read_private(path, MAX_STATE_BYTES).ok()?;
    serde_json::from_slice(&bytes).ok()
}

fn write_state(path: &Path, state: &DebounceState) -> std::io::Result<()> {
    let json = serde_json::to_vec(state).map_err(std::io::Error::other)?;
    fsx::rewrite_locked(path, &json)
}

/// Notes that the first CRITICAL of this session was recorded in STATE.md.
pub fn mark_critical_recorded(session_id: &str) -> std::io::Result<()> {
    let (Some(path), Some(lock)) = (state_path(session_id)?, lock_path(session_id)?) else {
        return Ok(());
    };
    let _guard = fsx::lock_exclusive(&lock, LOCK_WAIT)?;
    let mut state = read_state(&path).unwrap_or_default();
    state.critical_recorded = Some(true);
    write_state(&path, &state)
}

/// Forgets the debounce state of `key` (after /compact or /clear, or once usage is back
/// above the warning level), so the next crossing warns at once.
pub fn reset(key: &str) -> std::io::Result<()> {
    let (Some(path), Some(lock)) = (state_path(key)?, lock_path(key)?) else {
        return Ok(());
    };
    if std::fs::symlink_metadata(&path).is_err() {
        return Ok(());
    }
    let _guard = fsx::lock_exclusive(&lock, LOCK_WAIT)?;
    fsx::remove_if_exists(&path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(levels: &[Level]) -> Vec<usize> {
        let mut state = None;
        let mut fired = Vec::new();
        for (i, level) in levels.iter().enumerate() {
            let (next, fire) = step(state, *level, 5);
            if fire {
                fired.push(i + 1);
            }
            state = Some(next);
        }
        fired
    }

    #[test]
    fn fires_at_calls_1_6_11() {
        assert_eq!(run(&[Level::Warning; 12]), vec![1, 6, 11]);
    }

    #[test]
    fn escalation_bypasses_the_debounce_once() {
        let mut levels = vec![Level::Warning; 3];
        levels.extend([Level::Critical; 7]);
        // Warning at 1, escalation at 4, then critical is debounced from there: 9.
        assert_eq!(run(&levels), vec![1, 4, 9]);
    }

    #[test]
    fn a_state_without_a_level_has_seen_no_warning() {
        let empty: DebounceState = serde_json::from_str("{}").unwrap();
        assert!(step(Some(empty), Level::Warning, 5).1);
        let counted: DebounceState = serde_json::from_str(r#"{"callsSinceWarn":3,"lastLevel":null}"#).unwrap();
        assert!(step(Some(counted), Level::Warning, 5).1);
    }

    #[test]
    fn subagents_count_apart_and_only_with_safe_ids() {
        assert_eq!(subagent_key("s1", "ab81").as_deref(), Some("s1-agent-ab81"));
        assert_eq!(subagent_key("s1", "../x"), None);
        assert_eq!(subagent_key("s1", ""), None);
        assert_eq!(subagent_key(&"s".repeat(100), &"a".repeat(40)), None, "too long a name");
    }

    #[test]
    fn reads_gsds_file() {
        let s: DebounceState =
            serde_json::from_str(r#"{"callsSinceWarn":3,"lastLevel":"warning","criticalRecorded":true}"#).unwrap();
        assert_eq!(
            (s.calls_since_warn, s.last_level, s.critical_recorded),
            (3, Some(Level::Warning), Some(true))
        );
        let (next, fire) = step(Some(s), Level::Warning, 5);
        assert!(!fire);
        assert_eq!(next.calls_since_warn, 4);
    }
}
