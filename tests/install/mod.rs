//! `baton install`, `uninstall`, `doctor`, help and completions through the built binary,
//! on settings files like the ones users really have.

use std::os::unix::fs::PermissionsExt;

use serde_json::Value;

use crate::common::*;

const GSD_SETTINGS: &str = r#"{
  "permissions": {
    "allow": ["Bash(npm test:*)"]
  },
  "hooks": {
    "SessionStart": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "node \"$HOME/.claude/hooks/gsd-check-update.js\""
          }
        ]
      }
    ],
    "PostToolUse": [
      {
        "matcher": "Bash|Edit|Write|MultiEdit|Agent|Task",
        "hooks": [
          {
            "type": "command",
            "command": "node \"$HOME/.claude/hooks/gsd-context-monitor.js\"",
            "timeout": 10
          }
        ]
      }
    ]
  },
  "statusLine": {
    "type": "command",
    "command": "node \"$HOME/.claude/hooks/gsd-statusline.js\""
  }
}
"#;

const CCSTATUSLINE_SETTINGS: &str = "{\n    \"model\": \"sonnet\",\n    \"statusLine\": {\n        \"type\": \"command\",\n        \"command\": \"npx -y ccstatusline@latest\",\n        \"padding\": 0\n    }\n}\n";

fn settings_path(sandbox: &Sandbox) -> std::path::PathBuf {
    sandbox.home.join(".claude/settings.json")
}

fn write_settings(sandbox: &Sandbox, text: &str) {
    let path = settings_path(sandbox);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn settings(sandbox: &Sandbox) -> Value {
    sandbox.read_json(&settings_path(sandbox))
}

fn ok(out: Outcome) -> Outcome {
    assert_eq!(out.code, Some(0), "{out:?}");
    out
}

/// Every hook command baton put in the settings.
fn baton_hooks(v: &Value) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for (event, groups) in v["hooks"].as_object().into_iter().flatten() {
        for hook in groups
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|g| g["hooks"].as_array())
            .flatten()
        {
            let command = hook["command"].as_str().unwrap_or("");
            if command.ends_with("baton hook") {
                found.push((event.clone(), command.to_owned()));
            }
        }
    }
    found
}

#[test]
fn install_twice_then_uninstall_gives_back_the_original_file() {
    for (name, original, flags) in [
        ("missing", None, &[][..]),
        ("empty", Some(""), &[]),
        ("gsd", Some(GSD_SETTINGS), &["--force"]),
        ("ccstatusline, 4-space indent", Some(CCSTATUSLINE_SETTINGS), &["--yes"]),
        ("compact", Some(r#"{"model":"opus","env":{"A":"1"}}"#), &[]),
    ] {
        let sandbox = Sandbox::new();
        if let Some(text) = original {
            write_settings(&sandbox, text);
        }
        let mut args = vec!["install"];
        args.extend(flags);
        ok(sandbox.run(&args, b""));
        let once = std::fs::read_to_string(settings_path(&sandbox)).unwrap();
        ok(sandbox.run(&args, b""));
        assert_eq!(
            std::fs::read_to_string(settings_path(&sandbox)).unwrap(),
            once,
            "{name}: the second install changes nothing"
        );

        let v = settings(&sandbox);
        let hooks = baton_hooks(&v);
        let mut events: Vec<&str> = hooks.iter().map(|(e, _)| e.as_str()).collect();
        events.sort();
        assert_eq!(
            events,
            [
                "PostToolUse",
                "PreCompact",
                "SessionStart",
                "SubagentStart",
                "SubagentStop"
            ],
            "{name}: one entry each"
        );
        for (_, command) in &hooks {
            assert!(
                command.starts_with('/') && command.ends_with("/baton hook"),
                "{name}: absolute path: {command}"
            );
        }
        assert!(
            v["statusLine"]["command"]
                .as_str()
                .unwrap()
                .ends_with("/baton statusline"),
            "{name}"
        );
        if name == "gsd" {
            // Every GSD entry is still there.
            assert_eq!(
                v["hooks"]["PostToolUse"][0]["hooks"][0]["command"],
                "node \"$HOME/.claude/hooks/gsd-context-monitor.js\""
            );
            assert_eq!(
                v["hooks"]["SessionStart"][0]["hooks"][0]["command"],
                "node \"$HOME/.claude/hooks/gsd-check-update.js\""
            );
            assert_eq!(v["permissions"]["allow"][0], "Bash(npm test:*)");
        }
        let backups = std::fs::read_dir(sandbox.home.join(".claude"))
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .contains(".baton-backup-")
            })
            .count();
        assert_eq!(
            backups,
            usize::from(original.is_some()),
            "{name}: one backup of the original"
        );

        ok(sandbox.run(&["uninstall"], b""));
        match original {
            Some(text) => {
                assert_eq!(
                    std::fs::read_to_string(settings_path(&sandbox)).unwrap(),
                    text,
                    "{name}: byte for byte"
                )
            }
            None => assert!(
                !settings_path(&sandbox).exists(),
                "{name}: install created it, uninstall removes it"
            ),
        }
        assert!(
            !sandbox.home.join(".claude/commands/baton").exists(),
            "{name}: commands removed"
        );
        assert!(
            !sandbox.home.join(".claude/baton-install.json").exists(),
            "{name}: manifest removed"
        );
    }
}

