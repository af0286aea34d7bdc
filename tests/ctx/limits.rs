//! What the store refuses at write time, because it could not read it back or could not keep
//! it cheap (issue 21 items 4 and 9): a document nested deeper than 100 levels (JSON readers
//! stop at 128), a path longer than any readable document, a document past the 16 MiB cap.
//! Each refusal says what to do and writes nothing. Damaged documents kept aside are bounded.
//! Before, a 128-key path was "Version 2" and every later read called the document damaged,
//! kept another full copy of it and rebuilt it, until a snapshot made every command fail.

use std::fs;
use std::path::PathBuf;

use serde_json::{Value, json};

use super::{ctx, ctx_in, document, example_store, get, journal_dir, log, ok};
use crate::common::{Outcome, Sandbox};

/// Every file of the store with its contents: a refused write must leave them as they were.
fn files(sandbox: &Sandbox) -> Vec<(PathBuf, Vec<u8>)> {
    let mut all: Vec<(PathBuf, Vec<u8>)> = fs::read_dir(journal_dir(sandbox))
        .unwrap()
        .chain(fs::read_dir(sandbox.project.join(".baton")).unwrap())
        .flatten()
        .filter(|e| e.file_type().unwrap().is_file())
        .map(|e| (e.path(), fs::read(e.path()).unwrap()))
        .collect();
    all.sort();
    all
}

/// The run was refused with `code`, saying `what`, and nothing changed.
#[track_caller]
fn refused(sandbox: &Sandbox, before: &[(PathBuf, Vec<u8>)], out: &Outcome, code: i32, what: &str) {
    assert_eq!(out.code, Some(code), "{out:?}");
    assert!(out.stderr.contains(what), "expected {what:?} in: {}", out.stderr);
    assert_eq!(files(sandbox), before, "a refused write left the files as they were");
}

/// `[[[…]]]`, `levels` deep.
fn nested(levels: usize) -> String {
    format!("{}{}", "[".repeat(levels), "]".repeat(levels))
}

fn dotted(keys: usize) -> String {
    vec!["k"; keys].join(".")
}

#[test]
fn what_would_nest_too_deep_to_read_back_is_refused_and_nothing_is_written() {
    let sandbox = Sandbox::new();
    example_store(&sandbox);
    let before = files(&sandbox);
    let out = ctx(&sandbox, &["set", &dotted(128), "1"]);
    refused(
        &sandbox,
        &before,
        &out,
        2,
        "has 128 keys: no document baton reads nests that deep",
    );
    let out = ctx(&sandbox, &["set", &dotted(101), "1"]);
    refused(
        &sandbox,
        &before,
        &out,
        1,
        "would nest 101 levels deep there, more than the 100 the store keeps",
    );
    // Path depth and value depth add up.
    let out = ctx(&sandbox, &["set", &dotted(60), &nested(41)]);
    refused(&sandbox, &before, &out, 1, "would nest 101 levels deep");
    for keys in [20_000, 200_000] {
        let line = format!("{}\n", json!({"set": dotted(keys), "value": 1}));
        let out = ctx_in(&sandbox, &["batch", "--stdin"], line.as_bytes());
        refused(&sandbox, &before, &out, 2, &format!("has {keys} keys"));
    }
    let deep = sandbox.write(
        "deep.json",
        &format!("{{\"project_name\": \"p\", \"agents\": {{}}, \"x\": {}}}", nested(110)),
    );
    let fresh = Sandbox::new();
    let out = ctx(&fresh, &["init", "--from", deep.to_str().unwrap()]);
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(out.stderr.contains("would nest 111 levels deep"), "{}", out.stderr);
    assert!(!fresh.project.join(".baton/context.json").exists());

    // Right at the limit it is written, and reads back: now, after a snapshot, after a repair.
    ok(&sandbox, &["set", &dotted(60), &nested(40)]);
    ok(&sandbox, &["set", "current_step", "4"]);
    ok(&sandbox, &["compact", "--keep", "1"]);
    ok(&sandbox, &["set", "current_step", "5"]);
    fs::write(sandbox.project.join(".baton/context.json"), "garbage").unwrap();
    let out = ctx(&sandbox, &["get", "current_step"]);
    assert_eq!((out.code, out.stdout.trim()), (Some(0), "5"), "{out:?}");
    assert!(
        out.stderr.contains("rebuilt version 4 from the journal"),
        "{}",
        out.stderr
    );
    ok(&sandbox, &["validate"]);
    assert_eq!(
        ok(&sandbox, &["get", &format!("{}.0.0", dotted(60))])
            .trim()
            .replace(char::is_whitespace, ""),
        nested(38)
    );
}

