//! `baton doctor`: the wiring checks, another baton on the settings' path, bridge files
//! of recent sessions and hook failures recorded in transcripts.

use serde_json::Value;

use super::{baton_copy, ok, run_binary, write_settings};
use crate::common::*;

#[test]
fn doctor_checks_the_wiring_and_says_what_to_fix() {
    let sandbox = Sandbox::new();
    let out = sandbox.run(&["doctor"], b"");
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(
        out.stdout.contains("FIX  no baton statusLine") && out.stdout.contains("run `baton install`"),
        "{}",
        out.stdout
    );

    let bin_dir = std::fs::canonicalize(baton_bin())
        .unwrap()
        .parent()
        .unwrap()
        .to_path_buf();
    let wired = Sandbox::new().env("PATH", &format!("{}:/usr/bin:/bin", bin_dir.display()));
    ok(wired.run(&["install"], b""));
    let out = wired.run(&["doctor"], b"");
    assert_eq!(out.code, Some(0), "{}", out.stdout);
    let name = crate::common::binary::file_name();
    for line in [
        "ok   `baton` on PATH".to_owned(),
        "ok   statusLine runs baton".to_owned(),
        "ok   SubagentStop hook runs baton".to_owned(),
        "ok   PostCompact hook runs baton".to_owned(),
        format!("{name} statusline` prints the status line and writes the bridge file"),
        format!("{name} hook` warns the agent at 15% context left (a PostToolUse probe)"),
        "All good.".to_owned(),
    ] {
        assert!(out.stdout.contains(&line), "{line:?} missing:\n{}", out.stdout);
    }
}

#[test]
fn doctor_fails_when_the_settings_run_another_baton_and_says_install_repoints() {
    let sandbox = Sandbox::new();
    let bin_dir = std::fs::canonicalize(baton_bin())
        .unwrap()
        .parent()
        .unwrap()
        .to_path_buf();
    let path = format!("{}:/usr/bin:/bin", bin_dir.display());
    let old = baton_copy(&sandbox, "old");
    ok(run_binary(&sandbox, &old, &["install"], Some(&path)));
    let out = run_binary(&sandbox, std::path::Path::new(baton_bin()), &["doctor"], Some(&path));
    assert_eq!(out.code, Some(1), "{}", out.stdout);
    assert!(
        out.stdout
            .contains(&format!("FIX  `{} statusline` runs {}", wired(&old), wired(&old)))
            && out.stdout.contains("not this baton")
            && out.stdout.contains("install`: it re-points"),
        "{}",
        out.stdout
    );
    ok(run_binary(
        &sandbox,
        std::path::Path::new(baton_bin()),
        &["install"],
        Some(&path),
    ));
    let out = run_binary(&sandbox, std::path::Path::new(baton_bin()), &["doctor"], Some(&path));
    assert_eq!(out.code, Some(0), "{}", out.stdout);
    let left: Vec<_> = std::fs::read_dir(&sandbox.tmp).unwrap().collect();
    assert!(left.is_empty(), "the doctor's scratch dir is gone: {left:?}");
}

#[test]
fn doctor_matches_bridge_files_to_sessions_and_reads_hook_failures_from_attachments() {
    let bin_dir = std::fs::canonicalize(baton_bin())
        .unwrap()
        .parent()
        .unwrap()
        .to_path_buf();
    let sandbox = Sandbox::new().env("PATH", &format!("{}:/usr/bin:/bin", bin_dir.display()));
    ok(sandbox.run(&["install"], b""));
    // A decoy: a message that mentions baton and a failed hook in its text, not a hook run.
    let decoy = json_line(serde_json::json!({"type": "user", "message": {"role": "user",
        "content": "why did baton hook fail? \"hook_non_blocking_error\" \"exitCode\":1"}}));
    sandbox.session_transcript("sess-a", &decoy);
    sandbox.bridge("sess-b", 60, 0);
    let out = sandbox.run(&["doctor"], b"");
    assert_eq!(out.code, Some(1), "{}", out.stdout);
    assert!(
        out.stdout.contains("FIX  session sess-a was active") && out.stdout.contains("claude-ctx-sess-a.json"),
        "another session's bridge file does not count:\n{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("ok   no failed baton hook runs"),
        "a message is not a hook run:\n{}",
        out.stdout
    );

    sandbox.bridge("sess-a", 60, 0);
    let out = sandbox.run(&["doctor"], b"");
    assert_eq!(out.code, Some(0), "{}", out.stdout);

    let failed = json_line(serde_json::json!({"type": "attachment", "attachment": {
        "type": "hook_non_blocking_error", "hookName": "PostToolUse:Bash", "hookEvent": "PostToolUse",
        "stderr": "boom", "exitCode": 1, "command": "/gone/baton hook"}}));
    let foreign = json_line(serde_json::json!({"type": "attachment", "attachment": {
        "type": "hook_non_blocking_error", "hookEvent": "PostToolUse", "stderr": "x", "exitCode": 1,
        "command": "node baton-notes.js"}}));
    sandbox.session_transcript("sess-a", &format!("{decoy}{foreign}{failed}"));
    let out = sandbox.run(&["doctor"], b"");
    assert_eq!(out.code, Some(1), "{}", out.stdout);
    assert!(
        out.stdout
            .contains("FIX  1 failed baton hook run in recent transcripts")
            && out.stdout.contains("`/gone/baton hook` said \"boom\"")
            && !out.stdout.contains("run `baton doctor` after"),
        "{}",
        out.stdout
    );
}

fn json_line(v: Value) -> String {
    format!("{v}\n")
}