#[test]
fn another_statusline_is_kept_unless_replacing_is_asked_for() {
    let sandbox = Sandbox::new();
    write_settings(&sandbox, CCSTATUSLINE_SETTINGS);
    let out = sandbox.run(&["install"], b"");
    assert_eq!(out.code, Some(1));
    assert!(
        out.stderr
            .contains("already has a statusLine from another tool (npx -y ccstatusline@latest)"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("--force") && out.stderr.contains("--no-statusline"),
        "{}",
        out.stderr
    );
    assert_eq!(
        std::fs::read_to_string(settings_path(&sandbox)).unwrap(),
        CCSTATUSLINE_SETTINGS
    );
    assert!(
        !sandbox.home.join(".claude/commands").exists(),
        "nothing at all was written"
    );

    ok(sandbox.run(&["install", "--no-statusline"], b""));
    let v = settings(&sandbox);
    assert_eq!(v["statusLine"]["command"], "npx -y ccstatusline@latest");
    assert_eq!(baton_hooks(&v).len(), 5);
    ok(sandbox.run(&["uninstall"], b""));
    assert_eq!(
        std::fs::read_to_string(settings_path(&sandbox)).unwrap(),
        CCSTATUSLINE_SETTINGS
    );
}

#[test]
fn settings_that_are_not_plain_json_are_refused_and_left_alone() {
    for text in [
        "{\n  // my settings\n  \"model\": \"opus\"\n}\n",
        "{\n  \"model\": \"opus\",\n}\n",
        "[1, 2]",
        "{\"hooks\": []}",
    ] {
        let sandbox = Sandbox::new();
        write_settings(&sandbox, text);
        let out = sandbox.run(&["install"], b"");
        assert_eq!(out.code, Some(1), "{text}: {out:?}");
        assert!(
            out.stderr.contains("settings.json") && out.stderr.contains("Nothing was changed"),
            "{}",
            out.stderr
        );
        assert_eq!(std::fs::read_to_string(settings_path(&sandbox)).unwrap(), text);
        let entries = std::fs::read_dir(sandbox.home.join(".claude")).unwrap().count();
        assert_eq!(entries, 1, "no backup, manifest or commands for a refused install");
    }
}

#[test]
fn a_read_only_settings_file_is_refused() {
    let sandbox = Sandbox::new();
    write_settings(&sandbox, "{}\n");
    let path = settings_path(&sandbox);
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
    let out = sandbox.run(&["install"], b"");
    assert_eq!(out.code, Some(1));
    assert!(
        out.stderr.contains("read-only") && out.stderr.contains("Nothing was changed"),
        "{}",
        out.stderr
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "{}\n");
}

#[test]
fn dry_run_changes_nothing_and_project_scope_writes_the_project() {
    let sandbox = Sandbox::new();
    let out = ok(sandbox.run(
        &["install", "--project", sandbox.project.to_str().unwrap(), "--dry-run"],
        b"",
    ));
    assert!(out.stdout.contains("Would add to"), "{}", out.stdout);
    assert!(!sandbox.project.join(".claude").exists());
    ok(sandbox.run(&["install", "--project", sandbox.project.to_str().unwrap()], b""));
    let v = sandbox.read_json(&sandbox.project.join(".claude/settings.json"));
    assert_eq!(baton_hooks(&v).len(), 5);
    assert!(!settings_path(&sandbox).exists(), "user settings untouched");
}

#[test]
fn slash_commands_use_the_absolute_path_and_spare_the_users_files() {
    let sandbox = Sandbox::new();
    let mine = sandbox.home.join(".claude/commands/baton/progress.md");
    std::fs::create_dir_all(mine.parent().unwrap()).unwrap();
    std::fs::write(&mine, "my own progress command\n").unwrap();
    let out = ok(sandbox.run(&["install"], b""));
    assert!(
        out.stdout.contains("Left") && out.stdout.contains("progress.md"),
        "{}",
        out.stdout
    );
    assert_eq!(std::fs::read_to_string(&mine).unwrap(), "my own progress command\n");
    let pause = std::fs::read_to_string(sandbox.home.join(".claude/commands/baton/pause-work.md")).unwrap();
    let binary = std::fs::canonicalize(BATON).unwrap();
    assert!(
        pause.contains(&format!("!`{} pause $ARGUMENTS`", binary.display())),
        "{pause}"
    );
    assert!(
        pause.contains(&format!("allowed-tools: Bash({}:*)", binary.display())),
        "{pause}"
    );
    ok(sandbox.run(&["uninstall"], b""));
    assert_eq!(
        std::fs::read_to_string(&mine).unwrap(),
        "my own progress command\n",
        "uninstall spares it too"
    );
}

#[test]
fn install_writes_every_shipped_slash_command() {
    let sandbox = Sandbox::new();
    ok(sandbox.run(&["install"], b""));
    let shipped = std::fs::read_dir(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("commands")).unwrap();
    for entry in shipped {
        let name = entry.unwrap().file_name();
        let installed = sandbox.home.join(".claude/commands/baton").join(&name);
        assert!(
            installed.is_file(),
            "{name:?} is in commands/ but install did not write it"
        );
    }
}

#[test]
fn uninstall_without_install_says_so() {
    let sandbox = Sandbox::new();
    let out = sandbox.run(&["uninstall"], b"");
    assert_eq!(out.code, Some(1));
    assert!(out.stderr.contains("baton is not installed"), "{}", out.stderr);
}

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

    let bin_dir = std::fs::canonicalize(BATON).unwrap().parent().unwrap().to_path_buf();
    let wired = Sandbox::new().env("PATH", &format!("{}:/usr/bin:/bin", bin_dir.display()));
    ok(wired.run(&["install"], b""));
    let out = wired.run(&["doctor"], b"");
    assert_eq!(out.code, Some(0), "{}", out.stdout);
    for line in [
        "ok   `baton` on PATH",
        "ok   statusLine runs baton",
        "ok   SubagentStop hook runs baton",
        "runs and exits cleanly",
        "All good.",
    ] {
        assert!(out.stdout.contains(line), "{line:?} missing:\n{}", out.stdout);
    }
}

