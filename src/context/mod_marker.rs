//! Whether baton's mod speaks for a session. The mod (`mod/baton.tsx`, Claude Code 2.1.287+)
//! runs inside the client and hands baton the client's exact figures; while it does, the
//! PostToolUse monitor and the SubagentStart handoff leave the session to it, so the agent is
//! told once. The marker is a file in baton's private directory naming the client's process:
//! `baton mod` writes it when the mod takes a session (its parent is the client) and removes it
//! when the session ends. A marker whose process is gone (a client that crashed or was killed)
//! is stale: the hooks speak again and the marker is removed.

use std::fs;
use std::io;
use std::path::PathBuf;
use std::time::UNIX_EPOCH;

use serde::{Deserialize, Serialize};

use crate::context::bridge::GENERATOR;
use crate::fsx;
use crate::platform;

/// `<private dir>/session-<id>` + this.
const SUFFIX: &str = "-mod.json";
/// Largest marker read (a few dozen bytes are written).
const MAX_BYTES: u64 = 4096;
/// A live marker is rewritten once older than this, so the stale-file sweep (a day) never
/// takes the marker of a session that is still going.
const REFRESH_SECS: u64 = 60 * 60;

/// What the marker holds.
#[derive(Debug, Serialize, Deserialize)]
struct Marker {
    /// The client process the mod runs in.
    pid: u32,
    generator: String,
}

/// The marker's path for `session_id`; `None` for an unsafe id or without a private directory.
fn path(session_id: &str) -> Option<PathBuf> {
    fsx::private_session_path(session_id, SUFFIX).ok().flatten()
}

/// Records that the mod speaks for `session_id` from the client process `pid`.
pub fn write(session_id: &str, pid: u32) -> io::Result<()> {
    let Some(path) = path(session_id) else {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "no marker for this session id (unsafe, or no private directory)",
        ));
    };
    let marker = Marker {
        pid,
        generator: GENERATOR.to_owned(),
    };
    let bytes = serde_json::to_vec(&marker).map_err(io::Error::other)?;
    fsx::write_atomic(&path, &bytes, 0o600, fsx::Durability::Ephemeral)
}

/// Rewrites the marker of `session_id` for `pid` when it is missing or older than an hour
/// (one `stat` otherwise).
pub fn keep(session_id: &str, pid: u32, now: u64) -> io::Result<()> {
    let fresh = path(session_id)
        .and_then(|p| fs::symlink_metadata(p).ok())
        .and_then(|m| m.modified().ok())
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .is_some_and(|t| now.saturating_sub(t.as_secs()) < REFRESH_SECS);
    if fresh { Ok(()) } else { write(session_id, pid) }
}

/// The mod no longer speaks for `session_id`.
pub fn remove(session_id: &str) -> io::Result<()> {
    match path(session_id) {
        Some(path) => fsx::remove_if_exists(&path),
        None => Ok(()),
    }
}

/// Whether the mod speaks for `session_id` now: its marker names a process that is running.
/// Without a mod this costs two `lstat`s that find the private directory and no marker (when
/// the directory's usual name was taken, the full lookup finds where it is). A stale marker is
/// removed.
pub fn is_live(session_id: &str) -> bool {
    let usual = fsx::usual_private_session_path(session_id, SUFFIX);
    if usual.is_some_and(|p| fs::symlink_metadata(p).is_err()) {
        return false;
    }
    let Some(path) = path(session_id) else {
        return false;
    };
    let marker = fsx::read_private(&path, MAX_BYTES)
        .ok()
        .and_then(|bytes| serde_json::from_slice::<Marker>(&bytes).ok());
    let live = marker.is_some_and(|m| platform::process::is_running(m.pid));
    if !live && let Err(e) = fsx::remove_if_exists(&path) {
        crate::log::note(&format!("mod marker: a stale one could not be removed: {e}"));
    }
    live
}
