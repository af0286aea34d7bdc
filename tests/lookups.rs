//! One hook event looks its project up once (issue 33): `dispatch` builds one event context
//! and every handler takes the project and baton's config from it. Counted with
//! `strace -f -e trace=%file` on the built binary, in a subdirectory of a GSD project: each
//! upward search for the project starts by asking whether the subdirectory holds `.planning`.
//! Skipped, with the reason printed, where strace is missing.

use std::io::Write;
use std::path::Path;
use std::process::Stdio;

use serde_json::{Value, json};

use crate::common::gsd::{git_init, write_project};
use crate::common::{Sandbox, latest_fixture, native};

/// A GSD project in git with a subdirectory to run the hooks in; `None` without strace.
fn project_with_subdirectory() -> Option<(Sandbox, String)> {
    let found = std::process::Command::new("strace")
        .arg("-V")
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !found {
        println!("skipped: counting lookups needs strace (apt-get install strace; .ci/run installs it)");
        return None;
    }
    let sandbox = Sandbox::new();
    write_project(&sandbox);
    sandbox.write("src/deep/lib.rs", "pub fn a() {}\n");
    git_init(&sandbox);
    let deep = native(sandbox.project.join("src/deep"));
    Some((sandbox, deep))
}

/// The captured payload `name`, moved into `cwd`.
fn payload(name: &str, cwd: &str) -> Value {
    let mut p = latest_fixture(name);
    p["cwd"] = json!(cwd);
    p
}

/// Runs `baton hook` with `payload` under `strace -f -e trace=%file`; the traced calls.
fn traced_hook(sandbox: &Sandbox, payload: &Value) -> String {
    let log = sandbox.tmp.join("lookups-strace.log");
    let wrapper: Vec<String> = ["strace", "-qq", "-f", "-e", "trace=%file", "-o", log.to_str().unwrap()]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
    let mut child = sandbox
        .wrapped_command(&wrapper, &["hook"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(payload.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success() && out.stderr.is_empty(),
        "the hook failed under strace (ptrace not permitted here?): {out:?}"
    );
    let calls = std::fs::read_to_string(&log).unwrap();
    std::fs::remove_file(&log).unwrap();
    calls
}

/// How many traced calls name `path` itself (not a path below it).
fn calls_naming(calls: &str, path: &Path) -> usize {
    let quoted = format!("\"{}\"", path.display());
    calls.lines().filter(|line| line.contains(&quoted)).count()
}

#[test]
fn a_subagent_stop_looks_its_project_up_once() {
    let Some((sandbox, deep)) = project_with_subdirectory() else {
        return;
    };
    // A recorded start, so the stop goes through every handler: the monitor, the ledger and
    // its spot-check, the bridge's handoff and the context store.
    sandbox
        .hook(&payload("subagentstart.json", &deep))
        .assert_hook_contract();
    sandbox.write("src/deep/lib.rs", "pub fn a() {}\npub fn b() {}\n");
    let calls = traced_hook(&sandbox, &payload("subagentstop.json", &deep));
    let searches = calls_naming(&calls, &Path::new(&deep).join(".planning"));
    assert_eq!(searches, 1, "upward searches for the project:\n{calls}");
    let config_reads = calls_naming(&calls, &sandbox.project.join(".baton/config.json"));
    assert_eq!(config_reads, 1, "reads of the project's baton config:\n{calls}");
    let ledger = sandbox.project.join(".baton/agents/a53f90af8f9d0a1b5.json");
    let run: Value = serde_json::from_slice(&std::fs::read(ledger).unwrap()).unwrap();
    assert!(run["handoff"].is_object(), "the stop went through the bridge: {run}");
}

#[test]
fn a_tool_call_looks_the_project_up_once_and_only_when_asked() {
    let Some((sandbox, deep)) = project_with_subdirectory() else {
        return;
    };
    sandbox
        .hook(&payload("subagentstart.json", &deep))
        .assert_hook_contract();
    // An edit inside a recorded run: the monitor and the run's own edits both want the project.
    let mut edit = payload("posttooluse-subagent.json", &deep);
    edit["tool_name"] = json!("Write");
    edit["tool_input"] = json!({"file_path": "lib.rs", "content": "pub fn b() {}\n"});
    let calls = traced_hook(&sandbox, &edit);
    let subdirectory_planning = Path::new(&deep).join(".planning");
    assert_eq!(calls_naming(&calls, &subdirectory_planning), 1, "{calls}");
    // A call without a session to warn nor a run to record needs no project.
    let mut anonymous = payload("posttooluse.json", &deep);
    anonymous.as_object_mut().unwrap().remove("session_id");
    let calls = traced_hook(&sandbox, &anonymous);
    assert_eq!(calls_naming(&calls, &subdirectory_planning), 0, "{calls}");
}
