//! The only place that writes files: atomic writes, bounded locks, symlink-safe opens,
//! and the temp-dir naming rule for per-session files.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Longest session id baton accepts for a file name.
const MAX_SESSION_ID_LEN: usize = 128;

/// Whether a write must survive a crash (project state) or only be atomic (temp files).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Durability {
    /// fsync the data before the rename: project files under `.planning/` and `.baton/`.
    Durable,
    /// Atomic rename only: ephemeral files in the temp dir, rewritten every few seconds.
    Ephemeral,
}

/// The temp dir for session files: `TMPDIR` when set and absolute, else `/tmp`.
pub fn temp_dir() -> PathBuf {
    match std::env::var_os("TMPDIR") {
        Some(dir) if Path::new(&dir).is_absolute() => PathBuf::from(dir),
        _ => PathBuf::from("/tmp"),
    }
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

/// Opens a regular file for reading without blocking on a FIFO or device.
pub fn open_regular(path: &Path) -> io::Result<File> {
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "not a regular file"));
    }
    Ok(file)
}

/// Opens a regular file for reading without following a symlink at `path` (a link fails with
/// an error [`is_symlink_error`] recognises) and without blocking on a FIFO or device; the
/// file and its metadata.
pub fn open_regular_nofollow(path: &Path) -> io::Result<(File, std::fs::Metadata)> {
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "not a regular file"));
    }
    Ok((file, meta))
}

/// Whether an open failed because the path is a symlink (or a loop of them).
pub fn is_symlink_error(error: &io::Error) -> bool {
    error.raw_os_error() == Some(libc::ELOOP)
}

/// Reads a regular file of at most `limit` bytes (config, STATE.md, todos, git HEAD).
pub fn read_regular(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let file = open_regular(path)?;
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(io::Error::new(io::ErrorKind::FileTooLarge, "file too large"));
    }
    Ok(bytes)
}

/// The lock file that serialises read-modify-write of one kind of a project's files. It lives
/// in the temp dir (not in the repository), named from a stable FNV-1a hash of the root path.
pub fn project_lock_path(root: &Path, name: &str) -> PathBuf {
    use std::os::unix::ffi::OsStrExt;
    let name: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    temp_dir().join(format!(
        "{PROJECT_LOCK_PREFIX}{:016x}-{name}.lock",
        fnv1a(root.as_os_str().as_bytes())
    ))
}

/// FNV-1a, a small stable hash for file names and "has this file changed" checks.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// File-name prefix of project locks, for the stale-file sweep.
pub const PROJECT_LOCK_PREFIX: &str = "baton-project-";

/// File-name prefix of per-project caches, for the stale-file sweep.
pub const PROJECT_CACHE_PREFIX: &str = "baton-cache-";

/// `<temp dir>/baton-cache-<uid>-<hash of the root>-<name>`: a cache of one user for one
/// project. Any root gives a safe name; since names can collide, readers check the root
/// recorded inside.
pub fn project_cache_path(root: &Path, name: &str) -> PathBuf {
    use std::os::unix::ffi::OsStrExt;
    // SAFETY: geteuid has no preconditions and cannot fail.
    let uid = unsafe { libc::geteuid() };
    temp_dir().join(format!(
        "{PROJECT_CACHE_PREFIX}{uid}-{:016x}-{name}",
        fnv1a(root.as_os_str().as_bytes())
    ))
}

