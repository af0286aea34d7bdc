//! The plugin form (`plugin/`: `.claude-plugin/`, `hooks/hooks.json`, the `bin/baton` shim)
//! and `install.sh`.

use serde_json::Value;

use super::{ok, settings_path, write_settings};
use crate::common::*;

#[test]
fn the_plugin_form_wires_the_same_events() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("plugin");
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
            "PostCompact",
            "SubagentStart",
            "SubagentStop"
        ]
    );
    for groups in hooks["hooks"].as_object().unwrap().values() {
        assert_eq!(
            groups[0]["hooks"][0]["command"],
            "\"${CLAUDE_PLUGIN_ROOT}/bin/baton\" hook"
        );
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
fn the_plugin_shim_prefers_the_installed_copy_then_path_then_a_cargo_build() {
    let shim = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("plugin/bin/baton");
    let shim_dir = shim.parent().unwrap().to_str().unwrap().to_owned();
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let fake = |path: std::path::PathBuf, name: &str| {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, format!("#!/bin/sh\necho {name} \"$@\"\n")).unwrap();
        os::make_executable(&path);
    };
    let run = |root: &std::path::Path, path: &str, env: &[(&str, &std::path::Path)], arg: &str| {
        let mut command = std::process::Command::new(&shim);
        command
            .arg(arg)
            .env_clear()
            .env("CLAUDE_PLUGIN_ROOT", root)
            .env("HOME", &home)
            .env("PATH", path)
            .stdin(std::process::Stdio::null());
        for (key, value) in env {
            command.env(key, value);
        }
        let out = command.output().unwrap();
        (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
            out.status.code(),
        )
    };
    let system = format!("{shim_dir}:/usr/bin:/bin");

    // The plugin folder of a checkout (loaded with --plugin-dir, or from the clone's
    // marketplace): the checkout's cargo build (scripts/build-release.sh's
    // target/<triple>/release/baton here).
    let checkout = dir.path().join("checkout");
    let root = checkout.join("plugin");
    std::fs::create_dir_all(&root).unwrap();
    fake(checkout.join("target/x86_64-unknown-linux-gnu/release/baton"), "cargo");
    assert_eq!(run(&root, &system, &[], "hook").0, "cargo hook\n");
    // Another baton on PATH comes first (never the shim itself, which is on PATH too).
    let elsewhere = dir.path().join("elsewhere");
    fake(elsewhere.join("baton"), "path");
    let with_other = format!("{shim_dir}:{}:/usr/bin:/bin", elsewhere.display());
    assert_eq!(run(&root, &with_other, &[], "pause").0, "path pause\n");
    // The copy `npx baton-cc install` put at the per-user place comes before both.
    fake(home.join(".local/bin/baton"), "copy");
    assert_eq!(run(&root, &with_other, &[], "statusline").0, "copy statusline\n");
    let prefix = dir.path().join("prefix");
    fake(prefix.join("bin/baton"), "prefixed");
    assert_eq!(
        run(&root, &with_other, &[("BATON_PREFIX", &prefix)], "hook").0,
        "prefixed hook\n"
    );
    // Git Bash on Windows: %LOCALAPPDATA%\baton\baton.exe.
    let appdata = dir.path().join("AppData/Local");
    fake(appdata.join("baton/baton.exe"), "windows");
    let nowhere = dir.path().join("nowhere");
    assert_eq!(
        run(
            &root,
            &system,
            &[("LOCALAPPDATA", &appdata), ("BATON_PREFIX", &nowhere)],
            "hook"
        )
        .0,
        "windows hook\n"
    );

    // Nothing anywhere: hooks and the statusline stay silent and succeed; others say, in one
    // line, how to get baton.
    let empty = dir.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let bare = [("BATON_PREFIX", nowhere.as_path())];
    for quiet in ["hook", "statusline"] {
        assert_eq!(
            run(&empty, &system, &bare, quiet),
            (String::new(), String::new(), Some(0)),
            "{quiet}"
        );
    }
    let (stdout, stderr, code) = run(&empty, &system, &bare, "pause");
    assert_eq!((stdout.as_str(), code), ("", Some(1)));
    assert_eq!(
        stderr,
        "baton: not installed; run `npx baton-cc install` in a terminal (or ./install.sh in a baton checkout)\n"
    );
}

