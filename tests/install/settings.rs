//! `baton install` and `uninstall` on settings.json: what is merged and given back, what is
//! refused and left alone, dry runs, symlinks and re-pointing.

use serde_json::Value;

use super::{baton_copy, ok, run_binary, settings, settings_path, write_settings};
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
            if command.ends_with(&format!("{} hook", binary::file_name())) {
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
        // Found writing fuzz/fuzz_targets/settings.rs: the null and the empty list went.
        (
            "null statusLine, empty hook list",
            Some(r#"{"statusLine":null,"hooks":{"PostToolUse":[]}}"#),
            &[],
        ),
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
                "PostCompact",
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
                command.starts_with(&wired("/")) && command.ends_with(&format!("/{} hook", binary::file_name())),
                "{name}: absolute path: {command}"
            );
        }
        assert!(
            v["statusLine"]["command"]
                .as_str()
                .unwrap()
                .ends_with(&format!("/{} statusline", binary::file_name())),
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
    // A dry run and a real run without a terminal say and do the same: the other tool's
    // statusLine stays, the hooks and commands are wired, and both flags are named.
    let dry = ok(sandbox.run(&["install", "--dry-run"], b""));
    let real = ok(sandbox.run(&["install"], b""));
    for (out, verb) in [(&dry, "Would keep"), (&real, "Kept")] {
        assert!(
            out.stdout.contains(&format!(
                "{verb} the statusLine of another tool (`npx -y ccstatusline@latest`)"
            )),
            "{}",
            out.stdout
        );
        assert!(
            out.stdout.contains("--force") && out.stdout.contains("--no-statusline"),
            "{}",
            out.stdout
        );
        assert!(out.stdout.contains("hooks.PostToolUse"), "{}", out.stdout);
    }
    let v = settings(&sandbox);
    assert_eq!(v["statusLine"]["command"], "npx -y ccstatusline@latest");
    assert_eq!(baton_hooks(&v).len(), 6);
    assert!(sandbox.home.join(".claude/commands/baton/progress.md").exists());
    ok(sandbox.run(&["uninstall"], b""));
    assert_eq!(
        std::fs::read_to_string(settings_path(&sandbox)).unwrap(),
        CCSTATUSLINE_SETTINGS
    );

    let quiet = ok(sandbox.run(&["install", "--no-statusline"], b""));
    assert!(!quiet.stdout.contains("Kept the statusLine"), "{}", quiet.stdout);
    let v = settings(&sandbox);
    assert_eq!(v["statusLine"]["command"], "npx -y ccstatusline@latest");
    assert_eq!(baton_hooks(&v).len(), 6);
    ok(sandbox.run(&["install", "--force"], b""));
    let statusline = settings(&sandbox)["statusLine"]["command"].as_str().unwrap().to_owned();
    assert!(
        statusline.ends_with(&format!("{} statusline", binary::file_name())),
        "{statusline}"
    );
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
    os::set_mode(&path, 0o444);
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
    assert_eq!(baton_hooks(&v).len(), 6);
    assert!(!settings_path(&sandbox).exists(), "user settings untouched");
}

#[test]
fn uninstall_without_install_says_so() {
    let sandbox = Sandbox::new();
    let out = sandbox.run(&["uninstall"], b"");
    assert_eq!(out.code, Some(1));
    assert!(out.stderr.contains("baton is not installed"), "{}", out.stderr);
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
    os::symlink(link_text, &link);

    ok(sandbox.run(&["install"], b""));
    assert!(
        link.symlink_metadata().unwrap().file_type().is_symlink(),
        "still a link"
    );
    assert_eq!(std::fs::read_link(&link).unwrap(), link_text);
    let v = sandbox.read_json(&target);
    assert_eq!(baton_hooks(&v).len(), 6, "the target has the wiring");
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
            .all(|c| c.starts_with(&wired(&old)))
    );

    let out = ok(run_binary(&sandbox, &new, &["install"], None));
    assert!(
        out.stdout.contains("Updated in") && out.stdout.contains("statusLine") && !out.stdout.contains("already wires"),
        "{}",
        out.stdout
    );
    let commands = baton_commands(&settings(&sandbox));
    assert_eq!(commands.len(), 7);
    for command in &commands {
        assert!(command.starts_with(&wired(&new)), "re-pointed: {command}");
    }
    let pause = std::fs::read_to_string(sandbox.home.join(".claude/commands/baton/pause-work.md")).unwrap();
    assert!(pause.contains(&format!("```!\n{} pause", wired(&new))), "{pause}");
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
