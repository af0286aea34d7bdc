//! File names in the temp dir and in baton's private directory: which session ids may name a
//! file, the per-session and per-project names, and the hash that makes a project's name.

use std::io;
use std::path::{Path, PathBuf};

use crate::platform;

/// Longest session id baton accepts for a file name.
const MAX_SESSION_ID_LEN: usize = 128;

/// The temp dir for session files, as GSD's Node hooks pick it (`platform::temp`).
pub fn temp_dir() -> PathBuf {
    platform::temp::temp_dir()
}

/// A session id that is safe to put in a file name: `[A-Za-z0-9._-]`, no `..`, bounded.
pub fn is_safe_session_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_SESSION_ID_LEN
        && !id.contains("..")
        && !id.starts_with('.')
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

/// `<temp dir>/claude-ctx-<session><suffix>`, or `None` for an unsafe session id.
pub fn session_temp_path(session_id: &str, suffix: &str) -> Option<PathBuf> {
    is_safe_session_id(session_id).then(|| temp_dir().join(format!("claude-ctx-{session_id}{suffix}")))
}

/// `<private dir>/session-<session><suffix>`: a per-session file (a lock, a note for a later
/// hook) in baton's private directory, never in the shared temp dir, where anyone could plant
/// a file or directory at the name. `Ok(None)` for an unsafe session id; an error when there
/// is no private directory.
pub fn private_session_path(session_id: &str, suffix: &str) -> io::Result<Option<PathBuf>> {
    if !is_safe_session_id(session_id) {
        return Ok(None);
    }
    let dir = platform::temp::private_dir()?;
    Ok(Some(dir.join(format!("{SESSION_FILE_PREFIX}{session_id}{suffix}"))))
}

/// File-name prefix of per-session files in the private directory, for the stale-file sweep.
pub const SESSION_FILE_PREFIX: &str = "session-";

/// The lock file that serialises read-modify-write of one kind of a project's files. It lives
/// in baton's private directory in the temp dir (not in the repository, and not where another
/// user could plant something at its name), named from a stable FNV-1a hash of the root path
/// with links resolved (a hook whose `cwd` reaches the project through a link, or ends in
/// `/`, takes the same lock as a command run in it).
pub fn project_lock_path(root: &Path, name: &str) -> io::Result<PathBuf> {
    let name: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let dir = platform::temp::private_dir()?;
    let root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    Ok(dir.join(format!(
        "{PROJECT_LOCK_PREFIX}{:016x}-{name}.lock",
        fnv1a(root.as_os_str().as_encoded_bytes())
    )))
}

/// `<private dir>/baton-cache-<hash of the root>-<name>`: a cache of one project, in baton's
/// private directory (no other user can plant or squat the name). Names can collide: readers
/// check the root recorded inside. An error when there is no private directory.
pub fn project_cache_path(root: &Path, name: &str) -> io::Result<PathBuf> {
    let dir = platform::temp::private_dir()?;
    Ok(dir.join(format!(
        "{PROJECT_CACHE_PREFIX}{:016x}-{name}",
        fnv1a(root.as_os_str().as_encoded_bytes())
    )))
}

/// File-name prefix of per-project caches (in the private directory), for the stale-file sweep.
pub const PROJECT_CACHE_PREFIX: &str = "baton-cache-";

/// FNV-1a, a small stable hash for file names and "has this file changed" checks.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// File-name prefix of project locks (in the private directory; older baton versions left
/// them in the temp dir itself), for the stale-file sweep.
pub const PROJECT_LOCK_PREFIX: &str = "baton-project-";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_ids_are_checked_strictly() {
        for good in ["4106d464-75bb-44ee-b810-e0e678a180ac", "abc", "a.b_c-d"] {
            assert!(is_safe_session_id(good), "{good}");
        }
        let long = "a".repeat(MAX_SESSION_ID_LEN + 1);
        for bad in [
            "",
            "../x",
            "/etc/passwd",
            "a\\b",
            "a/b",
            "..",
            ".hidden",
            "a\0b",
            "ä",
            &long,
        ] {
            assert!(!is_safe_session_id(bad), "{bad:?}");
        }
    }
}