#[test]
fn every_command_has_help_with_examples_and_there_are_completions() {
    let sandbox = Sandbox::new();
    let top = ok(sandbox.run(&["--help"], b"")).stdout;
    let commands: Vec<String> = top
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(|l| l.split_whitespace().next().unwrap().to_owned())
        .collect();
    assert!(commands.len() >= 9, "{top}");
    for command in &commands {
        let help = ok(sandbox.run(&[command, "--help"], b"")).stdout;
        assert!(help.contains("Usage: baton "), "{command}: {help}");
        assert!(help.contains("Example"), "{command} has no example: {help}");
    }
    assert!(ok(sandbox.run(&["--version"], b"")).stdout.starts_with("baton "));
    let bash = ok(sandbox.run(&["completions", "bash"], b"")).stdout;
    let check = std::process::Command::new("bash")
        .args(["-n", "-c", &bash])
        .output()
        .unwrap();
    assert!(check.status.success(), "{}", String::from_utf8_lossy(&check.stderr));
    assert!(
        bash.contains("--json-in") && bash.contains("--no-statusline"),
        "flags come from the help texts"
    );
    assert!(
        ok(sandbox.run(&["completions", "fish"], b""))
            .stdout
            .contains("-l dry-run")
    );
    assert!(
        ok(sandbox.run(&["completions", "zsh"], b""))
            .stdout
            .starts_with("#compdef baton")
    );
    let out = sandbox.run(&["frobnicate"], b"");
    assert_eq!(out.code, Some(2));
    assert!(
        out.stderr.contains("unknown command 'frobnicate'") && out.stderr.contains("baton --help"),
        "{}",
        out.stderr
    );
}

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
fn settings_example_wires_what_install_wires() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let example: Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("settings.example.json")).unwrap()).unwrap();
    let sandbox = Sandbox::new();
    ok(sandbox.run(&["install"], b""));
    let installed = settings(&sandbox);
    let events = |v: &Value| v["hooks"].as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    assert_eq!(events(&example), events(&installed));
    for (event, groups) in example["hooks"].as_object().unwrap() {
        assert_eq!(
            groups[0].get("matcher"),
            installed["hooks"][event][0].get("matcher"),
            "{event}"
        );
    }
}

