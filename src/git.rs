//! Running git for commands people run (never on the statusline's path): every call has
//! a timeout and a null stdin, and a missing git or repository reads as "no answer".

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Longest a git call may take.
pub const TIMEOUT: Duration = Duration::from_secs(5);

/// Runs `git <args>` in `dir`; the stdout on success, `None` on failure or timeout.
pub fn output(dir: &Path, args: &[&str]) -> Option<String> {
    let mut child = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_OPTIONAL_LOCKS", "0")
        .env("GIT_TERMINAL_PROMPT", "0")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let mut stdout = child.stdout.take()?;
    let reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = stdout.read_to_end(&mut bytes);
        bytes
    });
    let deadline = Instant::now() + TIMEOUT;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(2)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    };
    let bytes = reader.join().ok()?;
    status.success().then(|| String::from_utf8_lossy(&bytes).into_owned())
}

/// Files with uncommitted changes (staged, unstaged, untracked), relative to the repo top.
pub fn uncommitted_files(dir: &Path) -> Option<Vec<String>> {
    let out = output(dir, &["status", "--porcelain=v1", "-z", "--untracked-files=all"])?;
    let mut files = Vec::new();
    let mut entries = out.split('\0').filter(|e| !e.is_empty());
    while let Some(entry) = entries.next() {
        let (status, path) = entry.split_at_checked(3).unwrap_or(("", entry));
        files.push(path.to_owned());
        // A rename is followed by its old path.
        if status.starts_with('R') || status.starts_with('C') {
            entries.next();
        }
    }
    files.sort();
    files.dedup();
    Some(files)
}

/// The commit HEAD points at, in full.
pub fn head(dir: &Path) -> Option<String> {
    output(dir, &["rev-parse", "--verify", "-q", "HEAD"]).map(|s| s.trim().to_owned()).filter(|s| !s.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_changed_and_untracked_files() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let git = |args: &[&str]| {
            let ok = Command::new("git").args(["-c", "user.name=t", "-c", "user.email=t@t"]).args(args).current_dir(dir).output().unwrap();
            assert!(ok.status.success(), "{args:?}");
        };
        git(&["init", "-q"]);
        std::fs::write(dir.join("a.txt"), "1").unwrap();
        git(&["add", "."]);
        git(&["commit", "-qm", "one"]);
        assert_eq!(uncommitted_files(dir).unwrap(), Vec::<String>::new());
        assert_eq!(head(dir).unwrap().len(), 40);
        std::fs::write(dir.join("a.txt"), "2").unwrap();
        std::fs::create_dir(dir.join("new dir")).unwrap();
        std::fs::write(dir.join("new dir/b.txt"), "x").unwrap();
        assert_eq!(uncommitted_files(dir).unwrap(), ["a.txt", "new dir/b.txt"]);
        assert_eq!(uncommitted_files(Path::new("/")), None);
    }
}
