//! Files planted where the store keeps its own (issue 21 items 8 and 10): a FIFO at a journal
//! segment's or the document's name is never waited on (before, `ctx show` and the
//! SubagentStart/Stop hooks hung on it), and a journal segment with a second name (a hard
//! link) is neither appended to nor cut back through it, as the guide's rule for links (docs/files.md) says.

use std::fs;

use serde_json::json;

use super::{ctx, example_store, get, head_segment, ok};
use crate::common::Sandbox;

/// Runs the `event` hook for agent `pm` (the FIFO tests, which are Unix's).
#[cfg(unix)]
fn hook(sandbox: &Sandbox, event: &str) {
    let mut payload = crate::common::fixture(&format!("{}.json", event.to_ascii_lowercase()));
    payload["cwd"] = json!(sandbox.project);
    payload["agent_type"] = json!("pm");
    // `run` fails the test when baton takes longer than the hang limit.
    sandbox
        .run(&["hook"], payload.to_string().as_bytes())
        .assert_hook_contract();
}

#[cfg(unix)]
#[test]
fn a_fifo_at_a_journal_segment_is_refused_not_waited_on() {
    let sandbox = Sandbox::new();
    example_store(&sandbox);
    let segment = head_segment(&sandbox);
    fs::remove_file(&segment).unwrap();
    crate::common::os::mkfifo(&segment);
    for args in [
        &["show"][..],
        &["get", "project_name"],
        &["validate"],
        &["set", "a", "1"],
    ] {
        let mut all = vec!["ctx"];
        all.extend_from_slice(args);
        let out = sandbox.run(&all, b"");
        assert_eq!(out.code, Some(1), "{args:?}: {out:?}");
        assert!(
            out.stderr.contains("journal-000000000000.jsonl: not a regular file") && out.stderr.contains("remove it"),
            "{args:?}: {}",
            out.stderr
        );
    }
    hook(&sandbox, "SubagentStart");
    hook(&sandbox, "SubagentStop");

    // A FIFO at the name of a segment the store has no snapshot for.
    let sandbox = Sandbox::new();
    example_store(&sandbox);
    crate::common::os::mkfifo(&super::journal_dir(&sandbox).join("journal-000000000009.jsonl"));
    let out = sandbox.run(&["ctx", "get", "project_name"], b"");
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(
        out.stderr.contains("journal-000000000009.jsonl: not a regular file"),
        "{}",
        out.stderr
    );
    hook(&sandbox, "SubagentStart");
}

#[cfg(unix)]
#[test]
fn a_fifo_at_the_document_is_moved_aside_and_the_document_rebuilt() {
    let sandbox = Sandbox::new();
    example_store(&sandbox);
    ok(&sandbox, &["agent", "pm", "--status", "pending"]);
    let document = sandbox.project.join(".baton/context.json");
    fs::remove_file(&document).unwrap();
    crate::common::os::mkfifo(&document);
    hook(&sandbox, "SubagentStart");
    let out = sandbox.run(&["ctx", "get", "agents.pm.status"], b"");
    assert_eq!((out.code, out.stdout.trim()), (Some(0), "\"pending\""), "{out:?}");
    assert!(out.stderr.contains("the damaged file is kept as"), "{}", out.stderr);
    assert!(fs::metadata(&document).unwrap().is_file());
    ok(&sandbox, &["validate"]);
}

#[test]
fn a_hard_linked_journal_segment_is_not_written_through_its_other_name() {
    let sandbox = Sandbox::new();
    example_store(&sandbox);
    ok(&sandbox, &["set", "current_step", "4"]);
    let segment = head_segment(&sandbox);
    let other = sandbox.home.join("elsewhere.jsonl");
    fs::hard_link(&segment, &other).unwrap();
    let before = fs::read(&other).unwrap();
    let out = ctx(&sandbox, &["set", "current_step", "5"]);
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(
        out.stderr
            .contains("has another name (a hard link), and baton does not write a file through a second name"),
        "{}",
        out.stderr
    );
    // A torn last line would be cut back: not through the link either.
    let mut torn = before.clone();
    torn.extend_from_slice(b"{\"v\":4,\"at");
    fs::write(&segment, &torn).unwrap();
    let out = ctx(&sandbox, &["set", "current_step", "5"]);
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(out.stderr.contains("another name (a hard link)"), "{}", out.stderr);
    assert_eq!(
        fs::read(&other).unwrap(),
        torn,
        "the other name sees only what the test wrote"
    );
    // Given a copy of its own, the store goes on.
    fs::remove_file(&other).unwrap();
    let out = ctx(&sandbox, &["set", "current_step", "5"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(out.stderr.contains("dropped a torn last line"), "{}", out.stderr);
    assert_eq!(get(&sandbox, &["current_step"]), json!(5));
    ok(&sandbox, &["validate"]);
}