/// Reads a small file without following a symlink and only if the current user owns it.
/// Files larger than `limit` bytes are refused.
pub fn read_private(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)?;
    let meta = file.metadata()?;
    // SAFETY: geteuid has no preconditions and cannot fail.
    let uid = unsafe { libc::geteuid() };
    if !meta.is_file() || meta.uid() != uid {
        return Err(io::Error::new(io::ErrorKind::PermissionDenied, "not our regular file"));
    }
    if meta.len() > limit {
        return Err(io::Error::new(io::ErrorKind::InvalidData, "file too large"));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(limit).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Replaces `path` with `contents` atomically: a reader sees the old file or the new one.
/// The temp file is created exclusively in the same directory with mode `mode`, so a
/// symlink planted at `path` is replaced, never written through.
pub fn write_atomic(path: &Path, contents: &[u8], mode: u32, durability: Durability) -> io::Result<()> {
    write_atomic_prepared(path, contents, mode, durability, |_| Ok(()))
}

/// Like [`write_atomic`], but a regular file already at `path` hands on its permission bits
/// and, where the process may set them, its owner and group (a 0600 STATE.md stays 0600);
/// a new file gets `mode`. The temp file has them before it takes the name.
pub fn write_atomic_keeping_mode(path: &Path, contents: &[u8], mode: u32, durability: Durability) -> io::Result<()> {
    let old = fs::symlink_metadata(path).ok().filter(fs::Metadata::is_file);
    write_atomic_prepared(path, contents, mode, durability, |temp| {
        let Some(old) = &old else {
            return Ok(());
        };
        let now = temp.metadata()?;
        if (now.uid(), now.gid()) != (old.uid(), old.gid()) {
            // Only root may give a file away; anyone may keep a group they belong to.
            let _ = std::os::unix::fs::fchown(temp, Some(old.uid()), Some(old.gid()))
                .or_else(|_| std::os::unix::fs::fchown(temp, None, Some(old.gid())));
        }
        temp.set_permissions(fs::Permissions::from_mode(old.mode() & 0o777))
    })
}

/// [`write_atomic`] with `prepare` run on the written temp file before it takes the name.
fn write_atomic_prepared(
    path: &Path,
    contents: &[u8],
    mode: u32,
    durability: Durability,
    prepare: impl FnOnce(&File) -> io::Result<()>,
) -> io::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut temp = tempfile::Builder::new()
        .prefix(".baton-")
        .suffix(".tmp")
        .permissions(fs::Permissions::from_mode(mode))
        .tempfile_in(dir)?;
    temp.write_all(contents)?;
    prepare(temp.as_file())?;
    if durability == Durability::Durable {
        temp.as_file().sync_all()?;
        temp.persist(path).map_err(|e| e.error)?;
        // Make the rename itself durable; a failure here loses nothing already written.
        let _ = File::open(dir).and_then(|d| d.sync_all());
        return Ok(());
    }
    if exchange(temp.path(), path) {
        // The old file now has the temp name; dropping `temp` unlinks it.
        return Ok(());
    }
    temp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Swaps `new` into `path` atomically when `path` is an existing file or symlink. A plain
/// rename over an existing file makes ext4 flush the new file's data first (auto_da_alloc,
/// ~0.3 ms); an exchange does not (~0.1 ms), and readers still see old or new, never half.
/// `false` when there is nothing to exchange with or the file system cannot.
fn exchange(new: &Path, path: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let replaceable = fs::symlink_metadata(path).is_ok_and(|m| m.is_file() || m.file_type().is_symlink());
    let (Ok(from), Ok(to)) = (
        std::ffi::CString::new(new.as_os_str().as_bytes()),
        std::ffi::CString::new(path.as_os_str().as_bytes()),
    ) else {
        return false;
    };
    // SAFETY: both are valid NUL-terminated paths; renameat2 only reads them.
    replaceable
        && unsafe {
            libc::renameat2(
                libc::AT_FDCWD,
                from.as_ptr(),
                libc::AT_FDCWD,
                to.as_ptr(),
                libc::RENAME_EXCHANGE,
            )
        } == 0
}

/// Rewrites a small private file in place: one positioned write, padded with spaces to the
/// old length so no reader meets a shorter file (JSON allows trailing whitespace). Meant for
/// files whose every reader holds the same lock, where an in-place write is as safe as a
/// rename and far cheaper on ext4 (0.07 ms against 0.3 ms). A missing file, a symlink, a file
/// that is not ours, not 0600 or grown large is replaced atomically instead.
pub fn rewrite_locked(path: &Path, contents: &[u8]) -> io::Result<()> {
    use std::os::unix::fs::FileExt;
    const MAX_IN_PLACE: u64 = 4096;
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path);
    if let Ok(file) = file {
        let meta = file.metadata()?;
        // SAFETY: geteuid has no preconditions and cannot fail.
        let ours = meta.is_file() && meta.uid() == unsafe { libc::geteuid() } && meta.mode() & 0o077 == 0;
        if ours && meta.len() <= MAX_IN_PLACE && contents.len() as u64 <= MAX_IN_PLACE {
            let mut padded = contents.to_vec();
            padded.resize(padded.len().max(meta.len() as usize), b' ');
            return file.write_all_at(&padded, 0);
        }
    }
    write_atomic(path, contents, 0o600, Durability::Ephemeral)
}

/// An exclusive advisory lock held until dropped.
#[derive(Debug)]
pub struct LockGuard {
    file: File,
}

impl Drop for LockGuard {
    fn drop(&mut self) {
        let _ = self.file.unlock();
    }
}

/// Takes an exclusive lock on `path` (created 0600 if missing, never through a symlink),
/// waiting at most `wait`. A timeout is an error, never a hang.
pub fn lock_exclusive(path: &Path, wait: Duration) -> io::Result<LockGuard> {
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)?;
    let deadline = Instant::now() + wait;
    let mut pause = Duration::from_micros(200);
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(LockGuard { file }),
            Err(fs::TryLockError::WouldBlock) if Instant::now() < deadline => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(5));
            }
            Err(fs::TryLockError::WouldBlock) => {
                return Err(io::Error::new(io::ErrorKind::TimedOut, "lock wait timed out"));
            }
            Err(fs::TryLockError::Error(e)) => return Err(e),
        }
    }
}

