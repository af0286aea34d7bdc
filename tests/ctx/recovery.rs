//! Recovery: the states a crash or a person can leave the files in. A torn last journal line
//! is dropped and reported; a document a write behind the journal is brought forward; a
//! deleted or damaged document is rebuilt from the journal (from a snapshot too); a document
//! edited by hand is kept and recorded. Each repair is said on stderr, and validate passes.

use std::fs;
use std::io::Write;

use serde_json::{Value, json};

use super::{ctx, ctx_in, document, example_store, get, head_segment, log, ok};
use crate::common::Sandbox;

fn context_json(sandbox: &Sandbox) -> std::path::PathBuf {
    sandbox.project.join(".baton/context.json")
}

fn append(path: &std::path::Path, bytes: &[u8]) {
    fs::OpenOptions::new()
        .append(true)
        .open(path)
        .unwrap()
        .write_all(bytes)
        .unwrap();
}

#[test]
fn a_torn_last_journal_line_is_dropped_and_reported() {
    let sandbox = Sandbox::new();
    example_store(&sandbox);
    ok(&sandbox, &["set", "current_step", "4"]);
    let saved = fs::read(context_json(&sandbox)).unwrap();
    let segment = head_segment(&sandbox);
    let whole = fs::metadata(&segment).unwrap().len();

    // A write cut short in its journal append: part of a line, no newline, document untouched.
    ok(&sandbox, &["set", "current_step", "5"]);
    let fifth = fs::read(&segment).unwrap();
    fs::write(&segment, &fifth[..(whole as usize + 40)]).unwrap();
    fs::write(context_json(&sandbox), &saved).unwrap();

    let out = ctx(&sandbox, &["set", "agents.pm.status", "completed"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(
        out.stderr
            .contains("dropped a torn last line (40 bytes of a write that did not finish"),
        "{}",
        out.stderr
    );
    assert_eq!(out.stdout, "Version 3: set agents.pm.status\n");
    assert_eq!(get(&sandbox, &["current_step"]), json!(4));
    let versions: Vec<u64> = log(&sandbox).iter().map(|e| e["v"].as_u64().unwrap()).collect();
    assert_eq!(versions, [1, 2, 3]);
    ok(&sandbox, &["validate"]);

    // Garbage after the last newline (zeros from a crash) is torn too; validate drops it.
    append(&head_segment(&sandbox), &[0; 64]);
    let out = ctx(&sandbox, &["validate"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(
        out.stderr.contains("dropped a torn last line (64 bytes"),
        "{}",
        out.stderr
    );
    // So is a last line that ends but does not parse; a plain read repairs it.
    append(&head_segment(&sandbox), b"\0\0\0\0\n");
    let out = ctx(&sandbox, &["get", "current_step"]);
    assert_eq!((out.code, out.stdout.trim()), (Some(0), "4"), "{out:?}");
    assert!(
        out.stderr.contains("dropped a torn last line (5 bytes"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_document_a_write_behind_the_journal_is_brought_forward() {
    let sandbox = Sandbox::new();
    example_store(&sandbox);
    ok(&sandbox, &["set", "current_step", "4"]);
    let behind = fs::read(context_json(&sandbox)).unwrap();
    ok(&sandbox, &["set", "current_step", "5"]);
    let expected = document(&sandbox);
    // The journal has version 3 (made durable first); the document replace never happened.
    fs::write(context_json(&sandbox), &behind).unwrap();
    let out = ctx(&sandbox, &["get", "current_step"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert_eq!(out.stdout.trim(), "5");
    assert!(
        out.stderr.contains("was at version 2 while the journal holds 3"),
        "{}",
        out.stderr
    );
    assert_eq!(document(&sandbox), expected);
    assert_eq!(log(&sandbox).len(), 3, "bringing it forward writes no version");

    // The same when the write also took a snapshot (a large change closes the segment).
    let behind = fs::read(context_json(&sandbox)).unwrap();
    let large = sandbox.write("large.txt", &"z".repeat(300 * 1024));
    ok(
        &sandbox,
        &["set", "global_context.large", "--file", large.to_str().unwrap()],
    );
    assert!(
        super::journal_dir(&sandbox)
            .join("snapshot-000000000004.json")
            .is_file()
    );
    let expected = document(&sandbox);
    fs::write(context_json(&sandbox), &behind).unwrap();
    let out = ctx(&sandbox, &["validate"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(
        out.stderr.contains("was at version 3 while the journal holds 4"),
        "{}",
        out.stderr
    );
    assert_eq!(document(&sandbox), expected);
}

#[test]
fn a_deleted_or_damaged_document_is_rebuilt_from_the_journal() {
    let sandbox = Sandbox::new();
    example_store(&sandbox);
    // Enough versions for snapshots, so the rebuild starts from one.
    let lines: String = (0..1500)
        .map(|i| {
            format!(
                "{}\n",
                json!({"set": format!("global_context.n{}", i % 40), "value": i})
            )
        })
        .collect();
    assert_eq!(ctx_in(&sandbox, &["batch", "--stdin"], lines.as_bytes()).code, Some(0));
    ok(&sandbox, &["set", "agents.pm.status", "completed"]);
    let expected = document(&sandbox);

    fs::remove_file(context_json(&sandbox)).unwrap();
    let out = ctx(&sandbox, &["get", "agents.pm.status"]);
    assert_eq!((out.code, out.stdout.trim()), (Some(0), "\"completed\""), "{out:?}");
    assert!(
        out.stderr
            .contains(".baton/context.json was missing: rebuilt version 1502 from the journal"),
        "{}",
        out.stderr
    );
    assert_eq!(document(&sandbox), expected);

    fs::write(context_json(&sandbox), "{\"session_id\": \"uuid-h").unwrap();
    let out = ctx(&sandbox, &["show"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(
        out.stderr
            .contains(".baton/context.json was damaged (EOF while parsing"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("the damaged file is kept as"), "{}", out.stderr);
    assert_eq!(document(&sandbox), expected);
    let kept: Vec<String> = fs::read_dir(sandbox.project.join(".baton"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("context.json.damaged-"))
        .collect();
    assert_eq!(kept.len(), 1, "the damaged document is kept, never deleted");
    ok(&sandbox, &["validate"]);
}

#[test]
fn a_document_edited_by_hand_is_kept_and_recorded() {
    let sandbox = Sandbox::new();
    example_store(&sandbox);
    let mut doc = document(&sandbox);
    doc["agents"]["pm"]["status"] = json!("completed");
    doc["global_context"]["notes"] = json!("edited in an editor");
    fs::write(context_json(&sandbox), serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    let out = ctx(&sandbox, &["set", "current_step", "4", "--as", "pm"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(
        out.stderr
            .contains("was changed outside baton since version 1: recorded the change as version 2"),
        "{}",
        out.stderr
    );
    let entries = log(&sandbox);
    assert_eq!(entries[1]["by"], "outside baton");
    assert_eq!(entries[1]["cmd"], "edit outside baton");
    assert_eq!(entries[2]["by"], "pm");
    let now = document(&sandbox);
    assert_eq!(now["agents"]["pm"]["status"], "completed");
    assert_eq!(now["global_context"]["notes"], "edited in an editor");
    assert_eq!(now["current_step"], 4);
    let at1: Value = serde_json::from_str(&ok(&sandbox, &["show", "--at", "1", "--json"])).unwrap();
    assert_eq!(at1["agents"]["pm"]["status"], "in_progress");
    ok(&sandbox, &["validate"]);
}

#[test]
fn validate_reports_a_damaged_journal_and_a_document_off_the_proposal() {
    let sandbox = Sandbox::new();
    example_store(&sandbox);
    ok(&sandbox, &["set", "agents.pm.status", "done"]);
    ok(
        &sandbox,
        &["set", "agents.analyst.outputs.project_brief.quality_score", "high"],
    );
    let out = ctx(&sandbox, &["validate", "--json"]);
    assert_eq!(out.code, Some(1), "{out:?}");
    let report: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(
        report["problems"],
        json!([
            "agents.analyst.outputs.project_brief.quality_score must be a number",
            "agents.pm.status is \"done\"; use one of pending, in_progress, completed, failed"
        ])
    );
    assert!(
        out.stderr.contains("the context store has 2 problems"),
        "{}",
        out.stderr
    );

    // A line in the middle of the journal damaged by hand: named with its line number.
    let segment = head_segment(&sandbox);
    let text = fs::read_to_string(&segment).unwrap();
    let damaged = text.replacen("\"v\":2,", "\"v\":2,,", 1);
    fs::write(&segment, damaged).unwrap();
    let out = ctx(&sandbox, &["validate"]);
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(out.stdout.contains("line 2 is damaged"), "{}", out.stdout);
}
