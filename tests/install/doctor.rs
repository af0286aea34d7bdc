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

    let wired = Sandbox::new().env("PATH", &path_with_baton());
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
    let path = path_with_baton();
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
    let sandbox = Sandbox::new().env("PATH", &path_with_baton());
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

/// The directory of the binary under test.
fn bin_dir() -> std::path::PathBuf {
    std::fs::canonicalize(baton_bin())
        .unwrap()
        .parent()
        .unwrap()
        .to_path_buf()
}

/// A PATH holding the binary under test first.
fn path_with_baton() -> String {
    format!("{}:/usr/bin:/bin", bin_dir().display())
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
    let sandbox = Sandbox::new()
        .env("PATH", &path_with_baton())
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
    let sandbox = Sandbox::new().env("PATH", &path_with_baton());
    ok(sandbox.run(&["install", "--no-statusline"], b""));
    let mut settings = sandbox.read_json(&sandbox.home.join(".claude/settings.json"));
    settings.as_object_mut().unwrap().remove("hooks");
    write_settings(&sandbox, &settings.to_string());
    let root = install_plugin(&sandbox, &format!("exec '{}' \"$@\"", baton_bin()));
    let shim = root.join("bin/baton");
    let write_shim = |body: &str| {
        std::fs::write(&shim, format!("#!/bin/sh\n{body}\n")).unwrap();
        crate::common::os::make_executable(&shim);
    };

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
    let sandbox = Sandbox::new().env("PATH", &path_with_baton());
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

/// A sandbox with PATH holding the binary's directory, and baton installed for the user.
fn installed_on_path() -> Sandbox {
    let sandbox = Sandbox::new().env("PATH", &path_with_baton());
    ok(sandbox.run(&["install"], b""));
    sandbox
}

fn fixture(version: &str, name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(format!("claude-code-{version}"))
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn a_headless_session_needs_no_bridge_file_and_an_interactive_one_does() {
    let sandbox = installed_on_path();
    // `claude -p` transcripts from the real clients (entrypoint "sdk-cli"), just written.
    sandbox.session_transcript("headless-332", &fixture("2.1.332", "transcript-main.jsonl"));
    sandbox.session_transcript("headless-197", &fixture("2.1.197", "transcript-headless-3-tools.jsonl"));
    // 2.1.332 ends a session with its tool list as one attachment line, longer than the part
    // of the transcript the doctor reads.
    let tools = json_line(serde_json::json!({"type": "attachment", "attachment": {"type": "tools",
        "content": "t".repeat(300 * 1024)}, "userType": "external", "entrypoint": "sdk-cli"}));
    let last = format!("{}{tools}", fixture("2.1.332", "transcript-main.jsonl"));
    sandbox.session_transcript("headless-long", &last);
    let out = sandbox.run(&["doctor"], b"");
    assert_eq!(out.code, Some(0), "{}", out.stdout);
    assert!(
        !out.stdout.contains("FIX")
            && out
                .stdout
                .contains("3 headless sessions (`claude -p`, which runs no statusline)"),
        "{}",
        out.stdout
    );

    // The interactive client (entrypoint "cli") runs the statusline: no bridge file is a fault.
    sandbox.session_transcript("interactive", &fixture("2.1.332", "transcript-compacted-manual.jsonl"));
    let out = sandbox.run(&["doctor"], b"");
    assert_eq!(out.code, Some(1), "{}", out.stdout);
    assert!(
        out.stdout.contains("FIX  session interactive was active")
            && out.stdout.contains("claude-ctx-interactive.json")
            && !out.stdout.contains("session headless-"),
        "{}",
        out.stdout
    );
}

/// Installs the baton plugin (`baton@local`) for the user in the sandbox's Claude Code, its
/// `bin/baton` shim running `body`; returns the plugin's directory.
fn install_plugin(sandbox: &Sandbox, body: &str) -> std::path::PathBuf {
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
    std::fs::write(&shim, format!("#!/bin/sh\n{body}\n")).unwrap();
    crate::common::os::make_executable(&shim);
    root
}

#[test]
fn baton_wired_by_the_settings_and_the_enabled_plugin_is_the_one_thing_to_fix() {
    let sandbox = installed_on_path();
    install_plugin(&sandbox, &format!("exec '{}' \"$@\"", baton_bin()));
    let mut settings = sandbox.read_json(&sandbox.home.join(".claude/settings.json"));
    settings["enabledPlugins"] = serde_json::json!({"baton@local": true});
    write_settings(&sandbox, &settings.to_string());
    let out = sandbox.run(&["doctor"], b"");
    assert_eq!(out.code, Some(1), "{}", out.stdout);
    let fixes: Vec<&str> = out.stdout.lines().filter(|l| l.starts_with("FIX")).collect();
    assert_eq!(fixes.len(), 1, "one thing to fix:\n{}", out.stdout);
    assert!(
        fixes[0].contains("FIX  baton is wired twice:")
            && fixes[0].contains("settings.json runs baton for PostToolUse")
            && fixes[0].contains("the enabled plugin baton@local"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("`baton uninstall` takes baton's entries out of that file")
            && out.stdout.contains("`claude plugin disable baton@local`"),
        "{}",
        out.stdout
    );
    // Both probes warned: the plugin's is not debounced by the settings' one.
    assert!(
        out.stdout
            .contains("ok   `\"${CLAUDE_PLUGIN_ROOT}/bin/baton\" hook` (plugin baton@local) warns the agent")
            && !out.stdout.contains("gave the agent no context warning")
            && !out.stdout.contains("npx baton-cc install"),
        "{}",
        out.stdout
    );

    // The plugin off (as `claude plugin disable` leaves it): nothing to fix.
    settings["enabledPlugins"] = serde_json::json!({"baton@local": false});
    write_settings(&sandbox, &settings.to_string());
    let out = sandbox.run(&["doctor"], b"");
    assert_eq!(out.code, Some(0), "{}", out.stdout);
}

#[test]
fn baton_off_path_is_a_note_with_the_line_that_puts_it_there() {
    let sandbox = Sandbox::new().env("PATH", "/usr/bin:/bin").env("SHELL", "/bin/zsh");
    ok(sandbox.run(&["install"], b""));
    let out = sandbox.run(&["doctor"], b"");
    assert_eq!(out.code, Some(0), "{}\n{}", out.stdout, out.stderr);
    let bin_dir = bin_dir();
    assert!(
        out.stdout
            .contains("is not on your PATH, so a terminal does not find `baton`")
            && out.stdout.contains("All good.")
            && !out.stdout.contains("FIX"),
        "{}",
        out.stdout
    );
    if !crate::common::binary::is_windows() {
        let note = format!("note {} is not on your PATH", bin_dir.display());
        assert!(out.stdout.contains(&note), "{note:?} missing:\n{}", out.stdout);
        let line = format!(
            "to add it, run: echo 'export PATH=\"{}:$PATH\"' >> ~/.zshrc   (then open a new terminal)",
            bin_dir.display()
        );
        assert!(out.stdout.contains(&line), "{line:?} missing:\n{}", out.stdout);
    }
}
