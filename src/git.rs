//! Git, for commands people run and the agent hooks (never on the statusline's path, which
//! reads `.git/HEAD` itself): the work tree's HEAD and dirty files (one `git status` per
//! snapshot), the files changed since a start point, whether a commit exists. Every git run
//! has a deadline, null stdin and capped output, and takes no optional locks.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Longest a single git command may run before it is killed.
pub const GIT_DEADLINE: Duration = Duration::from_secs(3);
/// Most git output read (a huge untracked tree is cut here rather than held in memory).
const MAX_OUTPUT: u64 = 8 * 1024 * 1024;
/// Most dirty paths a snapshot keeps fingerprints for.
pub const MAX_DIRTY: usize = 5_000;

/// The state of a work tree at one moment.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Snapshot {
    /// The work tree's top directory.
    pub toplevel: PathBuf,
    /// The commit HEAD points at; `None` before the first commit.
    pub head: Option<String>,
    /// The branch, or `None` when detached.
    pub branch: Option<String>,
    /// Modified, staged, renamed and untracked paths (relative to `toplevel`).
    pub dirty: BTreeSet<String>,
}

/// The top directory of the git work tree holding `dir`; `None` outside git.
pub fn toplevel(dir: &Path) -> Option<PathBuf> {
    let top = run(dir, &["rev-parse", "--show-toplevel"])?;
    Some(PathBuf::from(String::from_utf8(top).ok()?.trim_end_matches('\n')))
}

/// Takes a snapshot of the git work tree holding `dir`; `None` outside git or when git fails.
pub fn snapshot(dir: &Path) -> Option<Snapshot> {
    snapshot_at(toplevel(dir)?)
}

/// [`snapshot`] of the work tree whose top directory is `toplevel` (as [`toplevel`] gave it):
/// one git process fewer when the caller already knows the top.
pub fn snapshot_at(toplevel: PathBuf) -> Option<Snapshot> {
    let status = run(
        &toplevel,
        &["status", "--porcelain=v2", "--branch", "-z", "--untracked-files=all"],
    )?;
    let mut snapshot = parse_status(&String::from_utf8_lossy(&status));
    snapshot.toplevel = toplevel;
    Some(snapshot)
}

/// Parses `git status --porcelain=v2 --branch -z` output (paths relative to the top).
pub fn parse_status(text: &str) -> Snapshot {
    let mut snapshot = Snapshot::default();
    let mut fields = text.split('\0');
    while let Some(field) = fields.next() {
        if let Some(oid) = field.strip_prefix("# branch.oid ") {
            snapshot.head = (oid != "(initial)").then(|| oid.to_owned());
        } else if let Some(head) = field.strip_prefix("# branch.head ") {
            snapshot.branch = (head != "(detached)").then(|| head.to_owned());
        } else if let Some(rest) = field.strip_prefix("1 ") {
            push_path(&mut snapshot.dirty, rest.splitn(8, ' ').nth(7));
        } else if let Some(rest) = field.strip_prefix("2 ") {
            push_path(&mut snapshot.dirty, rest.splitn(9, ' ').nth(8));
            // A rename's original path follows as its own field.
            push_path(&mut snapshot.dirty, fields.next());
        } else if let Some(rest) = field.strip_prefix("u ") {
            push_path(&mut snapshot.dirty, rest.splitn(10, ' ').nth(9));
        } else if let Some(path) = field.strip_prefix("? ") {
            push_path(&mut snapshot.dirty, Some(path));
        }
    }
    snapshot
}

fn push_path(paths: &mut BTreeSet<String>, path: Option<&str>) {
    if let Some(path) = path.filter(|p| !p.is_empty()) {
        paths.insert(path.to_owned());
    }
}

/// Size and modification time of `path`, to tell whether a file that was already dirty
/// when an agent started was touched again; `"absent"` when it does not exist.
pub fn fingerprint(path: &Path) -> String {
    match std::fs::symlink_metadata(path) {
        Ok(meta) => {
            let since_epoch = meta.modified().map(|t| t.duration_since(std::time::UNIX_EPOCH));
            match since_epoch {
                Ok(Ok(d)) => format!("{}:{}.{:09}", meta.len(), d.as_secs(), d.subsec_nanos()),
                _ => format!("{}:unknown", meta.len()),
            }
        }
        Err(_) => "absent".to_owned(),
    }
}

/// Fingerprints of a snapshot's dirty paths, at most [`MAX_DIRTY`] of them.
pub fn fingerprints(snapshot: &Snapshot) -> BTreeMap<String, String> {
    let paths = snapshot.dirty.iter().take(MAX_DIRTY);
    paths
        .map(|p| (p.clone(), fingerprint(&snapshot.toplevel.join(p))))
        .collect()
}