/// Runs `binary` (a copy of baton elsewhere) with the sandbox's environment.
fn run_binary(sandbox: &Sandbox, binary: &std::path::Path, args: &[&str], path: Option<&str>) -> Outcome {
    let started = std::time::Instant::now();
    let out = std::process::Command::new(binary)
        .args(args)
        .env_clear()
        .env(
            "PATH",
            path.map_or_else(|| std::env::var("PATH").unwrap_or_default(), str::to_owned),
        )
        .env("HOME", &sandbox.home)
        .env("TMPDIR", &sandbox.tmp)
        .env("XDG_CONFIG_HOME", sandbox.home.join(".config"))
        .current_dir(&sandbox.project)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    Outcome {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        elapsed: started.elapsed(),
    }
}

/// A copy of the binary under test at `<sandbox home>/<dir>/baton`, as if installed there.
fn baton_copy(sandbox: &Sandbox, dir: &str) -> std::path::PathBuf {
    let path = sandbox.home.join(dir).join("baton");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    if std::fs::hard_link(BATON, &path).is_err() {
        std::fs::copy(BATON, &path).unwrap();
    }
    std::fs::canonicalize(path).unwrap()
}

/// Every baton command line in the settings (statusLine and hooks).
fn baton_commands(v: &Value) -> Vec<String> {
    let mut commands: Vec<String> = baton_hooks(v).into_iter().map(|(_, c)| c).collect();
    commands.extend(v["statusLine"]["command"].as_str().map(str::to_owned));
    commands
}

#[test]
fn a_symlinked_settings_file_stays_a_link_and_its_target_gets_the_changes() {
    let sandbox = Sandbox::new();
    let dotfiles = sandbox.home.join("dotfiles/claude");
    std::fs::create_dir_all(&dotfiles).unwrap();
    let target = dotfiles.join("settings.json");
    let original = "{\n  \"model\": \"opus\"\n}\n";
    std::fs::write(&target, original).unwrap();
    std::fs::create_dir_all(sandbox.home.join(".claude")).unwrap();
    let link = settings_path(&sandbox);
    let link_text = std::path::Path::new("../dotfiles/claude/settings.json");
    std::os::unix::fs::symlink(link_text, &link).unwrap();

    ok(sandbox.run(&["install"], b""));
    assert!(
        link.symlink_metadata().unwrap().file_type().is_symlink(),
        "still a link"
    );
    assert_eq!(std::fs::read_link(&link).unwrap(), link_text);
    let v = sandbox.read_json(&target);
    assert_eq!(baton_hooks(&v).len(), 5, "the target has the wiring");
    assert_eq!(v["model"], "opus");
    let backups_in = |dir: &std::path::Path| {
        std::fs::read_dir(dir)
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .contains(".baton-backup-")
            })
            .count()
    };
    assert_eq!(backups_in(&dotfiles), 1, "the backup sits next to the real file");
    assert_eq!(backups_in(&sandbox.home.join(".claude")), 0);

    ok(sandbox.run(&["install"], b""));
    ok(sandbox.run(&["uninstall"], b""));
    assert!(
        link.symlink_metadata().unwrap().file_type().is_symlink(),
        "still a link"
    );
    assert_eq!(std::fs::read_link(&link).unwrap(), link_text);
    assert_eq!(std::fs::read_to_string(&target).unwrap(), original, "byte for byte");
}

