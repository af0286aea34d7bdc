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
