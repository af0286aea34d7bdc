//! The kill test (issue 9, "Proof that stays"): each writer of baton's state runs under
//! `strace` and is killed with SIGKILL just before one of its file-changing system calls
//! (`strace -e inject=CALL:signal=SIGKILL:when=N`), once for every such call it makes: every
//! kill point, not a sample, since a command makes few. After each kill every watched file
//! must be its old or its new version (never missing, torn or half-replaced), the writer's
//! own invariants must hold, and the next command must work.
//!
//! Only baton's own process is traced (no `-f`): its children (git) run untouched, so a kill
//! point means the same thing in every run. Files baton's temp-file rule leaves behind
//! (`.baton-*.tmp`, issue 9 item 11) and lock files are not state and are not compared.
//!
//! A new writer joins by adding a test with its [`Writer`] in `writers.rs` or a file beside
//! it (`store.rs` holds the context store's journal).

mod install;
mod store;
mod writers;

use std::collections::BTreeMap;
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use crate::common::*;

/// System calls that change files; baton is killed just before each of them in turn.
/// Names the machine's architecture lacks are skipped (`?` in strace's syntax).
const FILE_CHANGING_CALLS: &[&str] = &[
    "write",
    "pwrite64",
    "writev",
    "pwritev",
    "pwritev2",
    "ftruncate",
    "rename",
    "renameat",
    "renameat2",
    "link",
    "linkat",
    "symlink",
    "symlinkat",
    "unlink",
    "unlinkat",
    "mkdir",
    "mkdirat",
    "rmdir",
    "fchmod",
    "fchmodat",
    "fchown",
    "fchownat",
    "fsync",
    "fdatasync",
];

/// One writer under test.
pub struct Writer {
    pub name: &'static str,
    /// A fresh sandbox holding the old files.
    pub setup: fn() -> Sandbox,
    /// The command that writes, and its stdin.
    pub args: &'static [&'static str],
    pub stdin: fn(&Sandbox) -> Vec<u8>,
    /// Folders whose files must each be old or new after a kill.
    pub watched: fn(&Sandbox) -> Vec<PathBuf>,
    /// A version between old and new that the writer passes through on purpose (it writes
    /// the file twice, say), given the file's key and contents: what makes it whole.
    pub intermediate: fn(&str, &str) -> bool,
    /// What must hold right after any kill, beyond "each file old or new".
    pub after_kill: fn(&Sandbox),
    /// The next command(s) after a kill: they must work and leave the state right.
    pub recover: fn(&Sandbox),
}

/// Files as compared: normalised path → the normalised contents (with mode) of every file
/// that path stands for (archive names differ only by their time).
type Snapshot = BTreeMap<String, Vec<String>>;

impl Writer {
    /// Runs the writer once to the end, then once killed at each kill point, checking each.
    /// `also` recoveries get a fresh kill of their own (say, undo by one command, complete by
    /// another). Returns the number of kill points.
    pub fn check(&self, also: &[fn(&Sandbox)]) -> usize {
        let sandbox = (self.setup)();
        let old = snapshot(&sandbox, &(self.watched)(&sandbox));
        let calls = count_calls(&sandbox, self);
        let new = snapshot(&sandbox, &(self.watched)(&sandbox));
        assert_ne!(old, new, "{}: the command changed nothing", self.name);
        let mut points = 0;
        for (call, count) in &calls {
            for n in 1..=*count {
                for recover in std::iter::once(&self.recover).chain(also) {
                    let sandbox = (self.setup)();
                    let status = run_traced(
                        &sandbox,
                        self,
                        &[
                            "-e",
                            &format!("trace={call}"),
                            "-e",
                            &format!("inject={call}:signal=SIGKILL:when={n}"),
                        ],
                    )
                    .status;
                    let at = format!("{}: killed before {call} #{n}", self.name);
                    assert_eq!(
                        status.signal(),
                        Some(9),
                        "{at}: the kill point was not reached ({status:?})"
                    );
                    let after = snapshot(&sandbox, &(self.watched)(&sandbox));
                    compare(&at, &old, &new, &after, self.intermediate);
                    (self.after_kill)(&sandbox);
                    recover(&sandbox);
                }
                points += 1;
            }
        }
        assert!(points > 0, "{}: no file-changing system call was seen", self.name);
        eprintln!("{}: {points} kill points {calls:?}", self.name);
        points
    }
}