#[test]
fn reinstalling_from_a_new_location_repoints_batons_entries() {
    let sandbox = Sandbox::new();
    let original = "{\n  \"model\": \"opus\"\n}\n";
    write_settings(&sandbox, original);
    let old = baton_copy(&sandbox, "old");
    let new = baton_copy(&sandbox, "new");
    ok(run_binary(&sandbox, &old, &["install"], None));
    assert!(
        baton_commands(&settings(&sandbox))
            .iter()
            .all(|c| c.starts_with(old.to_str().unwrap()))
    );

    let out = ok(run_binary(&sandbox, &new, &["install"], None));
    assert!(
        out.stdout.contains("Updated in") && out.stdout.contains("statusLine") && !out.stdout.contains("already wires"),
        "{}",
        out.stdout
    );
    let commands = baton_commands(&settings(&sandbox));
    assert_eq!(commands.len(), 6);
    for command in &commands {
        assert!(command.starts_with(new.to_str().unwrap()), "re-pointed: {command}");
    }
    let pause = std::fs::read_to_string(sandbox.home.join(".claude/commands/baton/pause-work.md")).unwrap();
    assert!(pause.contains(&format!("!`{} pause", new.display())), "{pause}");
    let again = ok(run_binary(&sandbox, &new, &["install"], None));
    assert!(again.stdout.contains("already wires baton"), "{}", again.stdout);

    ok(run_binary(&sandbox, &new, &["uninstall"], None));
    assert_eq!(
        std::fs::read_to_string(settings_path(&sandbox)).unwrap(),
        original,
        "uninstall still takes out exactly baton's entries"
    );
    assert!(!sandbox.home.join(".claude/baton-install.json").exists());
}

#[test]
fn doctor_fails_when_the_settings_run_another_baton_and_says_install_repoints() {
    let sandbox = Sandbox::new();
    let bin_dir = std::fs::canonicalize(BATON).unwrap().parent().unwrap().to_path_buf();
    let path = format!("{}:/usr/bin:/bin", bin_dir.display());
    let old = baton_copy(&sandbox, "old");
    ok(run_binary(&sandbox, &old, &["install"], Some(&path)));
    let out = run_binary(&sandbox, std::path::Path::new(BATON), &["doctor"], Some(&path));
    assert_eq!(out.code, Some(1), "{}", out.stdout);
    assert!(
        out.stdout
            .contains(&format!("FIX  `{} statusline` runs {}", old.display(), old.display()))
            && out.stdout.contains("not this baton")
            && out.stdout.contains("install`: it re-points"),
        "{}",
        out.stdout
    );
    ok(run_binary(
        &sandbox,
        std::path::Path::new(BATON),
        &["install"],
        Some(&path),
    ));
    let out = run_binary(&sandbox, std::path::Path::new(BATON), &["doctor"], Some(&path));
    assert_eq!(out.code, Some(0), "{}", out.stdout);
    let left: Vec<_> = std::fs::read_dir(&sandbox.tmp).unwrap().collect();
    assert!(left.is_empty(), "the doctor's scratch dir is gone: {left:?}");
}

#[test]
fn doctor_matches_bridge_files_to_sessions_and_reads_hook_failures_from_attachments() {
    let bin_dir = std::fs::canonicalize(BATON).unwrap().parent().unwrap().to_path_buf();
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
        out.stdout.contains("FIX  1 failed baton hook run(s)")
            && out.stdout.contains("`/gone/baton hook` said \"boom\"")
            && !out.stdout.contains("run `baton doctor` after"),
        "{}",
        out.stdout
    );
}

fn json_line(v: Value) -> String {
    format!("{v}\n")
}

#[test]
fn doctor_recognises_the_plugin_form() {
    let bin_dir = std::fs::canonicalize(BATON).unwrap().parent().unwrap().to_path_buf();
    let sandbox = Sandbox::new().env("PATH", &format!("{}:/usr/bin:/bin", bin_dir.display()));
    let hook = serde_json::json!([{"hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/bin/baton hook"}]}]);
    let mut v = serde_json::json!({"statusLine": {"type": "command",
        "command": "\"${CLAUDE_PLUGIN_ROOT}/bin/baton\" statusline"}, "hooks": {}});
    for event in [
        "PostToolUse",
        "SessionStart",
        "PreCompact",
        "SubagentStart",
        "SubagentStop",
    ] {
        v["hooks"][event] = hook.clone();
    }
    write_settings(&sandbox, &v.to_string());
    let out = sandbox.run(&["doctor"], b"");
    assert_eq!(out.code, Some(0), "{}", out.stdout);
    assert!(
        out.stdout.contains("ok   statusLine runs baton") && out.stdout.contains("is the plugin form"),
        "{}",
        out.stdout
    );
}

