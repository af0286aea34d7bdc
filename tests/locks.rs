//! Lock files: a hook never stalls on a lock another process holds (it waits a few tens of
//! milliseconds, then does without), and nothing another user can plant at a predictable name
//! in the shared temp dir stops a command for good; when nothing can be done the message
//! says what is in the way.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::json;

use crate::common::gsd;
use crate::common::*;

/// Every `*.lock` file below `dir`.
fn lock_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() && !path.is_symlink() {
            found.extend(lock_files(&path));
        } else if path.extension().is_some_and(|e| e == "lock") {
            found.push(path);
        }
    }
    found
}

fn project() -> Sandbox {
    let sandbox = Sandbox::new();
    gsd::write_project(&sandbox);
    sandbox
}

#[test]
fn hooks_do_not_wait_for_a_project_lock_another_process_holds() {
    let sandbox = project();
    // Create the planning and agents locks, then hold every lock baton has made, as a long
    // `baton pause` or a stuck process would.
    let paused = sandbox.run(&["pause", "--note", "first"], b"");
    assert_eq!(paused.code, Some(0), "{paused:?}");
    let mut start = fixture("subagentstart.json");
    start["cwd"] = json!(native(&sandbox.project));
    sandbox.hook(&start).assert_hook_contract();
    let locks = lock_files(&sandbox.tmp);
    assert!(locks.len() >= 2, "planning and agents locks: {locks:?}");
    let held: Vec<File> = locks
        .iter()
        .map(|path| {
            let file = File::options().read(true).write(true).open(path).unwrap();
            file.lock().unwrap();
            file
        })
        .collect();

    // The first CRITICAL of a session notes the stop in STATE.md under the planning lock.
    sandbox.bridge("held-session", 20, 0);
    let critical = sandbox.hook(&post_tool_use(&sandbox, "held-session", None));
    assert!(
        critical.context_text().starts_with("CONTEXT CRITICAL"),
        "the warning still goes out: {critical:?}"
    );
    let mut pre_compact = latest_fixture("precompact-auto.json");
    pre_compact["cwd"] = json!(native(&sandbox.project));
    let breadcrumb = sandbox.hook(&pre_compact);
    let mut stop = fixture("subagentstop.json");
    stop["cwd"] = json!(native(&sandbox.project));
    let ledger = sandbox.hook(&stop);
    for (what, out) in [
        ("monitor", &critical),
        ("PreCompact", &breadcrumb),
        ("SubagentStop", &ledger),
    ] {
        out.assert_hook_contract();
        // A hook that waited out the lock would take 10 s (the old wait, and Claude Code's
        // timeout for baton's hooks); this one gave up after a few tens of milliseconds.
        assert!(
            out.elapsed < Duration::from_secs(3),
            "{what} stalled: {:?}",
            out.elapsed
        );
    }
    drop(held);
}

/// Replaces whatever baton created directly in the shared temp dir (other than the bridge
/// and debounce files GSD shares) with `plant`: an attacker's link or file at the name.
fn plant_over_batons_names(sandbox: &Sandbox, plant: impl Fn(&Path)) -> usize {
    let mut planted = 0;
    for entry in std::fs::read_dir(&sandbox.tmp).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with("claude-ctx-") && name.ends_with(".json") {
            continue;
        }
        let path = entry.path();
        if path.is_dir() && !path.is_symlink() {
            std::fs::remove_dir_all(&path).unwrap();
        } else {
            std::fs::remove_file(&path).unwrap();
        }
        plant(&path);
        planted += 1;
    }
    planted
}

#[test]
fn links_and_files_planted_at_the_lock_names_do_not_stop_pause() {
    for kind in ["link", "file"] {
        let sandbox = project();
        let first = sandbox.run(&["pause", "--note", "first"], b"");
        assert_eq!(first.code, Some(0), "{first:?}");
        let attacker = sandbox.home.join("attacker");
        std::fs::create_dir_all(&attacker).unwrap();
        let planted = plant_over_batons_names(&sandbox, |path| match kind {
            "link" => os::symlink(&attacker, path),
            _ => std::fs::write(path, "planted").unwrap(),
        });
        assert!(planted >= 1, "baton keeps its locks under the temp dir");

        let second = sandbox.run(&["pause", "--note", "second"], b"");
        assert_eq!(second.code, Some(0), "{kind}: {second:?}");
        let handoff = std::fs::read_to_string(sandbox.project.join(".planning/HANDOFF.json")).unwrap();
        assert!(handoff.contains("second"), "{kind}: {handoff}");
        assert_eq!(
            std::fs::read_dir(&attacker).unwrap().count(),
            0,
            "{kind}: nothing was made through the planted link"
        );
    }
}

#[test]
fn when_every_private_name_is_taken_the_message_says_what_is_there() {
    let sandbox = project();
    os::take_every_private_dir_name(&sandbox.tmp);
    let first = &os::private_dir_names()[0];
    let out = sandbox.run(&["pause", "--note", "x"], b"");
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(
        out.stderr.contains(&format!("{first} is a file, not a directory")) && out.stderr.contains("TMPDIR"),
        "{}",
        out.stderr
    );
    assert!(!out.stderr.contains("another baton process"), "{}", out.stderr);
    // Hooks stay silent and still warn.
    sandbox.bridge("s", 30, 0);
    let hook = sandbox.hook(&post_tool_use(&sandbox, "s", None));
    hook.assert_hook_contract();
}
