//! `baton ctx`, the versioned context store, through the built binary: BMAD's example
//! document and workflow step (tests/fixtures/bmad/, taken unchanged from the proposal),
//! references, step inputs, history, recovery, crashes, concurrent writers and the hooks.

mod concurrency;
mod crash;
#[cfg(target_os = "linux")]
mod full_disk;
mod history;
mod hooks;
mod limits;
mod locks;
mod planted;
mod recovery;
mod references;
mod refusals;
mod steps;

use std::io::Write;
use std::path::PathBuf;
use std::process::Stdio;

use serde_json::Value;

use crate::common::{Outcome, Sandbox};

/// A file of tests/fixtures/bmad/.
pub fn bmad(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/bmad")
        .join(name)
}

/// Runs `baton ctx ARGS` in the sandbox's project.
pub fn ctx(sandbox: &Sandbox, args: &[&str]) -> Outcome {
    ctx_in(sandbox, args, b"")
}

/// Runs `baton ctx ARGS` with `stdin`, reading its output as it comes (a log or a document
/// can be larger than a pipe holds).
pub fn ctx_in(sandbox: &Sandbox, args: &[&str], stdin: &[u8]) -> Outcome {
    let mut all = vec!["ctx"];
    all.extend_from_slice(args);
    let started = std::time::Instant::now();
    let mut child = sandbox
        .command(&all)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    Outcome {
        code: output.status.code(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        elapsed: started.elapsed(),
    }
}

/// Runs `baton ctx ARGS`, which must succeed without a word on stderr; returns stdout.
#[track_caller]
pub fn ok(sandbox: &Sandbox, args: &[&str]) -> String {
    let out = ctx(sandbox, args);
    assert_eq!(out.code, Some(0), "baton ctx {args:?}: {out:?}");
    assert!(
        out.stderr.is_empty(),
        "baton ctx {args:?} said on stderr: {}",
        out.stderr
    );
    out.stdout
}

/// `baton ctx get PATH [more]` parsed as JSON.
#[track_caller]
pub fn get(sandbox: &Sandbox, args: &[&str]) -> Value {
    let mut all = vec!["get"];
    all.extend_from_slice(args);
    let text = ok(sandbox, &all);
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("get {args:?} printed no JSON ({e}): {text}"))
}

/// The whole current document (`show --json`).
#[track_caller]
pub fn document(sandbox: &Sandbox) -> Value {
    serde_json::from_str(&ok(sandbox, &["show", "--json"])).unwrap()
}

/// A store started from the proposal's example document.
#[track_caller]
pub fn example_store(sandbox: &Sandbox) {
    let example = bmad("context-store-example.json");
    ok(sandbox, &["init", "--from", example.to_str().unwrap()]);
}

/// The journal's entries (`log --all --json`).
#[track_caller]
pub fn log(sandbox: &Sandbox) -> Vec<Value> {
    let out: Value = serde_json::from_str(&ok(sandbox, &["log", "--all", "--json"])).unwrap();
    out["entries"].as_array().unwrap().clone()
}

/// `.baton/context/` of the sandbox.
pub fn journal_dir(sandbox: &Sandbox) -> PathBuf {
    sandbox.project.join(".baton/context")
}

/// The newest journal segment file.
pub fn head_segment(sandbox: &Sandbox) -> PathBuf {
    let mut segments: Vec<PathBuf> = std::fs::read_dir(journal_dir(sandbox))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("journal-"))
        .collect();
    segments.sort();
    segments.pop().expect("a journal segment")
}