#[test]
fn reinstall_keeps_the_users_edits_to_batons_slash_commands() {
    let sandbox = Sandbox::new();
    let old = baton_copy(&sandbox, "old");
    let new = baton_copy(&sandbox, "new");
    ok(run_binary(&sandbox, &old, &["install"], None));
    let pause = sandbox.home.join(".claude/commands/baton/pause-work.md");
    let edited = format!(
        "{}\nAlso remind me to push.\n",
        std::fs::read_to_string(&pause).unwrap()
    );
    std::fs::write(&pause, &edited).unwrap();

    let out = ok(run_binary(&sandbox, &new, &["install"], None));
    assert!(
        out.stdout.contains("pause-work.md alone: you changed it"),
        "{}",
        out.stdout
    );
    assert_eq!(
        std::fs::read_to_string(&pause).unwrap(),
        edited,
        "the user's edit survives"
    );
    let progress = std::fs::read_to_string(sandbox.home.join(".claude/commands/baton/progress.md")).unwrap();
    assert!(
        progress.contains(&format!("!`{} progress", new.display())),
        "unedited ones follow"
    );

    ok(run_binary(&sandbox, &new, &["uninstall"], None));
    assert_eq!(
        std::fs::read_to_string(&pause).unwrap(),
        edited,
        "and uninstall keeps it"
    );
}

#[test]
fn uninstall_removes_the_folders_install_created() {
    let sandbox = Sandbox::new();
    write_settings(&sandbox, "{}\n");
    ok(sandbox.run(&["install"], b""));
    ok(sandbox.run(&["uninstall"], b""));
    assert!(
        !sandbox.home.join(".claude/commands").exists(),
        "commands/ was install's"
    );
    assert_eq!(std::fs::read_to_string(settings_path(&sandbox)).unwrap(), "{}\n");

    // A folder that was there before stays, and so does a project's own .claude.
    let mine = sandbox.home.join(".claude/commands/mine.md");
    std::fs::create_dir_all(mine.parent().unwrap()).unwrap();
    std::fs::write(&mine, "mine\n").unwrap();
    ok(sandbox.run(&["install"], b""));
    ok(sandbox.run(&["uninstall"], b""));
    assert!(mine.is_file());

    let project = sandbox.project.to_str().unwrap();
    ok(sandbox.run(&["install", "--project", project], b""));
    assert!(sandbox.project.join(".claude/commands/baton").is_dir());
    ok(sandbox.run(&["uninstall", "--project", project], b""));
    assert!(
        !sandbox.project.join(".claude").exists(),
        "install created .claude; it is gone again"
    );
}

#[test]
fn dry_run_with_another_statusline_says_what_would_happen_and_exits_0() {
    let sandbox = Sandbox::new();
    write_settings(&sandbox, CCSTATUSLINE_SETTINGS);
    let out = ok(sandbox.run(&["install", "--dry-run"], b""));
    assert!(
        out.stdout.contains("Would add to") && out.stdout.contains("hooks.PostToolUse"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("npx -y ccstatusline@latest") && out.stdout.contains("--force"),
        "{}",
        out.stdout
    );
    assert_eq!(
        std::fs::read_to_string(settings_path(&sandbox)).unwrap(),
        CCSTATUSLINE_SETTINGS
    );
    assert!(!sandbox.home.join(".claude/commands").exists());
    assert!(!sandbox.home.join(".claude/baton-install.json").exists());
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
            .env("BATON_BINARY", BATON)
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
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
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

#[test]
fn the_slash_commands_name_each_other_as_installed() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("commands");
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| {
            e.unwrap()
                .file_name()
                .to_string_lossy()
                .trim_end_matches(".md")
                .to_owned()
        })
        .collect();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        for name in &names {
            let bare = format!("/{name}");
            for (i, _) in text.match_indices(&bare) {
                assert!(
                    text[..i].ends_with("baton:") || text[..i].ends_with(":baton"),
                    "{}: `{bare}` is installed as `/baton:{name}`",
                    path.display()
                );
            }
        }
    }
}