/// The files changed between a start point and now: committed since `start_head`, dirty
/// now, or dirty at the start and touched since. Files already dirty at the start and
/// untouched (same fingerprint) are not counted. `None` when git cannot tell.
pub fn changed_since(
    now: &Snapshot,
    start_head: Option<&str>,
    dirty_at_start: &BTreeMap<String, String>,
) -> Option<Vec<String>> {
    let mut changed: BTreeSet<String> = now.dirty.clone();
    if let (Some(start), Some(head)) = (start_head, now.head.as_deref())
        && start != head
    {
        changed.extend(changed_between(&now.toplevel, start, head)?);
    }
    for (path, before) in dirty_at_start {
        let after = fingerprint(&now.toplevel.join(path));
        if after == *before {
            changed.remove(path);
        } else {
            changed.insert(path.clone());
        }
    }
    Some(changed.into_iter().collect())
}

/// The paths that differ between commits `from` and `to` (revisions git resolved, or `HEAD`).
pub fn changed_between(dir: &Path, from: &str, to: &str) -> Option<Vec<String>> {
    let diff = run(dir, &["diff", "--name-only", "--no-renames", "-z", from, to])?;
    Some(
        String::from_utf8_lossy(&diff)
            .split('\0')
            .filter(|p| !p.is_empty())
            .map(str::to_owned)
            .collect(),
    )
}

/// Whether `hash` names a commit in the repository at `dir`; `None` when git cannot tell.
pub fn commit_exists(dir: &Path, hash: &str) -> Option<bool> {
    if !hash.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Some(false);
    }
    let object = format!("{hash}^{{commit}}");
    status(dir, &["cat-file", "-e", &object]).map(|code| code == 0)
}

/// Runs `git <args>` in `dir`; its stdout as text when it exits 0 within the deadline.
pub fn output(dir: &Path, args: &[&str]) -> Option<String> {
    run(dir, args).map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
}

/// Files with uncommitted changes (staged, unstaged, untracked), relative to the work tree's top.
pub fn uncommitted_files(dir: &Path) -> Option<Vec<String>> {
    snapshot(dir).map(|s| s.dirty.into_iter().collect())
}

/// The commit HEAD points at, in full; `None` outside git or before the first commit.
pub fn head(dir: &Path) -> Option<String> {
    output(dir, &["rev-parse", "--verify", "-q", "HEAD"])
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
}

/// The full hash of the commit `rev` names (a branch, tag, `HEAD~3`, a short hash).
pub fn resolve_commit(dir: &Path, rev: &str) -> Option<String> {
    if rev.starts_with('-') {
        return None;
    }
    let object = format!("{rev}^{{commit}}");
    output(dir, &["rev-parse", "--verify", "-q", "--end-of-options", &object])
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
}

/// Tracked and untracked files (not ignored) below `path`, relative to the top `top`.
pub fn files_below(top: &Path, path: &str) -> Option<Vec<String>> {
    let out = run(
        top,
        &[
            "ls-files",
            "-z",
            "--cached",
            "--others",
            "--exclude-standard",
            "--",
            path,
        ],
    )?;
    let text = String::from_utf8_lossy(&out);
    let mut files: Vec<String> = text.split('\0').filter(|p| !p.is_empty()).map(str::to_owned).collect();
    files.dedup();
    Some(files)
}

/// The files git tracks in the work tree at `top` (its index, relative to the top): one read
/// of the index, no ignore rule applied. `None` when git cannot tell.
pub fn tracked(top: &Path) -> Option<std::collections::HashSet<String>> {
    let out = run(top, &["ls-files", "-z", "--cached"])?;
    let text = String::from_utf8_lossy(&out);
    Some(text.split('\0').filter(|p| !p.is_empty()).map(str::to_owned).collect())
}

/// Which of the untracked `paths` (relative to the top `top`) `.gitignore` and friends
/// exclude, asked of `git check-ignore` on just those paths. `None` when git cannot tell (it
/// failed or ran past its deadline): then no path may be taken as not ignored.
pub fn ignored(top: &Path, paths: &[&str]) -> Option<BTreeSet<String>> {
    if paths.is_empty() {
        return Some(BTreeSet::new());
    }
    let mut input = Vec::new();
    for path in paths {
        input.extend_from_slice(path.as_bytes());
        input.push(0);
    }
    // Exit 1 means none is ignored; 128 that git failed.
    let (code, out) = spawn_with(top, &["check-ignore", "-z", "--stdin"], Some(input))?;
    if code != 0 && code != 1 {
        return None;
    }
    let text = String::from_utf8_lossy(&out);
    Some(text.split('\0').filter(|p| !p.is_empty()).map(str::to_owned).collect())
}

/// `(hash, message)` of the commits in `from..to`, newest first, at most `max`.
pub fn commit_messages(dir: &Path, from: &str, to: &str, max: usize) -> Option<Vec<(String, String)>> {
    if from.starts_with('-') || to.starts_with('-') {
        return None;
    }
    let range = format!("{from}..{to}");
    let limit = format!("--max-count={max}");
    let out = output(dir, &["log", "--format=%H%x00%B%x1e", &limit, &range, "--"])?;
    let commits = out.split('\x1e').filter_map(|record| {
        let (hash, message) = record.trim_start_matches('\n').split_once('\0')?;
        Some((hash.to_owned(), message.trim_end().to_owned()))
    });
    Some(commits.collect())
}

