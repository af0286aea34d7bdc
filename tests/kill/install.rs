//! Kill points of `baton install` and `baton uninstall` (issue 9 item 7): the settings merge,
//! its backup, the manifest and the slash commands. After a kill anywhere, `uninstall` gives
//! back the user's settings.json byte for byte (their statusLine included), and `install`
//! completes the interrupted install, after which `uninstall` still does.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{Writer, json_where, none};
use crate::common::*;

/// A user's settings: another tool's statusLine, GSD's monitor, permissions; 2-space JSON.
const USER_SETTINGS: &str = r#"{
  "model": "opus",
  "statusLine": {
    "type": "command",
    "command": "npx ccstatusline@latest",
    "padding": 0
  },
  "hooks": {
    "PostToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {
            "type": "command",
            "command": "node ~/.claude/hooks/gsd-context-monitor.js"
          }
        ]
      }
    ]
  },
  "permissions": {
    "allow": [
      "Bash(git status)"
    ]
  }
}
"#;

fn claude_dir(sandbox: &Sandbox) -> PathBuf {
    sandbox.home.join(".claude")
}

fn with_user_settings() -> Sandbox {
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(claude_dir(&sandbox)).unwrap();
    std::fs::write(claude_dir(&sandbox).join("settings.json"), USER_SETTINGS).unwrap();
    sandbox
}

fn no_stdin(_: &Sandbox) -> Vec<u8> {
    Vec::new()
}

fn nothing_more(_: &Sandbox) {}

/// The user's settings are back byte for byte and nothing of baton's is left but backups.
#[track_caller]
fn as_before_install(sandbox: &Sandbox) {
    let dir = claude_dir(sandbox);
    assert_eq!(
        std::fs::read_to_string(dir.join("settings.json")).unwrap(),
        USER_SETTINGS,
        "the user's settings.json must come back as it was"
    );
    assert!(!dir.join("baton-install.json").exists(), "the manifest must be gone");
    // Temp files an interrupted write leaves are the temp-file rule's (issue 9 item 11).
    let commands: Vec<_> = std::fs::read_dir(dir.join("commands/baton"))
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| !e.file_name().to_string_lossy().starts_with(".baton-"))
        .collect();
    assert!(commands.is_empty(), "baton's slash commands must be gone: {commands:?}");
}

/// `uninstall` undoes whatever the interrupted command did. When nothing was recorded yet it
/// may say "not installed", but only if nothing changed either.
fn uninstall_undoes_it(sandbox: &Sandbox) {
    let out = sandbox.run(&["uninstall"], b"");
    if out.code != Some(0) {
        assert!(out.stderr.contains("not installed"), "{out:?}");
    }
    as_before_install(sandbox);
}

/// `install` completes the interrupted install (a plain `install` reuses the consent an
/// interrupted `install --force` recorded); then `uninstall` undoes it all.
fn install_completes_it(sandbox: &Sandbox) {
    let manifest = claude_dir(sandbox).join("baton-install.json");
    let recorded = std::fs::read(&manifest)
        .ok()
        .and_then(|b| serde_json::from_slice::<Value>(&b).ok());
    let plain = sandbox.run(&["install"], b"");
    assert_eq!(plain.code, Some(0), "{plain:?}");
    // Without the consent an interrupted `install --force` recorded, the other tool's
    // statusLine is kept (and --force named).
    if plain.stdout.contains("Kept the statusLine of another tool") {
        let consented = recorded.is_some_and(|m| m["in_progress"] == true && !m["replaced_statusline"].is_null());
        assert!(!consented, "an interrupted install --force recorded consent: {plain:?}");
        assert!(plain.stdout.contains("--force"), "{plain:?}");
        let forced = sandbox.run(&["install", "--force"], b"");
        assert_eq!(forced.code, Some(0), "{forced:?}");
    }
    let settings = sandbox.read_json(&claude_dir(sandbox).join("settings.json"));
    assert!(
        settings["statusLine"]["command"]
            .as_str()
            .unwrap()
            .ends_with("baton statusline"),
        "{settings}"
    );
    let m = sandbox.read_json(&manifest);
    assert!(m.get("in_progress").is_none(), "the install settled: {m}");
    assert_eq!(sandbox.run(&["uninstall"], b"").code, Some(0));
    as_before_install(sandbox);
}

