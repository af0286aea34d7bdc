//! Exclusive advisory locks with a bounded wait, on files that are never links. A lock file
//! may be unlinked by whoever holds its lock (the temp-dir sweep removes stale ones): a taker
//! that locked the file under a name that has since gone, or names another file, locks
//! nothing and opens the name again.

use std::fs::{self, File};
use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::platform;

static IN_HOOK: AtomicBool = AtomicBool::new(false);

/// Marks this process as one Claude Code waits for (a hook, the statusline, the mod): it must
/// never stall, so the project's locks are waited for only briefly ([`in_hook`]).
pub fn mark_in_hook() {
    IN_HOOK.store(true, Ordering::Relaxed);
}

/// Whether this process is one Claude Code waits for ([`mark_in_hook`]).
pub fn in_hook() -> bool {
    IN_HOOK.load(Ordering::Relaxed)
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

/// Takes an exclusive lock on `path` (created 0600 if missing, never through a link; the
/// system's own locks: `flock` on Unix, `LockFileEx` on Windows), waiting at most `wait`. A
/// timeout is an error of kind `TimedOut`, never a hang. The lock is on the file `path` names
/// once it is held (see the module's note).
pub fn lock_exclusive(path: &Path, wait: Duration) -> io::Result<LockGuard> {
    let deadline = Instant::now() + wait;
    lock_opened(platform::fs::open_lock_file(path)?, path, deadline)
}

/// Locks `file`, opened at `path`, by `deadline`; opens `path` again whenever the name has
/// moved on to another file by the time the lock is held.
fn lock_opened(mut file: File, path: &Path, deadline: Instant) -> io::Result<LockGuard> {
    let mut pause = Duration::from_micros(200);
    loop {
        match file.try_lock() {
            Ok(()) if platform::fs::names_file(path, &file) => return Ok(LockGuard { file }),
            Ok(()) if Instant::now() < deadline => {
                drop(file);
                file = platform::fs::open_lock_file(path)?;
                continue;
            }
            Ok(()) => {
                return Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "the lock file was removed or replaced while waiting",
                ));
            }
            Err(fs::TryLockError::WouldBlock) if Instant::now() < deadline => {}
            Err(fs::TryLockError::WouldBlock) => {
                return Err(io::Error::new(io::ErrorKind::TimedOut, "lock wait timed out"));
            }
            Err(fs::TryLockError::Error(e)) => return Err(e),
        }
        std::thread::sleep(pause.min(deadline.saturating_duration_since(Instant::now())));
        pause = (pause * 2).min(Duration::from_millis(5));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lock_times_out_instead_of_hanging() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.lock");
        let _held = lock_exclusive(&path, Duration::from_millis(10)).unwrap();
        let second = lock_exclusive(&path, Duration::from_millis(20));
        assert_eq!(second.unwrap_err().kind(), io::ErrorKind::TimedOut);
    }

    /// Issue 21 item 1: a taker opens the lock file; the sweep locks it, unlinks it and lets
    /// go; another taker creates the file anew and locks it. The first taker's lock on the
    /// unlinked file must not count: it waits for the holder of the file the name now has.
    #[test]
    fn a_lock_on_a_file_unlinked_meanwhile_is_taken_again_on_the_new_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.lock");
        let opened_early = platform::fs::open_lock_file(&path).unwrap();
        let sweep = lock_exclusive(&path, Duration::ZERO).unwrap();
        fs::remove_file(&path).unwrap();
        drop(sweep);
        let holder = lock_exclusive(&path, Duration::ZERO).unwrap();
        let late = lock_opened(opened_early, &path, Instant::now() + Duration::from_millis(30));
        assert_eq!(late.unwrap_err().kind(), io::ErrorKind::TimedOut, "two holders at once");
        drop(holder);
        let reopened = platform::fs::open_lock_file(&path).unwrap();
        fs::remove_file(&path).unwrap();
        let guard = lock_opened(reopened, &path, Instant::now() + Duration::from_millis(30)).unwrap();
        assert!(
            platform::fs::names_file(&path, &guard.file),
            "held on the file the name has"
        );
    }
}
