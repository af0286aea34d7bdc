//! The smaller ways in which `baton ctx` took what it should have refused or said something
//! wrong (issue 21 item 11): an empty PATH replacing the whole document, an empty agent name,
//! `log -n 0`, an empty batch, a planted version 2^64−1, and a SubagentStop payload over the
//! 16 MiB the hook reads, which left the run "running" for ever.

use std::fs;
use std::io::Write;

use serde_json::{Value, json};

use super::{ctx, ctx_in, document, example_store, get, head_segment, log, ok};
use crate::common::{Sandbox, fixture};

#[track_caller]
fn usage_error(sandbox: &Sandbox, args: &[&str], what: &str) {
    let before = document(sandbox);
    let versions = log(sandbox).len();
    let out = ctx(sandbox, args);
    assert_eq!(out.code, Some(2), "{args:?}: {out:?}");
    assert!(
        out.stderr.contains(what),
        "{args:?}: expected {what:?} in {}",
        out.stderr
    );
    assert_eq!(document(sandbox), before, "{args:?} changed the document");
    assert_eq!(log(sandbox).len(), versions, "{args:?} wrote a version");
}

#[test]
fn an_empty_path_or_name_is_refused_not_taken_for_the_whole_document() {
    let sandbox = Sandbox::new();
    example_store(&sandbox);
    usage_error(
        &sandbox,
        &["set", "", "{}"],
        "PATH is empty, which would replace the whole document",
    );
    let line = format!("{}\n", json!({"set": "", "value": {}}));
    let out = ctx_in(&sandbox, &["batch", "--stdin"], line.as_bytes());
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(out.stderr.contains("PATH is empty"), "{}", out.stderr);
    usage_error(&sandbox, &["agent", "", "--status", "completed"], "NAME is empty");
    usage_error(&sandbox, &["agent", " ", "--status", "completed"], "NAME is empty");
    usage_error(&sandbox, &["output", "", "brief"], "AGENT is empty");
    usage_error(&sandbox, &["output", "pm", ""], "ARTIFACT is empty");
    assert!(document(&sandbox)["agents"].get("").is_none());
}

#[test]
fn log_n_0_and_an_empty_batch_say_what_they_did() {
    let sandbox = Sandbox::new();
    example_store(&sandbox);
    usage_error(&sandbox, &["log", "-n", "0"], "log -n needs at least 1");
    let out = ctx_in(&sandbox, &["batch", "--stdin"], b"\n\n");
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (
            Some(0),
            "Nothing to write: the batch has no lines (the newest version is 1).\n"
        ),
        "{out:?}"
    );
    let out = ctx_in(&sandbox, &["batch", "--stdin", "--json"], b"");
    let said: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(said, json!({"first": null, "last": null, "written": 0, "version": 1}));
    let line = format!(
        "{}\n{}\n",
        json!({"set": "a", "value": 1}),
        json!({"set": "b", "value": 2})
    );
    let out = ctx_in(&sandbox, &["batch", "--stdin", "--json"], line.as_bytes());
    let said: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(said, json!({"first": 2, "last": 3, "written": 2, "version": 3}));
    assert_eq!(log(&sandbox).len(), 3);
}

#[test]
fn no_version_follows_the_largest_number() {
    let sandbox = Sandbox::new();
    example_store(&sandbox);
    // A journal line planted by hand: version 2^64 − 1, recorded as what the document is.
    let segment = head_segment(&sandbox);
    let text = fs::read_to_string(&segment).unwrap();
    let mut last: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    last["v"] = json!(u64::MAX);
    fs::write(&segment, format!("{text}{last}\n")).unwrap();
    let before = fs::read(&segment).unwrap();
    let out = ctx(&sandbox, &["set", "current_step", "4"]);
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(
        out.stderr
            .contains("the journal's newest version is 18446744073709551615, and no version number follows it"),
        "{}",
        out.stderr
    );
    assert_eq!(fs::read(&segment).unwrap(), before, "nothing written");
    assert_eq!(get(&sandbox, &["current_step"]), json!(3));
}

/// A SubagentStop payload over 16 MiB (a final message of 17 MiB) still ends the run: the
/// hook reads the members before the cut (the event, session, agent), and the ledger says
/// the final message was not read.
#[test]
fn a_subagent_stop_over_the_payload_cap_still_ends_the_run() {
    let sandbox = Sandbox::new();
    example_store(&sandbox);
    ok(&sandbox, &["agent", "pm", "--status", "pending"]);
    let mut start = fixture("subagentstart.json");
    start["cwd"] = json!(sandbox.project);
    start["agent_type"] = json!("pm");
    sandbox.hook(&start).assert_hook_contract();
    assert_eq!(get(&sandbox, &["agents.pm.status"]), json!("in_progress"));

    let mut stop = fixture("subagentstop.json");
    stop["cwd"] = json!(sandbox.project);
    stop["agent_type"] = json!("pm");
    stop["agent_id"] = start["agent_id"].clone();
    stop.as_object_mut().unwrap().remove("last_assistant_message");
    let mut bytes = serde_json::to_vec(&stop).unwrap();
    bytes.pop(); // the closing brace: the huge final message comes last, as the client sends it
    write!(
        bytes,
        ",\"last_assistant_message\":\"{}\"}}",
        "x".repeat(17 * 1024 * 1024)
    )
    .unwrap();
    let out = sandbox.run(&["hook"], &bytes);
    out.assert_hook_contract();
    assert_eq!(get(&sandbox, &["agents.pm.status"]), json!("completed"));
    let id = start["agent_id"].as_str().unwrap();
    let run = sandbox.read_json(&sandbox.project.join(format!(".baton/agents/{id}.json")));
    assert_eq!(run["status"], "finished", "{run}");
    let notes = run["notes"].to_string();
    assert!(notes.contains("its final message was not read"), "{notes}");
}