/// Runs git in `dir`; its stdout when it exits 0 within the deadline.
fn run(dir: &Path, args: &[&str]) -> Option<Vec<u8>> {
    let (code, out) = spawn(dir, args)?;
    (code == 0).then_some(out)
}

/// Runs git in `dir`; its exit code when it finishes within the deadline.
fn status(dir: &Path, args: &[&str]) -> Option<i32> {
    spawn(dir, args).map(|(code, _)| code)
}

fn spawn(dir: &Path, args: &[&str]) -> Option<(i32, Vec<u8>)> {
    spawn_with(dir, args, None)
}

/// [`spawn`], with `input` written to git's stdin (from a thread of its own, so that a git
/// that writes before it has read everything cannot deadlock us).
fn spawn_with(dir: &Path, args: &[&str], input: Option<Vec<u8>>) -> Option<(i32, Vec<u8>)> {
    let mut child = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        // Never take index.lock: the agent's own git commands must not fail because of us.
        .env("GIT_OPTIONAL_LOCKS", "0")
        .env("GIT_TERMINAL_PROMPT", "0")
        .stdin(if input.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| crate::log::note(&format!("git {args:?}: cannot start: {e}")))
        .ok()?;
    if let (Some(input), Some(mut stdin)) = (input, child.stdin.take()) {
        std::thread::spawn(move || {
            use std::io::Write;
            let _ = stdin.write_all(&input);
        });
    }
    let stdout = child.stdout.take()?;
    // The output is waited for, not polled: git closes its stdout as it exits, so the answer
    // comes as soon as git has given it (a poll's sleep would add up to its step to each of
    // the several git runs a bridge or an agent hook makes).
    let (sent, output) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut out = Vec::new();
        let _ = stdout.take(MAX_OUTPUT).read_to_end(&mut out);
        let _ = sent.send(out);
    });
    let deadline = Instant::now() + GIT_DEADLINE;
    let killed = |child: &mut std::process::Child| {
        let _ = child.kill();
        let _ = child.wait();
        crate::log::note(&format!("git {args:?}: killed after {GIT_DEADLINE:?}"));
    };
    let Ok(out) = output.recv_timeout(deadline.saturating_duration_since(Instant::now())) else {
        killed(&mut child);
        return None;
    };
    // Its stdout closed: git is exiting. (Output past MAX_OUTPUT closed the pipe on our side:
    // git then dies of the broken pipe and `run` refuses its exit code.)
    let mut pause = Duration::from_micros(100);
    let code = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status.code().unwrap_or(-1),
            Ok(None) if Instant::now() < deadline => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(20));
            }
            _ => {
                killed(&mut child);
                return None;
            }
        }
    };
    Some((code, out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_porcelain_v2_entries_renames_and_untracked() {
        let text = "# branch.oid 0123456789abcdef0123456789abcdef01234567\0# branch.head main\0\
                    1 .M N... 100644 100644 100644 aaa bbb src/lib.rs\0\
                    2 R. N... 100644 100644 100644 aaa bbb R100 new name.rs\0old.rs\0\
                    u UU N... 100644 100644 100644 100644 a b c conflict.rs\0\
                    ? notes/a b.txt\0! ignored.log\0";
        let s = parse_status(text);
        assert_eq!(s.head.as_deref(), Some("0123456789abcdef0123456789abcdef01234567"));
        assert_eq!(s.branch.as_deref(), Some("main"));
        let dirty: Vec<&str> = s.dirty.iter().map(String::as_str).collect();
        assert_eq!(
            dirty,
            ["conflict.rs", "new name.rs", "notes/a b.txt", "old.rs", "src/lib.rs"]
        );
        let fresh = parse_status("# branch.oid (initial)\0# branch.head (detached)\0");
        assert_eq!((fresh.head, fresh.branch), (None, None));
    }

    #[test]
    fn lists_changed_and_untracked_files() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let git = |args: &[&str]| {
            let out = Command::new("git")
                .args([
                    "-c",
                    "user.name=t",
                    "-c",
                    "user.email=t@t",
                    "-c",
                    "commit.gpgsign=false",
                ])
                .args(args)
                .current_dir(dir)
                .output()
                .unwrap();
            assert!(out.status.success(), "{args:?}");
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

    #[test]
    fn files_dirty_at_the_start_count_only_when_touched_again() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("old.txt"), "x").unwrap();
        std::fs::write(tmp.path().join("touched.txt"), "x").unwrap();
        let before: BTreeMap<String, String> = [
            ("old.txt".to_owned(), fingerprint(&tmp.path().join("old.txt"))),
            ("touched.txt".to_owned(), "1:0.000000000".to_owned()),
            ("reverted.txt".to_owned(), "1:0.000000000".to_owned()),
        ]
        .into();
        let now = Snapshot {
            toplevel: tmp.path().to_path_buf(),
            dirty: ["old.txt", "touched.txt", "new.txt"].map(str::to_owned).into(),
            ..Snapshot::default()
        };
        let changed = changed_since(&now, None, &before).unwrap();
        assert_eq!(changed, ["new.txt", "reverted.txt", "touched.txt"]);
    }
}