/// Issue 21 item 11: JSON deeper than a JSON reader takes is an error, not a string.
#[test]
fn a_value_too_deep_for_json_is_an_error_not_a_string() {
    let sandbox = Sandbox::new();
    example_store(&sandbox);
    let before = files(&sandbox);
    let out = ctx(&sandbox, &["set", "global_context.deep", &nested(200)]);
    refused(
        &sandbox,
        &before,
        &out,
        2,
        "VALUE is JSON nested deeper than the 127 levels",
    );
    // A plain string that is not JSON is still a string.
    ok(&sandbox, &["set", "global_context.title", "[WIP] the brief"]);
    assert_eq!(get(&sandbox, &["global_context.title"]), json!("[WIP] the brief"));
}

#[test]
fn damaged_documents_kept_aside_are_bounded() {
    let sandbox = Sandbox::new();
    example_store(&sandbox);
    let expected = document(&sandbox);
    for round in 0..6 {
        fs::write(sandbox.project.join(".baton/context.json"), format!("damaged {round}")).unwrap();
        let out = ctx(&sandbox, &["show"]);
        assert_eq!(out.code, Some(0), "{out:?}");
        assert!(out.stderr.contains("the damaged file is kept as"), "{}", out.stderr);
    }
    let mut kept: Vec<String> = fs::read_dir(sandbox.project.join(".baton"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("context.json.damaged-"))
        .collect();
    kept.sort();
    assert_eq!(kept.len(), 3, "the newest three are kept: {kept:?}");
    let newest = fs::read_to_string(sandbox.project.join(".baton").join(kept.last().unwrap())).unwrap();
    assert_eq!(newest, "damaged 5");
    assert_eq!(document(&sandbox), expected);
}

const MIB: usize = 1024 * 1024;

/// A note of `bytes` bytes.
fn note(sandbox: &Sandbox, name: &str, bytes: usize) -> PathBuf {
    sandbox.write(name, &"n".repeat(bytes))
}

#[test]
fn the_store_refuses_to_grow_past_its_size_cap() {
    let sandbox = Sandbox::new();
    example_store(&sandbox);
    let twelve = note(&sandbox, "twelve.txt", 12 * MIB);
    ok(
        &sandbox,
        &["set", "global_context.a", "--file", twelve.to_str().unwrap()],
    );
    let before = files(&sandbox);
    let versions = log(&sandbox).len();
    let five = note(&sandbox, "five.txt", 5 * MIB);
    let out = ctx(&sandbox, &["set", "global_context.b", "--file", five.to_str().unwrap()]);
    refused(
        &sandbox,
        &before,
        &out,
        1,
        "past the context store's 16 MiB cap, so nothing was written",
    );
    assert!(
        out.stderr.contains("--file PATH") && out.stderr.contains("baton ctx delete PATH"),
        "{}",
        out.stderr
    );
    let lines = format!("{}\n", json!({"set": "global_context.b", "value": "n".repeat(5 * MIB)}));
    let out = ctx_in(&sandbox, &["batch", "--stdin"], lines.as_bytes());
    refused(&sandbox, &before, &out, 1, "16 MiB cap");
    assert_eq!(log(&sandbox).len(), versions);
    // Below the cap it goes on; what shrinks it always does.
    ok(&sandbox, &["set", "global_context.small", "1"]);
    ok(&sandbox, &["delete", "global_context.a"]);
    ok(&sandbox, &["set", "global_context.b", "--file", five.to_str().unwrap()]);
    ok(&sandbox, &["validate"]);
}

/// A store an older baton let grow past the cap still reads, and can be trimmed.
#[test]
fn a_store_already_past_the_cap_reads_and_can_be_trimmed() {
    let sandbox = Sandbox::new();
    let big: Value = json!({"project_name": "p", "context_version": 1, "agents": {"pm": {"status": "pending"}},
                            "global_context": {"a": "n".repeat(17 * MIB)}});
    // Planted as an older version would have written it (pretty JSON); without a journal it
    // is adopted as it is.
    fs::create_dir_all(sandbox.project.join(".baton")).unwrap();
    let text = format!("{}\n", serde_json::to_string_pretty(&big).unwrap());
    fs::write(sandbox.project.join(".baton/context.json"), text).unwrap();
    let out = ctx(&sandbox, &["get", "agents.pm.status"]);
    assert_eq!((out.code, out.stdout.trim()), (Some(0), "\"pending\""), "{out:?}");
    ok(&sandbox, &["delete", "global_context.a"]);
    ok(&sandbox, &["validate"]);
}
