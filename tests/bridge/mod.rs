//! `baton bridge` and the bridge's hooks, through the built binary: fixture projects per
//! domain with their expected extractions, hostile files, and the handoff from one subagent
//! run to the next through the ledger.

mod ahead;
mod code;
mod data;
mod django;
mod fixtures;
mod hostile;
mod injection;
mod runs;
mod walk;

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::{Outcome, Sandbox};

/// `tests/fixtures/bridge/<name>`.
pub(crate) fn fixture_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/bridge")
        .join(name)
}

/// Copies the fixture's `project/` into the sandbox's project directory.
pub(crate) fn copy_project(sandbox: &Sandbox, name: &str) {
    copy_dir(&fixture_dir(name).join("project"), &sandbox.project);
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// Runs `baton bridge ARGS --json` in the sandbox's project; the handoff it printed.
#[track_caller]
fn bridge_json(sandbox: &Sandbox, args: &[&str]) -> Value {
    let mut all = vec!["bridge"];
    all.extend_from_slice(args);
    all.push("--json");
    let out = sandbox.run(&all, b"");
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(out.stderr.is_empty(), "{out:?}");
    serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", out.stdout))
}

/// Runs `baton ARGS` in the sandbox's project.
fn baton(sandbox: &Sandbox, args: &[&str]) -> Outcome {
    sandbox.run(args, b"")
}

/// Asserts that `actual` holds `expected`: objects may have more keys, arrays must have the
/// same length, everything else must be equal. `at` names the place for the message.
#[track_caller]
fn assert_holds(expected: &Value, actual: &Value, at: &str) {
    match (expected, actual) {
        (Value::Object(want), Value::Object(have)) => {
            for (key, value) in want {
                let found = have
                    .get(key)
                    .unwrap_or_else(|| panic!("{at}.{key} is missing in {actual:#}"));
                assert_holds(value, found, &format!("{at}.{key}"));
            }
        }
        (Value::Array(want), Value::Array(have)) => {
            assert_eq!(want.len(), have.len(), "{at}: expected {want:#?}\ngot {have:#?}");
            for (i, (w, h)) in want.iter().zip(have).enumerate() {
                assert_holds(w, h, &format!("{at}[{i}]"));
            }
        }
        _ => assert_eq!(expected, actual, "at {at}"),
    }
}