/// The five events, each wired to `command`, and the statusLine to `statusline`.
fn wiring(statusline: &str, command: &str) -> Value {
    let hook = serde_json::json!([{"hooks": [{"type": "command", "command": command}]}]);
    let mut v = serde_json::json!({"statusLine": {"type": "command", "command": statusline}, "hooks": {}});
    for event in [
        "PostToolUse",
        "SessionStart",
        "PreCompact",
        "PostCompact",
        "SubagentStart",
        "SubagentStop",
    ] {
        v["hooks"][event] = hook.clone();
    }
    v
}

#[test]
fn the_plugin_form_in_settings_fails_even_when_claude_plugin_root_is_set() {
    // Claude Code refuses ${CLAUDE_PLUGIN_ROOT} in settings.json hooks ("the hook is not
    // associated with a plugin"), whatever the doctor's own environment says.
    let bin_dir = std::fs::canonicalize(baton_bin())
        .unwrap()
        .parent()
        .unwrap()
        .to_path_buf();
    let sandbox = Sandbox::new()
        .env("PATH", &format!("{}:/usr/bin:/bin", bin_dir.display()))
        .env("CLAUDE_PLUGIN_ROOT", env!("CARGO_MANIFEST_DIR"));
    let v = wiring(
        "\"${CLAUDE_PLUGIN_ROOT}/bin/baton\" statusline",
        "${CLAUDE_PLUGIN_ROOT}/bin/baton hook",
    );
    write_settings(&sandbox, &v.to_string());
    let out = sandbox.run(&["doctor"], b"");
    assert_eq!(out.code, Some(1), "{}", out.stdout);
    assert!(
        out.stdout
            .contains("sets CLAUDE_PLUGIN_ROOT only for a plugin's own hooks")
            && out.stdout.contains("take the entry out of that file and run"),
        "{}",
        out.stdout
    );
    assert!(!out.stdout.contains("is the plugin form"), "{}", out.stdout);
}

#[test]
fn an_installed_plugin_is_probed_and_a_binary_that_does_nothing_fails() {
    let bin_dir = std::fs::canonicalize(baton_bin())
        .unwrap()
        .parent()
        .unwrap()
        .to_path_buf();
    let sandbox = Sandbox::new().env("PATH", &format!("{}:/usr/bin:/bin", bin_dir.display()));
    ok(sandbox.run(&["install", "--no-statusline"], b""));
    let mut settings = sandbox.read_json(&sandbox.home.join(".claude/settings.json"));
    settings.as_object_mut().unwrap().remove("hooks");
    write_settings(&sandbox, &settings.to_string());
    let root = sandbox.home.join(".claude/plugins/cache/local/baton/0.1.0");
    std::fs::create_dir_all(root.join("hooks")).unwrap();
    std::fs::create_dir_all(root.join("bin")).unwrap();
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(repo.join("plugin/hooks/hooks.json"), root.join("hooks/hooks.json")).unwrap();
    let list = serde_json::json!({"version": 2, "plugins": {"baton@local": [{"scope": "user", "installPath": root}]}});
    std::fs::write(
        sandbox.home.join(".claude/plugins/installed_plugins.json"),
        list.to_string(),
    )
    .unwrap();
    let shim = root.join("bin/baton");
    let write_shim = |body: &str| {
        std::fs::write(&shim, format!("#!/bin/sh\n{body}\n")).unwrap();
        crate::common::os::make_executable(&shim);
    };

    write_shim(&format!("exec '{}' \"$@\"", baton_bin()));
    let out = sandbox.run(&["doctor"], b"");
    assert!(
        out.stdout.contains("ok   PostToolUse hook runs baton")
            && out
                .stdout
                .contains("ok   `\"${CLAUDE_PLUGIN_ROOT}/bin/baton\" hook` (plugin baton@local) warns the agent"),
        "{}",
        out.stdout
    );

    // A plugin whose binary was never built: the shim exits 0 and prints nothing.
    write_shim("exit 0");
    let out = sandbox.run(&["doctor"], b"");
    assert_eq!(out.code, Some(1), "{}", out.stdout);
    assert!(
        out.stdout
            .contains("(plugin baton@local) gave the agent no context warning")
            && out.stdout.contains("`npx baton-cc install`")
            && out.stdout.contains(&format!("bin/baton in {}", root.display())),
        "{}",
        out.stdout
    );
}

#[test]
fn wiring_that_runs_the_wrong_mode_fails_the_probe() {
    let bin_dir = std::fs::canonicalize(baton_bin())
        .unwrap()
        .parent()
        .unwrap()
        .to_path_buf();
    let sandbox = Sandbox::new().env("PATH", &format!("{}:/usr/bin:/bin", bin_dir.display()));
    let binary = std::fs::canonicalize(baton_bin()).unwrap();
    let v = wiring(
        &format!("{} hook", binary.display()),
        &format!("{} statusline", binary.display()),
    );
    write_settings(&sandbox, &v.to_string());
    let out = sandbox.run(&["doctor"], b"");
    assert_eq!(out.code, Some(1), "{}", out.stdout);
    assert!(
        out.stdout.contains(&format!(
            "FIX  `{} hook` printed 0 lines instead of one status line",
            binary.display()
        )),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains(&format!(
            "FIX  `{} statusline` answered a PostToolUse",
            binary.display()
        )),
        "{}",
        out.stdout
    );
    let left: Vec<_> = std::fs::read_dir(&sandbox.tmp).unwrap().collect();
    assert!(left.is_empty(), "the probes leave nothing in the temp dir: {left:?}");
}
