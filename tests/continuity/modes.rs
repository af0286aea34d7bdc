//! Permissions survive baton's edits (issue 9 item 9): STATE.md, HANDOFF.json and the other
//! planning files keep their mode, and their owner where the process may keep it, through
//! `pause`, `resume` and the monitor's CRITICAL note.

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;

use super::{ok, project};
use crate::common::*;

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

fn set_mode(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// Gives `path` to another owner when the tests run as root; `None` otherwise.
fn give_away(path: &Path) -> Option<(u32, u32)> {
    std::os::unix::fs::chown(path, Some(4321), Some(4321)).ok()?;
    Some((4321, 4321))
}

fn owner(path: &Path) -> (u32, u32) {
    let meta = std::fs::metadata(path).unwrap();
    (meta.uid(), meta.gid())
}

#[test]
fn pause_and_resume_keep_the_mode_and_owner_of_state_md_and_the_handoff() {
    let sandbox = project();
    let state = sandbox.project.join(".planning/STATE.md");
    set_mode(&state, 0o600);
    let owned = give_away(&state);

    ok(&sandbox.run(&["pause", "--blocker", "Staging is down"], b""));
    assert_eq!(mode(&state), 0o600, "pause widened STATE.md");
    if let Some(expected) = owned {
        assert_eq!(owner(&state), expected, "pause changed STATE.md's owner");
    }
    let handoff = sandbox.project.join(".planning/HANDOFF.json");
    set_mode(&handoff, 0o640);
    ok(&sandbox.run(&["pause", "--note", "again"], b""));
    assert_eq!(mode(&handoff), 0o640, "the new handoff keeps the old one's mode");
    assert_eq!(mode(&state), 0o600);

    ok(&sandbox.run(&["resume"], b""));
    assert_eq!(mode(&state), 0o600, "resume widened STATE.md");
    if let Some(expected) = owned {
        assert_eq!(owner(&state), expected, "resume changed STATE.md's owner");
    }
    assert!(std::fs::read_to_string(&state).unwrap().contains("Resume file: None"));
}

#[test]
fn the_monitors_critical_note_keeps_the_mode_of_state_md() {
    let sandbox = project();
    let state = sandbox.project.join(".planning/STATE.md");
    set_mode(&state, 0o600);
    sandbox.bridge("s-crit", 20, 0);
    let out = sandbox.hook(&post_tool_use(&sandbox, "s-crit", None));
    assert!(out.context_text().contains("CONTEXT CRITICAL"), "{out:?}");
    assert!(std::fs::read_to_string(&state).unwrap().contains("context exhaustion"));
    assert_eq!(mode(&state), 0o600);
}