/// For writers that write each file once.
pub fn none(_: &str, _: &str) -> bool {
    false
}

/// A JSON object for which `whole` holds.
pub fn json_where(text: &str, whole: impl Fn(&serde_json::Value) -> bool) -> bool {
    serde_json::from_str::<serde_json::Value>(text).is_ok_and(|v| v.is_object() && whole(&v))
}

/// The strace command line, or a failure saying how to get strace.
fn strace() -> String {
    let ok = std::process::Command::new("strace")
        .arg("-V")
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        ok,
        "the kill test needs strace: apt-get install strace (.ci/run installs it)"
    );
    "strace".to_owned()
}

/// Runs the writer to the end under strace, counting its file-changing calls by name.
fn count_calls(sandbox: &Sandbox, writer: &Writer) -> BTreeMap<String, u32> {
    let log = sandbox.tmp.join("kill-test-strace.log");
    let trace: Vec<String> = FILE_CHANGING_CALLS.iter().map(|c| format!("?{c}")).collect();
    let out = run_traced(
        sandbox,
        writer,
        &["-o", log.to_str().unwrap(), "-e", &format!("trace={}", trace.join(","))],
    );
    assert!(
        out.status.success(),
        "{}: the command failed under strace (ptrace not permitted here?): {out:?}",
        writer.name
    );
    let text = std::fs::read_to_string(&log).unwrap();
    std::fs::remove_file(&log).unwrap();
    let mut calls = BTreeMap::new();
    for line in text.lines() {
        if let Some((name, _)) = line.split_once('(')
            && FILE_CHANGING_CALLS.contains(&name)
        {
            *calls.entry(name.to_owned()).or_insert(0) += 1;
        }
    }
    calls
}

/// Runs the writer's command under strace with `options`.
fn run_traced(sandbox: &Sandbox, writer: &Writer, options: &[&str]) -> std::process::Output {
    let mut wrapper = vec![strace(), "-qq".to_owned()];
    if !options.contains(&"-o") {
        wrapper.extend(["-o".to_owned(), "/dev/null".to_owned()]);
    }
    wrapper.extend(options.iter().map(|o| (*o).to_owned()));
    let mut child = sandbox
        .wrapped_command(&wrapper, writer.args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(&(writer.stdin)(sandbox));
    drop(stdin);
    child.wait_with_output().unwrap()
}

/// Each path after the kill must hold what it held before or what a whole run leaves, or a
/// version the writer means to pass through.
#[track_caller]
fn compare(at: &str, old: &Snapshot, new: &Snapshot, after: &Snapshot, intermediate: fn(&str, &str) -> bool) {
    let mut problems = Vec::new();
    for key in old.keys().chain(new.keys()).chain(after.keys()) {
        let (o, n, a) = (old.get(key), new.get(key), after.get(key));
        let meant = a.is_some_and(|versions| {
            versions
                .iter()
                .all(|v| v.split_once(' ').is_some_and(|(_, text)| intermediate(key, text)))
        });
        if a != o && a != n && !meant {
            problems.push(format!("{key}:\n  after the kill: {a:?}\n  old: {o:?}\n  new: {n:?}"));
        }
    }
    problems.dedup();
    assert!(
        problems.is_empty(),
        "{at}: files neither old nor new:\n{}",
        problems.join("\n")
    );
}

/// Files larger than this are compared by hash (see [`walk`]).
const BIG_FILE: usize = 1 << 20;

/// The files under `roots`, keyed and normalised (see [`Snapshot`]).
fn snapshot(sandbox: &Sandbox, roots: &[PathBuf]) -> Snapshot {
    let base = sandbox.project.parent().unwrap().to_path_buf();
    let mut files = Snapshot::new();
    for root in roots {
        walk(root, &base, &mut files);
    }
    for versions in files.values_mut() {
        versions.sort();
    }
    files
}

fn walk(path: &Path, base: &Path, files: &mut Snapshot) {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return;
    };
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let ignored = (name.starts_with(".baton-") && name.ends_with(".tmp"))
        || name.ends_with(".lock")
        || name.ends_with(".stamp")
        || name == ".git";
    if ignored {
        return;
    }
    let root = base.to_string_lossy();
    let mut key = normalize(&path.strip_prefix(base).unwrap().to_string_lossy(), &root);
    // The context store's segments and snapshots are named by version, not by time: each
    // is a file of its own.
    if name.starts_with("journal-") || name.starts_with("snapshot-") {
        key = format!("{}/{name}", key.rsplit_once('/').map_or("", |(dir, _)| dir));
    }
    let value = if meta.file_type().is_symlink() {
        format!("link -> {}", std::fs::read_link(path).unwrap().display())
    } else if meta.is_dir() {
        for entry in std::fs::read_dir(path).unwrap().flatten() {
            walk(&entry.path(), base, files);
        }
        "folder".to_owned()
    } else {
        let bytes = std::fs::read(path).unwrap();
        let mode = meta.permissions().mode() & 0o777;
        // A program (baton's installed copy) is compared by its bytes' hash: it holds no
        // paths or times, and normalising megabytes at every kill point would take minutes.
        if bytes.len() > BIG_FILE {
            use std::hash::{DefaultHasher, Hash, Hasher};
            let mut hasher = DefaultHasher::new();
            bytes.hash(&mut hasher);
            format!("{mode:o} <{} bytes, hash {:016x}>", bytes.len(), hasher.finish())
        } else {
            format!("{mode:o} {}", normalize(&String::from_utf8_lossy(&bytes), &root))
        }
    };
    files.entry(key).or_default().push(value);
}

