//! Spot-check findings owed to the orchestrator. A run still flagged at its final SubagentStop
//! is noted here, per session, and told at the main agent's next PostToolUse: right away for
//! a foreground agent (its `Agent` call returns just after the SubagentStop), and later for a
//! background one (Claude Code 2.1.332's default: its `Agent` call returned at launch, and
//! the result reaches the orchestrator as a `<task-notification>` in a later turn). The notes
//! live in baton's private temp directory; a main-agent PostToolUse without any costs one
//! `stat`.

use std::io;
use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::fsx;

/// Longest a hook waits for another hook of the same session to finish with the notes.
const LOCK_WAIT: Duration = Duration::from_millis(200);
const MAX_NOTES_BYTES: u64 = 1024 * 1024;

/// One finding to tell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Note {
    /// The run it is about (a later note for the same run replaces it).
    run: String,
    /// What the orchestrator is told.
    text: String,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct Notes {
    #[serde(default)]
    notes: Vec<Note>,
}

fn paths(session_id: &str) -> io::Result<Option<(PathBuf, PathBuf)>> {
    let file = fsx::private_session_path(session_id, "-notices.json")?;
    let lock = fsx::private_session_path(session_id, "-notices.lock")?;
    Ok(file.zip(lock))
}

fn read(path: &std::path::Path) -> Notes {
    fsx::read_private(path, MAX_NOTES_BYTES)
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .unwrap_or_default()
}

/// Notes that session `session_id`'s orchestrator must be told `text` about run `run`.
pub fn owe(session_id: &str, run: &str, text: &str) -> io::Result<()> {
    let Some((path, lock)) = paths(session_id)? else {
        return Ok(());
    };
    let _guard = fsx::lock_exclusive(&lock, LOCK_WAIT)?;
    let mut notes = read(&path);
    notes.notes.retain(|n| n.run != run);
    notes.notes.push(Note {
        run: run.to_owned(),
        text: text.to_owned(),
    });
    let json = serde_json::to_vec(&notes).map_err(io::Error::other)?;
    fsx::write_atomic(&path, &json, 0o600, fsx::Durability::Ephemeral)
}

/// Drops what is owed about run `run` (it was corrected, or told another way).
pub fn forgive(session_id: &str, run: &str) -> io::Result<()> {
    let Some((path, lock)) = paths(session_id)? else {
        return Ok(());
    };
    if std::fs::symlink_metadata(&path).is_err() {
        return Ok(());
    }
    let _guard = fsx::lock_exclusive(&lock, LOCK_WAIT)?;
    let mut notes = read(&path);
    notes.notes.retain(|n| n.run != run);
    if notes.notes.is_empty() {
        return fsx::remove_if_exists(&path);
    }
    let json = serde_json::to_vec(&notes).map_err(io::Error::other)?;
    fsx::write_atomic(&path, &json, 0o600, fsx::Durability::Ephemeral)
}

/// Takes everything owed to session `session_id`'s orchestrator (each note is told once).
pub fn take(session_id: &str) -> io::Result<Vec<String>> {
    let Some((path, lock)) = paths(session_id)? else {
        return Ok(Vec::new());
    };
    if std::fs::symlink_metadata(&path).is_err() {
        return Ok(Vec::new());
    }
    let _guard = fsx::lock_exclusive(&lock, LOCK_WAIT)?;
    let notes = read(&path);
    fsx::remove_if_exists(&path)?;
    Ok(notes.notes.into_iter().map(|n| n.text).collect())
}
