//! The project's rule for links (issue 9 item 8): baton never writes through a symbolic link
//! under the project, never replaces one with a copy of its target, and never writes outside
//! the project. Every writer of `.planning/` and `.baton/` refuses, commands with a message
//! naming the link, hooks silently (their other work still done).

use std::path::{Path, PathBuf};

use serde_json::json;

use crate::common::gsd::{self, STATE_MD};
use crate::common::*;

/// A GSD project plus a folder outside it holding a private file.
fn project_with_outside() -> (Sandbox, PathBuf) {
    let sandbox = Sandbox::new();
    gsd::write_project(&sandbox);
    let outside = sandbox.home.join("private");
    std::fs::create_dir_all(&outside).unwrap();
    (sandbox, outside)
}

/// Writes `secret` 0600 outside the project and links `.planning/STATE.md` to it.
fn link_state_to_secret(sandbox: &Sandbox, outside: &Path) -> PathBuf {
    let secret = outside.join("STATE.md");
    std::fs::write(&secret, STATE_MD.replace("Cart", "Cart API_KEY=sk-secret")).unwrap();
    os::set_mode(&secret, 0o600);
    let state = sandbox.project.join(".planning/STATE.md");
    std::fs::remove_file(&state).unwrap();
    os::symlink(&secret, &state);
    secret
}

/// Every regular file under `dir` whose contents include `needle`.
fn files_containing(dir: &Path, needle: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        let kind = entry.file_type().unwrap();
        if kind.is_dir() {
            found.extend(files_containing(&path, needle));
        } else if kind.is_file() && std::fs::read_to_string(&path).is_ok_and(|t| t.contains(needle)) {
            found.push(path);
        }
    }
    found
}

#[track_caller]
fn assert_refused(out: &Outcome, link: &str) {
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(
        out.stderr.contains("symbolic link") && out.stderr.contains(link),
        "the message must name the link: {out:?}"
    );
}

#[test]
fn pause_refuses_a_linked_state_md_and_copies_nothing_into_the_tree() {
    let (sandbox, outside) = project_with_outside();
    let secret = link_state_to_secret(&sandbox, &outside);
    let before = std::fs::read(&secret).unwrap();

    let out = sandbox.run(&["pause", "--note", "stopping"], b"");
    assert_refused(&out, ".planning/STATE.md");
    let state = sandbox.project.join(".planning/STATE.md");
    assert!(
        std::fs::symlink_metadata(&state).unwrap().file_type().is_symlink(),
        "still a link"
    );
    assert_eq!(std::fs::read(&secret).unwrap(), before, "the target is untouched");
    assert_eq!(os::mode(&secret), 0o600);
    assert!(
        files_containing(&sandbox.project, "sk-secret").is_empty(),
        "the target's text must not land in the project"
    );
    assert!(
        !sandbox.project.join(".planning/HANDOFF.json").exists(),
        "nothing was written"
    );
}

#[test]
fn a_planning_dir_linked_outside_the_project_gets_no_handoff() {
    let sandbox = Sandbox::new();
    let outside = sandbox.home.join("elsewhere");
    std::fs::create_dir_all(&outside).unwrap();
    os::symlink(&outside, sandbox.project.join(".planning"));

    let out = sandbox.run(&["pause", "--note", "x"], b"");
    assert_refused(&out, ".planning");
    assert_eq!(
        std::fs::read_dir(&outside).unwrap().count(),
        0,
        "nothing written outside the project"
    );

    // The session report, too, stays out of a linked folder.
    sandbox.session_transcript("s-1", "");
    let report = sandbox.run(&["report"], b"");
    assert_refused(&report, ".planning");
    assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0);
}

#[test]
fn the_monitors_critical_note_leaves_a_linked_state_md_alone_and_still_warns() {
    let (sandbox, outside) = project_with_outside();
    let secret = link_state_to_secret(&sandbox, &outside);
    let before = std::fs::read(&secret).unwrap();
    sandbox.bridge("s-crit", 20, 0);

    let out = sandbox.hook(&post_tool_use(&sandbox, "s-crit", None));
    assert!(out.context_text().contains("CONTEXT CRITICAL"), "{out:?}");
    let state = sandbox.project.join(".planning/STATE.md");
    assert!(std::fs::symlink_metadata(&state).unwrap().file_type().is_symlink());
    assert_eq!(std::fs::read(&secret).unwrap(), before);
    assert!(files_containing(&sandbox.project, "sk-secret").is_empty());
}

#[test]
fn resume_refuses_to_move_a_linked_handoff() {
    let (sandbox, outside) = project_with_outside();
    let target = outside.join("HANDOFF.json");
    std::fs::write(
        &target,
        json!({"version": "1.0", "timestamp": "2026-11-29T18:00:00Z", "status": "paused",
               "next_action": "Finish the DELETE route"})
        .to_string(),
    )
    .unwrap();
    os::symlink(&target, sandbox.project.join(".planning/HANDOFF.json"));

    let out = sandbox.run(&["resume"], b"");
    assert_refused(&out, ".planning/HANDOFF.json");
    assert!(out.stderr.contains("--keep"), "{out:?}");
    assert!(target.is_file(), "the target stays where it is");
    assert!(!sandbox.project.join(".planning/handoffs").exists(), "nothing archived");
    let kept = sandbox.run(&["resume", "--keep"], b"");
    assert_eq!(kept.code, Some(0), "reading is fine: {kept:?}");
}

#[test]
fn the_ledger_is_not_written_through_a_linked_baton_dir() {
    let sandbox = Sandbox::new();
    git_repo(&sandbox.project, &[("src/lib.rs", "pub fn a() {}\n")]);
    let outside = sandbox.home.join("elsewhere");
    std::fs::create_dir_all(&outside).unwrap();
    os::symlink(&outside, sandbox.project.join(".baton"));

    let mut start = fixture("subagentstart.json");
    start["cwd"] = json!(native(&sandbox.project));
    sandbox.hook(&start).assert_hook_contract();
    let mut stop = fixture("subagentstop.json");
    stop["cwd"] = json!(native(&sandbox.project));
    sandbox.hook(&stop).assert_hook_contract();
    assert_eq!(
        std::fs::read_dir(&outside).unwrap().count(),
        0,
        "nothing written outside the project"
    );
}

#[test]
fn profile_set_refuses_a_linked_config_json() {
    let (sandbox, outside) = project_with_outside();
    let target = outside.join("config.json");
    std::fs::write(&target, "{\"model_profile\": \"balanced\"}\n").unwrap();
    let config = sandbox.project.join(".planning/config.json");
    std::fs::remove_file(&config).unwrap();
    os::symlink(&target, &config);

    let out = sandbox.run(&["profile", "set", "budget"], b"");
    assert_refused(&out, ".planning/config.json");
    assert_eq!(
        std::fs::read_to_string(&target).unwrap(),
        "{\"model_profile\": \"balanced\"}\n"
    );
    assert!(std::fs::symlink_metadata(&config).unwrap().file_type().is_symlink());
}

#[test]
fn the_context_store_is_not_written_through_a_linked_baton_dir() {
    let sandbox = Sandbox::new();
    let outside = sandbox.home.join("elsewhere");
    std::fs::create_dir_all(&outside).unwrap();
    os::symlink(&outside, sandbox.project.join(".baton"));
    let out = sandbox.run(&["ctx", "init"], b"");
    assert_refused(&out, ".baton");
    assert_eq!(
        std::fs::read_dir(&outside).unwrap().count(),
        0,
        "nothing written outside the project"
    );
}
