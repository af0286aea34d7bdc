//! The plugin form (`.claude-plugin/`, `hooks/hooks.json`, the `bin/baton` shim) and
//! `install.sh`.

use serde_json::Value;

use super::settings_path;
use crate::common::*;

#[test]
fn the_plugin_form_wires_the_same_events() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let plugin: Value =
        serde_json::from_str(&std::fs::read_to_string(root.join(".claude-plugin/plugin.json")).unwrap()).unwrap();
    assert_eq!(plugin["name"], "baton");
    let hooks: Value = serde_json::from_str(&std::fs::read_to_string(root.join("hooks/hooks.json")).unwrap()).unwrap();
    let events: Vec<&String> = hooks["hooks"].as_object().unwrap().keys().collect();
    assert_eq!(
        events,
        [
            "PostToolUse",
            "SessionStart",
            "PreCompact",
            "SubagentStart",
            "SubagentStop"
        ]
    );
    for groups in hooks["hooks"].as_object().unwrap().values() {
        assert_eq!(groups[0]["hooks"][0]["command"], "${CLAUDE_PLUGIN_ROOT}/bin/baton hook");
    }
    // The shim finds no binary in an empty plugin root: hooks stay silent and succeed.
    let empty = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(root.join("bin/baton"))
        .arg("hook")
        .env("CLAUDE_PLUGIN_ROOT", empty.path())
        .env("HOME", empty.path())
        .env("PATH", "/usr/bin:/bin")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success() && out.stdout.is_empty() && out.stderr.is_empty());
}

#[test]
fn install_sh_dry_run_and_help_install_nothing() {
    let repo = env!("CARGO_MANIFEST_DIR");
    for (flag, says) in [("--dry-run", "Would add to"), ("--help", "Usage: baton install")] {
        let sandbox = Sandbox::new();
        let prefix = sandbox.home.join(".local");
        let out = std::process::Command::new(format!("{repo}/install.sh"))
            .arg(flag)
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOME", &sandbox.home)
            .env("TMPDIR", &sandbox.tmp)
            .env("BATON_PREFIX", &prefix)
            .env("BATON_BINARY", baton_bin())
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{flag}: {stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(stdout.contains(says), "{flag}: {stdout}");
        assert!(
            !prefix.join("bin/baton").exists(),
            "{flag} copied the binary into place"
        );
        assert!(!settings_path(&sandbox).exists(), "{flag} wired the settings");
    }
}

#[test]
fn the_plugin_shim_finds_the_release_build_the_prefix_and_path() {
    let shim = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("bin/baton");
    let shim_dir = shim.parent().unwrap().to_str().unwrap().to_owned();
    let dir = tempfile::tempdir().unwrap();
    let fake = |path: std::path::PathBuf, name: &str| {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, format!("#!/bin/sh\necho {name} \"$@\"\n")).unwrap();
        os::make_executable(&path);
    };
    let run = |root: &std::path::Path, path: &str, arg: &str| {
        std::process::Command::new(&shim)
            .arg(arg)
            .env_clear()
            .env("CLAUDE_PLUGIN_ROOT", root)
            .env("HOME", dir.path().join("home"))
            .env("PATH", path)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap()
    };
    let system = format!("{shim_dir}:/usr/bin:/bin");

    // scripts/build-release.sh --path: target/<host triple>/release/baton.
    let triple_root = dir.path().join("triple");
    fake(
        triple_root.join("target/x86_64-unknown-linux-gnu/release/baton"),
        "triple",
    );
    let out = run(&triple_root, &system, "hook");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "triple hook\n");

    // Not built in the plugin: a baton elsewhere on PATH (never the shim itself).
    let empty = dir.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let elsewhere = dir.path().join("elsewhere");
    fake(elsewhere.join("baton"), "path");
    let out = run(
        &empty,
        &format!("{shim_dir}:{}:/usr/bin:/bin", elsewhere.display()),
        "pause",
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "path pause\n");

    // Nothing anywhere: hooks and the statusline stay silent and succeed; others say so.
    let out = run(&empty, &system, "statusline");
    assert!(
        out.status.success() && out.stdout.is_empty() && out.stderr.is_empty(),
        "{out:?}"
    );
    let out = run(&empty, &system, "pause");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not built yet"));
}
