//! A full disk (issue 21 item 6), on a 4 MiB tmpfs: a write is either applied and
//! acknowledged (the journal line is durable; the document, which has no room, is rebuilt
//! from the journal by every reader until there is), or neither (no room for the line: the
//! append is undone). Reads work while the disk is full. Before, a write whose line was
//! durable exited 1 although the change was there (so a retried `list.-` append landed
//! twice), and `get`, `show` and `validate` all failed on the full disk.
//!
//! Mounting needs root: elsewhere the test says why it did not run and passes; under CI,
//! which runs as root, a failed mount fails it.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::json;

use super::{ctx, ctx_in, document, get, log, ok};
use crate::common::Sandbox;

/// A tmpfs mounted for the test, unmounted when dropped.
struct SmallDisk {
    dir: tempfile::TempDir,
}

impl SmallDisk {
    /// A 4 MiB tmpfs, or why there is none (not root, no `mount`, no permission).
    fn mount() -> Result<Self, String> {
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } != 0 {
            return Err("mounting a tmpfs needs root".into());
        }
        let dir = tempfile::tempdir().unwrap();
        let out = Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=4m,mode=0755", "tmpfs"])
            .arg(dir.path())
            .output()
            .map_err(|e| format!("cannot run mount: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "mount -t tmpfs failed: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        Ok(Self { dir })
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(self.dir.path()).status();
    }
}

/// Fills the disk `file` is on to the last byte; returns the file.
fn fill(file: &Path) -> fs::File {
    let mut filler = fs::OpenOptions::new().create(true).append(true).open(file).unwrap();
    for chunk in [1024 * 1024, 4096, 1] {
        let bytes = vec![0u8; chunk];
        while filler.write_all(&bytes).is_ok() {}
    }
    filler
}

/// Frees `bytes` of the filler.
fn free(filler: &fs::File, bytes: u64) {
    let len = filler.metadata().unwrap().len();
    filler.set_len(len.saturating_sub(bytes)).unwrap();
}

#[test]
fn a_write_on_a_full_disk_is_applied_and_acknowledged_or_neither_and_reads_work() {
    let disk = match SmallDisk::mount() {
        Ok(disk) => disk,
        Err(why) if std::env::var_os("CI").is_none() => {
            eprintln!("skipped: the full-disk test needs a tmpfs of its own ({why})");
            return;
        }
        Err(why) => panic!("CI runs as root and must run the full-disk test: {why}"),
    };
    let mut sandbox = Sandbox::new();
    sandbox.project = disk.path().join("proj");
    fs::create_dir_all(&sandbox.project).unwrap();
    ok(&sandbox, &["init"]);
    ok(&sandbox, &["set", "list", "[]"]);
    // A 300 KB document: replacing it needs room that a journal line does not.
    let blob = sandbox.write("blob.txt", &"b".repeat(300_000));
    ok(
        &sandbox,
        &["set", "global_context.blob", "--file", blob.to_str().unwrap()],
    );
    fs::remove_file(&blob).unwrap();
    let filler_path: PathBuf = disk.path().join("filler");
    let filler = fill(&filler_path);
    let before = document(&sandbox);
    let versions = log(&sandbox).len();

    // No room for the line: refused, nothing applied.
    // On stdin: a Windows command line holds at most 32,767 characters.
    let big = format!("\"{}\"", "x".repeat(64 * 1024));
    let out = ctx_in(&sandbox, &["set", "list.-", "--stdin"], big.as_bytes());
    assert_eq!(out.code, Some(1), "{out:?}");
    // ENOSPC, or Windows's ERROR_DISK_FULL.
    assert!(
        ["No space left on device", "Disk full", "not enough space"]
            .iter()
            .any(|m| out.stderr.contains(m)),
        "{}",
        out.stderr
    );
    // Reads work on the full disk.
    assert_eq!(document(&sandbox), before, "not applied");
    assert_eq!(log(&sandbox).len(), versions);
    ok(&sandbox, &["validate"]);
    ok(&sandbox, &["show"]);

    // Room for the line, none for the document: applied and acknowledged.
    free(&filler, 16 * 1024);
    let out = ctx(&sandbox, &["set", "list.-", "\"item\""]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert_eq!(out.stdout, format!("Version {}: set list.-\n", versions + 1));
    assert!(
        out.stderr.contains("is saved in the journal, but")
            && out.stderr.contains("commands rebuild it from the journal"),
        "{}",
        out.stderr
    );
    // Still full: every read rebuilds it from the journal and says so.
    fill(&filler_path);
    for args in [&["get", "list"][..], &["show", "--json"], &["validate"], &["log"]] {
        let out = ctx(&sandbox, args);
        assert_eq!(out.code, Some(0), "{args:?} on a full disk: {out:?}");
    }
    let out = ctx(&sandbox, &["get", "list"]);
    let list: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(list, json!(["item"]), "{out:?}");
    let at = (versions + 1).to_string();
    assert_eq!(ctx(&sandbox, &["show", "--at", &at, "--json"]).code, Some(0));

    // With room again, the document is written back and the store is whole.
    drop(filler);
    fs::remove_file(&filler_path).unwrap();
    let out = ctx(&sandbox, &["validate"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(out.stderr.contains("rebuilt version"), "{}", out.stderr);
    assert_eq!(get(&sandbox, &["list"]), json!(["item"]));
    ok(&sandbox, &["validate"]);
    assert!(sandbox.project.join(".baton/context.json").is_file());
}