#[test]
fn an_install_killed_anywhere_can_be_undone_or_completed() {
    let writer = Writer {
        name: "install --force",
        setup: with_user_settings,
        args: &["install", "--force"],
        stdin: no_stdin,
        watched: |s| vec![claude_dir(s)],
        // The manifest is written first with what is about to be added, in progress.
        intermediate: |key, text| key.ends_with("baton-install.json") && json_where(text, |v| v["in_progress"] == true),
        after_kill: nothing_more,
        recover: uninstall_undoes_it,
    };
    writer.check(&[install_completes_it]);
}

#[test]
fn an_uninstall_killed_anywhere_is_finished_by_the_next_one() {
    let writer = Writer {
        name: "uninstall",
        setup: || {
            let sandbox = with_user_settings();
            assert_eq!(sandbox.run(&["install", "--force"], b"").code, Some(0));
            sandbox
        },
        args: &["uninstall"],
        stdin: no_stdin,
        watched: |s| vec![claude_dir(s)],
        intermediate: none,
        after_kill: nothing_more,
        recover: uninstall_undoes_it,
    };
    writer.check(&[]);
}

/// Another place baton was installed from, the same in every run (the command files hold the
/// path, and the manifest their hash).
fn elsewhere() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("kill-test-old-bin/baton")
}

/// Puts the binary under test at [`elsewhere`] (a fresh copy: the last build's may differ).
fn copy_elsewhere() {
    let old = elsewhere();
    std::fs::create_dir_all(old.parent().unwrap()).unwrap();
    let _ = std::fs::remove_file(&old);
    if std::fs::hard_link(baton_bin(), &old).is_err() {
        std::fs::copy(baton_bin(), &old).unwrap();
    }
}

/// baton installed from [`elsewhere`] first: the install under test re-points its entries.
fn installed_elsewhere() -> Sandbox {
    let sandbox = with_user_settings();
    let old = elsewhere();
    let out = std::process::Command::new(&old)
        .args(["install", "--force"])
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", &sandbox.home)
        .env("TMPDIR", &sandbox.tmp)
        .current_dir(&sandbox.project)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    sandbox
}

#[test]
fn a_repointing_install_killed_anywhere_can_be_undone_or_completed() {
    copy_elsewhere();
    let writer = Writer {
        name: "install from a new place",
        setup: installed_elsewhere,
        args: &["install"],
        stdin: no_stdin,
        watched: |s| vec![claude_dir(s)],
        intermediate: |key, text| key.ends_with("baton-install.json") && json_where(text, |v| v["in_progress"] == true),
        after_kill: nothing_more,
        recover: uninstall_undoes_it,
    };
    writer.check(&[install_completes_it]);
}

/// A user's settings, and `install --copy` going to `<home>/.local/bin`.
fn with_user_settings_and_prefix() -> Sandbox {
    let sandbox = with_user_settings();
    let prefix = sandbox.home.join(".local").display().to_string();
    sandbox.env("BATON_PREFIX", &prefix)
}

fn bin_dir(sandbox: &Sandbox) -> PathBuf {
    sandbox.home.join(".local/bin")
}

/// What is left in the copy's folder, temp files included.
fn left_in_bin_dir(sandbox: &Sandbox) -> Vec<String> {
    std::fs::read_dir(bin_dir(sandbox))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect()
}

/// `uninstall` undoes the settings and commands, and the copy: no binary, no temp file.
fn uninstall_undoes_the_copy(sandbox: &Sandbox) {
    uninstall_undoes_it(sandbox);
    let left = left_in_bin_dir(sandbox);
    assert!(left.is_empty(), "an orphan copy or temp file: {left:?}");
}

/// `install --copy` completes it; then `uninstall` undoes it all, the copy included.
fn install_completes_the_copy(sandbox: &Sandbox) {
    let completed = sandbox.run(&["install", "--copy", "--force"], b"");
    assert_eq!(completed.code, Some(0), "{completed:?}");
    assert_eq!(
        std::fs::read(bin_dir(sandbox).join("baton")).unwrap(),
        std::fs::read(baton_bin()).unwrap()
    );
    install_completes_it(sandbox);
    let left = left_in_bin_dir(sandbox);
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn an_install_copy_killed_anywhere_leaves_no_orphan_binary() {
    let writer = Writer {
        name: "install --copy --force",
        setup: with_user_settings_and_prefix,
        args: &["install", "--copy", "--force"],
        stdin: no_stdin,
        watched: |s| vec![claude_dir(s), bin_dir(s)],
        intermediate: |key, text| key.ends_with("baton-install.json") && json_where(text, |v| v["in_progress"] == true),
        after_kill: nothing_more,
        recover: uninstall_undoes_the_copy,
    };
    writer.check(&[install_completes_the_copy]);
}
