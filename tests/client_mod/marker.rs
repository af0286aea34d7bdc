//! One warning, never two: while the mod speaks for a session (its marker names a running
//! client), baton's PostToolUse monitor is silent for it, main agent and subagents; when the
//! mod ends the session, is off in baton's config, or its client is gone, the hook speaks.

use serde_json::json;

use super::{SESSION, ask};
use crate::common::*;

/// baton's private directory in the sandbox's temp dir (`baton-<uid>`).
fn marker_path(sandbox: &Sandbox) -> std::path::PathBuf {
    let private = std::fs::read_dir(&sandbox.tmp)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("baton-")))
        .expect("baton's private directory");
    private.join(format!("session-{SESSION}-mod.json"))
}

/// The hook's warning at a PostToolUse of the main agent at 30% remaining (headless transcript).
fn hook_warns(sandbox: &Sandbox) -> bool {
    let transcript = sandbox.transcript("t", "claude-sonnet-4-5", 140_000);
    sandbox
        .hook(&post_tool_use(sandbox, SESSION, Some(&transcript)))
        .context()
        .is_some()
}

#[test]
fn the_hook_is_silent_while_the_mod_speaks_and_speaks_again_when_it_ends() {
    let sandbox = Sandbox::new();
    let started = ask(&sandbox, json!({"event": "start"}));
    assert_eq!(started, json!({"enabled": true, "rows": true, "band": true}));
    let marker = sandbox.read_json(&marker_path(&sandbox));
    assert_eq!(
        marker["pid"],
        std::process::id(),
        "the client is baton's parent: here, the test"
    );

    assert!(!hook_warns(&sandbox), "the mod warns for this session");
    let transcript = sandbox.transcript("t", "claude-sonnet-4-5", 140_000);
    let mut sub = post_tool_use(&sandbox, SESSION, Some(&transcript));
    sub["agent_id"] = json!("ab81ffb4535095a29");
    sandbox.subagent_transcript(
        SESSION,
        "ab81ffb4535095a29",
        &transcript_lines("claude-sonnet-4-5", 150_000),
    );
    assert_eq!(sandbox.hook(&sub).context(), None, "and for its subagents");
    let other = post_tool_use(&sandbox, "another-session", Some(&transcript));
    assert!(
        sandbox.hook(&other).context().is_some(),
        "another session is the hook's"
    );

    assert_eq!(ask(&sandbox, json!({"event": "end"})), json!({}));
    assert!(!marker_path(&sandbox).exists());
    assert!(hook_warns(&sandbox), "the session is the hook's again");
}

/// After the mod took the session and its marker was made to hold `marker`: whether the hook
/// warns, and whether the marker is still there.
fn with_marker(marker: &str) -> (bool, bool) {
    let sandbox = Sandbox::new();
    ask(&sandbox, json!({"event": "start"}));
    std::fs::write(marker_path(&sandbox), marker).unwrap();
    (hook_warns(&sandbox), marker_path(&sandbox).exists())
}

#[test]
fn a_marker_whose_client_is_gone_silences_nothing_and_is_removed() {
    // A client that crashed: its process id names no process any more.
    let mut gone = std::process::Command::new("true").spawn().unwrap();
    let pid = gone.id();
    gone.wait().unwrap();
    let dead = json!({"pid": pid, "generator": "baton"}).to_string();
    assert_eq!(
        with_marker(&dead),
        (true, false),
        "the hook speaks, the stale marker goes"
    );
    for junk in ["", "{\"pid\": 0}", "{\"pid\": 1}", "not json"] {
        assert!(with_marker(junk).0, "{junk:?} names no client");
    }
}

#[test]
fn the_mod_still_speaks_alone_when_the_private_directorys_usual_name_is_taken() {
    let sandbox = Sandbox::new();
    let names = os::private_dir_names();
    // Something else at `baton-<uid>`: baton keeps its files at the next name.
    std::fs::write(sandbox.tmp.join(&names[0]), "planted").unwrap();
    ask(&sandbox, json!({"event": "start"}));
    let marker = sandbox.tmp.join(&names[1]).join(format!("session-{SESSION}-mod.json"));
    assert!(marker.exists(), "the marker is in {}", names[1]);
    assert!(
        !hook_warns(&sandbox),
        "the hook finds the marker where it is and stays quiet"
    );
    ask(&sandbox, json!({"event": "end"}));
    assert!(hook_warns(&sandbox));
}

#[test]
fn a_marker_planted_through_a_link_is_not_believed() {
    let sandbox = Sandbox::new();
    ask(&sandbox, json!({"event": "start"}));
    let path = marker_path(&sandbox);
    let elsewhere = sandbox.home.join("planted.json");
    std::fs::write(
        &elsewhere,
        json!({"pid": std::process::id(), "generator": "baton"}).to_string(),
    )
    .unwrap();
    std::fs::remove_file(&path).unwrap();
    os::symlink(&elsewhere, &path);
    assert!(hook_warns(&sandbox));
    assert!(elsewhere.exists(), "the link's target is left alone");
}

#[test]
fn switched_off_in_batons_config_the_hooks_keep_the_session() {
    let sandbox = Sandbox::new();
    sandbox.write(".baton/config.json", r#"{"mod": {"enabled": false}}"#);
    assert_eq!(ask(&sandbox, json!({"event": "start"})), json!({"enabled": false}));
    assert!(hook_warns(&sandbox));

    // Switched off while the mod speaks: the next tool call gives the session back.
    let sandbox = Sandbox::new();
    ask(&sandbox, json!({"event": "start"}));
    assert!(!hook_warns(&sandbox));
    sandbox.write(".baton/config.json", r#"{"mod": {"enabled": false}}"#);
    assert_eq!(ask(&sandbox, super::tool_call(&[140_000])), json!({}));
    assert!(hook_warns(&sandbox));
}

#[test]
fn the_subagent_start_hook_leaves_the_handoff_to_the_mod() {
    let sandbox = Sandbox::new();
    crate::ctx::example_store(&sandbox);
    let mut start = fixture("subagentstart.json");
    start["cwd"] = json!(sandbox.project);
    start["session_id"] = json!(SESSION);
    start["agent_type"] = json!("pm");
    let given = sandbox.hook(&start);
    given.assert_hook_contract();
    assert!(given.stdout.contains("your inputs as agent"), "{given:?}");

    ask(&sandbox, json!({"event": "start"}));
    let quiet = sandbox.hook(&start);
    quiet.assert_hook_contract();
    assert_eq!(quiet.stdout.trim(), "", "the mod gave them with the task");
    assert_eq!(
        crate::ctx::get(&sandbox, &["agents.pm.status"]),
        json!("in_progress"),
        "the hook still records the start"
    );
}
