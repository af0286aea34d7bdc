//! Exclusive advisory locks with a bounded wait, on files that are never links.

use std::fs::{self, File};
use std::io;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::platform;

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
/// timeout is an error of kind `TimedOut`, never a hang.
pub fn lock_exclusive(path: &Path, wait: Duration) -> io::Result<LockGuard> {
    let file = platform::fs::open_lock_file(path)?;
    let deadline = Instant::now() + wait;
    let mut pause = Duration::from_micros(200);
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(LockGuard { file }),
            Err(fs::TryLockError::WouldBlock) if Instant::now() < deadline => {
                std::thread::sleep(pause.min(deadline.saturating_duration_since(Instant::now())));
                pause = (pause * 2).min(Duration::from_millis(5));
            }
            Err(fs::TryLockError::WouldBlock) => {
                return Err(io::Error::new(io::ErrorKind::TimedOut, "lock wait timed out"));
            }
            Err(fs::TryLockError::Error(e)) => return Err(e),
        }
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
}