/// Removes `path` unless it is missing; other errors are returned.
pub fn remove_if_exists(path: &Path) -> io::Result<()> {
    match fs::remove_file(path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// Appends `bytes` to `path` in one write (the file is created 0644 when missing, never
/// through a symlink) and makes them durable before returning: a write-ahead log's append.
/// Returns the file's length afterwards.
pub fn append_durable(path: &Path, bytes: &[u8]) -> io::Result<u64> {
    let created = !path.exists();
    let mut file = OpenOptions::new()
        .append(true)
        .create(true)
        .mode(0o644)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)?;
    file.write_all(bytes)?;
    file.sync_data()?;
    if created {
        sync_dir(path);
    }
    Ok(file.metadata()?.len())
}

/// Cuts `path` to its first `len` bytes, durably (a torn last line of a log is dropped).
pub fn truncate_durable(path: &Path, len: u64) -> io::Result<()> {
    let file = OpenOptions::new()
        .write(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)?;
    file.set_len(len)?;
    file.sync_all()
}

/// Makes a directory entry change (a file created or removed in `path`'s directory) durable.
pub fn sync_dir(path: &Path) {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let _ = File::open(dir).and_then(|d| d.sync_all());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appends_are_whole_and_truncation_cuts_back() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("log.jsonl");
        assert_eq!(append_durable(&log, b"{\"v\":1}\n").unwrap(), 8);
        assert_eq!(append_durable(&log, b"{\"v\":2").unwrap(), 14);
        truncate_durable(&log, 8).unwrap();
        assert_eq!(fs::read_to_string(&log).unwrap(), "{\"v\":1}\n");
        let link = dir.path().join("link.jsonl");
        std::os::unix::fs::symlink(&log, &link).unwrap();
        assert!(
            append_durable(&link, b"x").is_err(),
            "a planted symlink is not written through"
        );
    }

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

    #[test]
    fn atomic_write_replaces_a_planted_symlink_instead_of_following_it() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        fs::write(&victim, "keep").unwrap();
        let link = dir.path().join("bridge.json");
        std::os::unix::fs::symlink(&victim, &link).unwrap();
        write_atomic(&link, b"new", 0o600, Durability::Ephemeral).unwrap();
        assert_eq!(fs::read_to_string(&victim).unwrap(), "keep");
        assert_eq!(fs::read_to_string(&link).unwrap(), "new");
        assert!(!fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(fs::metadata(&link).unwrap().permissions().mode() & 0o777, 0o600);
    }

    #[test]
    fn keeping_the_mode_hands_on_the_old_files_mode_and_not_a_links() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("STATE.md");
        write_atomic_keeping_mode(&path, b"a", 0o644, Durability::Durable).unwrap();
        assert_eq!(fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o644);
        fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();
        write_atomic_keeping_mode(&path, b"b", 0o644, Durability::Durable).unwrap();
        assert_eq!(fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
        assert_eq!(fs::read(&path).unwrap(), b"b");
    }

    #[test]
    fn read_private_refuses_symlinks() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("t");
        fs::write(&target, "{}").unwrap();
        let link = dir.path().join("l");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        assert!(read_private(&link, 1024).is_err());
        assert_eq!(read_private(&target, 1024).unwrap(), b"{}");
        assert!(read_private(&target, 1).is_err());
    }

    #[test]
    fn rewrite_in_place_pads_and_never_follows_links() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.json");
        rewrite_locked(&path, b"{\"callsSinceWarn\":10}").unwrap();
        assert_eq!(fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
        rewrite_locked(&path, b"{\"a\":1}").unwrap();
        let text = fs::read_to_string(&path).unwrap();
        assert_eq!(text, format!("{:<21}", "{\"a\":1}"));
        assert_eq!(serde_json::from_str::<serde_json::Value>(&text).unwrap()["a"], 1);
        let victim = dir.path().join("victim");
        fs::write(&victim, "keep").unwrap();
        let link = dir.path().join("link.json");
        std::os::unix::fs::symlink(&victim, &link).unwrap();
        rewrite_locked(&link, b"{}").unwrap();
        assert_eq!(fs::read_to_string(&victim).unwrap(), "keep");
        assert!(!fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    }

    #[test]
    fn lock_times_out_instead_of_hanging() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.lock");
        let _held = lock_exclusive(&path, Duration::from_millis(10)).unwrap();
        let second = lock_exclusive(&path, Duration::from_millis(20));
        assert_eq!(second.unwrap_err().kind(), io::ErrorKind::TimedOut);
    }
}
