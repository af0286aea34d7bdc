//! Temp files of writes a kill interrupted (`.baton-*.tmp`, created beside the file they
//! replace): the next write to that directory removes the user's own old ones, and the
//! temp-dir sweep removes those in the temp dir. A fresh one may be a write in progress, and
//! stays.

use std::path::Path;
use std::time::{Duration, SystemTime};

use crate::common::gsd;
use crate::common::*;

/// Creates `dir/name` with a modification time `age` ago.
fn leftover(dir: &Path, name: &str, age: Duration) -> std::path::PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join(name);
    let file = std::fs::File::create(&path).unwrap();
    file.set_modified(SystemTime::now() - age).unwrap();
    path
}

const HOUR: Duration = Duration::from_secs(60 * 60);

#[test]
fn pause_removes_old_temp_files_of_killed_writes_from_planning() {
    let sandbox = Sandbox::new();
    gsd::write_project(&sandbox);
    let planning = sandbox.project.join(".planning");
    let killed = leftover(&planning, ".baton-Xk29aQ.tmp", HOUR);
    let in_progress = leftover(&planning, ".baton-b7Tr1c.tmp", Duration::ZERO);
    let users = leftover(&planning, "notes.tmp", HOUR);

    let out = sandbox.run(&["pause", "--note", "stopping here"], b"");
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(!killed.exists(), "an hour-old temp file of a killed write is removed");
    assert!(in_progress.exists(), "a fresh one may be another process's write");
    assert!(users.exists(), "only baton's own temp files are touched");
}

#[test]
fn the_temp_dir_sweep_removes_old_temp_files_of_killed_writes() {
    let sandbox = Sandbox::new();
    let killed = leftover(&sandbox.tmp, ".baton-Q1w2e3.tmp", HOUR);
    let in_progress = leftover(&sandbox.tmp, ".baton-R4t5y6.tmp", Duration::ZERO);
    let others = leftover(&sandbox.tmp, ".other-tool.tmp", HOUR);

    // No sweep has run in this sandbox yet: the statusline runs it.
    let mut status = fixture("statusline-after-reply.json");
    status["cwd"] = serde_json::json!(native(&sandbox.project));
    sandbox.statusline(&status).assert_one_line();
    assert!(!killed.exists(), "the sweep removed the killed write's temp file");
    assert!(in_progress.exists() && others.exists());
}