/// `text` with the sandbox's path, times (ISO 8601, compact stamps, Unix seconds and
/// milliseconds, with an archive's `-2` counter), commit ids and 16-digit hashes replaced: they differ
/// between runs, nothing else does.
fn normalize(text: &str, root: &str) -> String {
    let text = text.replace(root, "<ROOT>");
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let starts = chars[i].is_ascii_hexdigit() && (i == 0 || !chars[i - 1].is_ascii_alphanumeric());
        if starts {
            let hex = chars[i..].iter().take_while(|c| c.is_ascii_hexdigit()).count();
            let after_hex = chars.get(i + hex).is_none_or(|c| !c.is_ascii_alphanumeric());
            if hex == 40 && after_hex {
                out.push_str("<COMMIT>");
                i += hex;
                continue;
            }
            // A content hash (the install manifest's of a command file, which holds the
            // sandbox's path) with a letter in it: a run of digits is left to the time rule.
            let letter = chars[i..i + hex].iter().any(|c| c.is_ascii_alphabetic());
            if hex == 16 && after_hex && letter {
                out.push_str("<HASH>");
                i += hex;
                continue;
            }
        }
        if chars[i].is_ascii_digit() && (i == 0 || !chars[i - 1].is_ascii_alphanumeric()) {
            let run = chars[i..]
                .iter()
                .take_while(|c| c.is_ascii_digit() || matches!(c, '-' | ':' | 'T' | 'Z' | '.' | '+'))
                .count();
            let digits = chars[i..i + run].iter().filter(|c| c.is_ascii_digit()).count();
            if digits >= 8 {
                out.push_str("<TIME>");
                i += run;
                continue;
            }
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}

#[test]
fn times_paths_and_commit_ids_are_normalised_and_nothing_else() {
    assert_eq!(
        normalize("HANDOFF-20261130T181531Z-2.json at 2026-11-30T18:15:31Z", "/r"),
        "HANDOFF-<TIME>json at <TIME>"
    );
    assert_eq!(
        normalize("{\"timestamp\":1764526531,\"used\":150000}", "/r"),
        "{\"timestamp\":<TIME>,\"used\":150000}"
    );
    assert_eq!(
        normalize("/r/proj head 0123456789abcdef0123456789abcdef01234567", "/r"),
        "<ROOT>/proj head <COMMIT>"
    );
    assert_eq!(normalize("Phase 3 of 6, plan 03-02", "/r"), "Phase 3 of 6, plan 03-02");
    assert_eq!(
        normalize("\"hash\": \"a8b075f3402d3ac8\"", "/r"),
        "\"hash\": \"<HASH>\""
    );
}