/// Runs install.sh with `env` (and nothing else from the test's environment).
fn install_sh(env: &[(&str, &std::ffi::OsStr)]) -> std::process::Output {
    let mut command = std::process::Command::new(format!("{}/install.sh", env!("CARGO_MANIFEST_DIR")));
    command.env_clear().stdin(std::process::Stdio::null());
    for (key, value) in env {
        command.env(key, value);
    }
    command.output().unwrap()
}

#[test]
fn install_sh_prints_the_exact_line_that_puts_the_prefix_on_path() {
    for (shell, rc, line) in [
        (
            "/bin/zsh",
            Some(".zshrc"),
            "echo 'export PATH=\"$HOME/.local/bin:$PATH\"' >> ~/.zshrc",
        ),
        (
            "/bin/bash",
            Some(".bashrc"),
            "echo 'export PATH=\"$HOME/.local/bin:$PATH\"' >> ~/.bashrc",
        ),
        (
            "/bin/sh",
            Some(".profile"),
            "echo 'export PATH=\"$HOME/.local/bin:$PATH\"' >> ~/.profile",
        ),
        ("/usr/bin/fish", None, "fish_add_path $HOME/.local/bin"),
    ] {
        let sandbox = Sandbox::new();
        let out = install_sh(&[
            ("PATH", "/usr/bin:/bin".as_ref()),
            ("HOME", sandbox.home.as_os_str()),
            ("TMPDIR", sandbox.tmp.as_os_str()),
            ("SHELL", shell.as_ref()),
            ("BATON_BINARY", baton_bin().as_ref()),
        ]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{shell}: {stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(stdout.contains(&format!(": {line}   (then")), "{shell}:\n{stdout}");
        let Some(rc) = rc else { continue };
        // The line does what it says: run it, then a new shell reading the file finds baton.
        let ran = std::process::Command::new("sh")
            .args(["-c", line])
            .env("HOME", &sandbox.home)
            .status()
            .unwrap();
        assert!(ran.success());
        let found = std::process::Command::new("sh")
            .args(["-c", &format!(". ~/{rc}; command -v baton")])
            .env_clear()
            .env("HOME", &sandbox.home)
            .env("PATH", "/usr/bin:/bin")
            .output()
            .unwrap();
        assert_eq!(
            String::from_utf8_lossy(&found.stdout).trim(),
            sandbox.home.join(".local/bin/baton").to_str().unwrap(),
            "{shell}"
        );
    }
    // Already on PATH: nothing to say.
    let sandbox = Sandbox::new();
    let bin = sandbox.home.join(".local/bin");
    let out = install_sh(&[
        ("PATH", format!("{}:/usr/bin:/bin", bin.display()).as_ref()),
        ("HOME", sandbox.home.as_os_str()),
        ("TMPDIR", sandbox.tmp.as_os_str()),
        ("SHELL", "/bin/zsh".as_ref()),
        ("BATON_BINARY", baton_bin().as_ref()),
    ]);
    assert!(!String::from_utf8_lossy(&out.stdout).contains("not on your PATH"));
}

#[test]
fn install_sh_says_it_is_building_and_shows_cargos_progress() {
    // A stand-in cargo (and rustc) records how it is called and "builds" by copying baton.
    let sandbox = Sandbox::new();
    let fake_bin = sandbox.home.join("fake-bin");
    std::fs::create_dir_all(&fake_bin).unwrap();
    let log = sandbox.home.join("cargo.log");
    let target = sandbox.home.join("target");
    let script = |name: &str, body: String| {
        let path = fake_bin.join(name);
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        os::make_executable(&path);
    };
    script("rustc", "echo 'host: x86_64-unknown-linux-gnu'".to_owned());
    script(
        "cargo",
        format!(
            "echo \"$@\" >> '{log}'\necho '   Compiling baton v0.1.0' >&2\n\
             mkdir -p '{dir}' && cp '{baton}' '{dir}/baton'",
            baton = baton_bin(),
            log = log.display(),
            dir = target.join("x86_64-unknown-linux-gnu/release").display()
        ),
    );
    let out = install_sh(&[
        ("PATH", format!("{}:/usr/bin:/bin", fake_bin.display()).as_ref()),
        ("HOME", sandbox.home.as_os_str()),
        ("TMPDIR", sandbox.tmp.as_os_str()),
        ("CARGO_TARGET_DIR", target.as_os_str()),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.starts_with("Building baton (release profile") && stderr.contains("Compiling baton"),
        "the build says what it does, and cargo's progress shows:\n{stderr}"
    );
    let calls = std::fs::read_to_string(&log).unwrap();
    assert!(
        calls.contains("build --release") && !calls.contains("--quiet"),
        "{calls}"
    );
    assert!(sandbox.home.join(".local/bin/baton").is_file());
}

/// Records the baton plugin as Claude Code does when it installs it (`installed_plugins.json`),
/// for the user or for `project`.
fn plugin_installed(sandbox: &Sandbox, project: Option<&std::path::Path>) {
    let root = sandbox.home.join(".claude/plugins/cache/baton/baton/0.1.0");
    std::fs::create_dir_all(&root).unwrap();
    let entry = match project {
        None => serde_json::json!({"scope": "user", "installPath": root}),
        Some(dir) => serde_json::json!({"scope": "project", "installPath": root, "projectPath": dir}),
    };
    let list = serde_json::json!({"version": 2, "plugins": {"baton@baton": [entry]}});
    std::fs::write(
        sandbox.home.join(".claude/plugins/installed_plugins.json"),
        list.to_string(),
    )
    .unwrap();
}

#[test]
fn with_the_baton_plugin_enabled_install_wires_only_the_statusline() {
    let sandbox = Sandbox::new();
    plugin_installed(&sandbox, None);
    let enabled = "{\n  \"enabledPlugins\": {\n    \"baton@baton\": true\n  }\n}\n";
    write_settings(&sandbox, enabled);
    let out = ok(sandbox.run(&["install"], b""));
    assert!(
        out.stdout.contains("Added to") && out.stdout.contains(": statusLine\n"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("The baton plugin (baton@baton) gives the hooks and slash commands"),
        "{}",
        out.stdout
    );
    let settings = sandbox.read_json(&settings_path(&sandbox));
    assert!(
        settings["statusLine"]["command"]
            .as_str()
            .unwrap()
            .ends_with(" statusline")
    );
    assert!(settings.get("hooks").is_none(), "{settings:#}");
    assert!(!sandbox.home.join(".claude/commands/baton").exists());
    ok(sandbox.run(&["uninstall"], b""));
    assert_eq!(std::fs::read_to_string(settings_path(&sandbox)).unwrap(), enabled);

    // Disabled, it is not the wiring: install wires everything.
    let sandbox = Sandbox::new();
    plugin_installed(&sandbox, None);
    write_settings(&sandbox, r#"{"enabledPlugins": {"baton@baton": false}}"#);
    ok(sandbox.run(&["install"], b""));
    let settings = sandbox.read_json(&settings_path(&sandbox));
    assert_eq!(settings["hooks"].as_object().unwrap().len(), 6, "{settings:#}");

    // Hooks from an earlier install and the plugin: both would run; install says so.
    let sandbox = Sandbox::new();
    ok(sandbox.run(&["install", "--no-statusline"], b""));
    plugin_installed(&sandbox, None);
    let mut settings = sandbox.read_json(&settings_path(&sandbox));
    settings["enabledPlugins"] = serde_json::json!({"baton@baton": true});
    write_settings(&sandbox, &settings.to_string());
    let out = ok(sandbox.run(&["install"], b""));
    assert!(
        out.stdout.contains("also runs baton for PostToolUse, SessionStart")
            && out.stdout.contains("so those run twice"),
        "{}",
        out.stdout
    );
}

#[test]
fn a_plugin_installed_for_one_project_leaves_that_projects_hooks_to_it() {
    let sandbox = Sandbox::new();
    let project = sandbox.project.clone();
    plugin_installed(&sandbox, Some(&project));
    let claude = project.join(".claude");
    std::fs::create_dir_all(&claude).unwrap();
    std::fs::write(
        claude.join("settings.json"),
        r#"{"enabledPlugins": {"baton@baton": true}}"#,
    )
    .unwrap();
    let out = ok(sandbox.run(&["install", "--project", project.to_str().unwrap()], b""));
    assert!(out.stdout.contains("The baton plugin (baton@baton)"), "{}", out.stdout);
    let settings = sandbox.read_json(&claude.join("settings.json"));
    assert!(settings.get("hooks").is_none(), "{settings:#}");
    // The user's settings serve every other project: there the hooks are wired.
    let out = ok(sandbox.run(&["install"], b""));
    assert!(!out.stdout.contains("The baton plugin"), "{}", out.stdout);
    let user = sandbox.read_json(&settings_path(&sandbox));
    assert_eq!(user["hooks"].as_object().unwrap().len(), 6, "{user:#}");
}
