//! What `install --copy` may replace and `uninstall` may remove at baton's place (issue 30,
//! items 1 to 3): only a baton build, known by its bytes and never run; never a file a
//! project's manifest names elsewhere; never a copy that settings baton knows of still run.

use std::path::{Path, PathBuf};

use super::{ok, settings_path};
use crate::common::*;

/// A sandbox whose `install --copy` goes to `<home>/.local/bin`.
fn sandbox() -> Sandbox {
    let sandbox = Sandbox::new();
    let prefix = sandbox.home.join(".local").display().to_string();
    sandbox.env("BATON_PREFIX", &prefix)
}

/// Where `install --copy` puts baton in [`sandbox`].
fn batons_place(sandbox: &Sandbox) -> PathBuf {
    sandbox.home.join(".local/bin").join(binary::file_name())
}

/// A program of the user's that leaves a mark when it runs.
fn users_program(sandbox: &Sandbox, path: &Path) -> String {
    let mark = sandbox.home.join("it-ran");
    let text = format!("#!/bin/sh\ntouch '{}'\necho mine\n", mark.display());
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, &text).unwrap();
    os::make_executable(path);
    text
}

fn ran(sandbox: &Sandbox) -> bool {
    sandbox.home.join("it-ran").exists()
}

/// The `<name>.baton-backup-*` files beside `path`.
fn backups_of(path: &Path) -> Vec<PathBuf> {
    let name = format!("{}.baton-backup-", path.file_name().unwrap().to_string_lossy());
    std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(&name))
        .map(|e| e.path())
        .collect()
}

#[test]
fn a_users_own_program_at_batons_place_is_neither_run_nor_replaced_without_force() {
    let sandbox = sandbox();
    let place = batons_place(&sandbox);
    let mine = users_program(&sandbox, &place);

    let dry = ok(sandbox.run(&["install", "--copy", "--dry-run"], b""));
    assert!(dry.stdout.contains("Would stop: "), "{}", dry.stdout);
    let refused = sandbox.run(&["install", "--copy"], b"");
    assert_eq!(refused.code, Some(1), "{refused:?}");
    for said in [&dry.stdout, &refused.stderr] {
        assert!(said.contains("is a file that is not a baton build"), "{said}");
        assert!(said.contains("--force"), "{said}");
    }
    assert_eq!(
        std::fs::read_to_string(&place).unwrap(),
        mine,
        "the user's program is untouched"
    );
    assert!(!ran(&sandbox), "the user's program was never run");
    assert!(!settings_path(&sandbox).exists(), "nothing was wired");

    // With --force it is kept aside, byte for byte, and uninstall leaves that copy alone.
    let forced = ok(sandbox.run(&["install", "--copy", "--force"], b""));
    let kept = backups_of(&place);
    assert_eq!(kept.len(), 1, "{}", forced.stdout);
    assert!(
        forced
            .stdout
            .contains(&format!("Kept the file that was at {}", native(&place))),
        "{}",
        forced.stdout
    );
    assert_eq!(std::fs::read_to_string(&kept[0]).unwrap(), mine);
    assert_eq!(std::fs::read(&place).unwrap(), std::fs::read(baton_bin()).unwrap());
    assert!(!ran(&sandbox));
    ok(sandbox.run(&["uninstall"], b""));
    assert!(!place.exists(), "baton's own copy went");
    assert_eq!(
        std::fs::read_to_string(&kept[0]).unwrap(),
        mine,
        "the user's file stays"
    );
}

#[cfg(unix)]
#[test]
fn a_planted_link_at_batons_place_is_never_run_nor_followed() {
    let sandbox = sandbox();
    let place = batons_place(&sandbox);
    let target = sandbox.home.join("elsewhere/tool");
    let mine = users_program(&sandbox, &target);
    std::fs::create_dir_all(place.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(&target, &place).unwrap();

    let refused = sandbox.run(&["install", "--copy"], b"");
    assert_eq!(refused.code, Some(1), "{refused:?}");
    assert!(refused.stderr.contains("is a symbolic link"), "{}", refused.stderr);
    assert!(!ran(&sandbox), "the link's target was never run");
    assert!(std::fs::symlink_metadata(&place).unwrap().file_type().is_symlink());

    ok(sandbox.run(&["install", "--copy", "--force"], b""));
    assert!(!ran(&sandbox));
    assert_eq!(
        std::fs::read_to_string(&target).unwrap(),
        mine,
        "nothing was written through the link"
    );
    assert!(std::fs::symlink_metadata(&place).unwrap().is_file());
    let kept = backups_of(&place);
    assert_eq!(
        std::fs::read_link(&kept[0]).unwrap(),
        target,
        "the link itself was kept aside"
    );
}

#[test]
fn uninstall_removes_no_file_that_a_projects_manifest_names() {
    let sandbox = sandbox();
    let precious = sandbox.home.join("precious_id_rsa");
    std::fs::write(&precious, "-----BEGIN OPENSSH PRIVATE KEY-----\n").unwrap();
    // A repository's manifest: anyone can commit one.
    let manifest = sandbox.project.join(".claude/baton-install.json");
    std::fs::create_dir_all(manifest.parent().unwrap()).unwrap();
    // The path as the binary's own system writes it (a Windows path under Wine).
    let planted = serde_json::json!({"version": 1, "binary": native(&precious)});
    std::fs::write(&manifest, planted.to_string()).unwrap();
    let out = ok(sandbox.run(&["uninstall", "--project", "."], b""));
    assert!(precious.exists(), "{}", out.stdout);
    assert!(!out.stdout.contains("Removed"), "{}", out.stdout);
    assert!(
        out.stdout.contains(&format!(
            "Left {} where it is: it is not where baton puts its copy",
            native(&precious)
        )),
        "{}",
        out.stdout
    );

    // Naming baton's place, where a program of the user's is: not a baton build, kept.
    let place = batons_place(&sandbox);
    let mine = users_program(&sandbox, &place);
    let planted = serde_json::json!({"version": 1, "binary": native(&place)});
    std::fs::write(&manifest, planted.to_string()).unwrap();
    let out = ok(sandbox.run(&["uninstall", "--project", "."], b""));
    assert_eq!(std::fs::read_to_string(&place).unwrap(), mine, "{}", out.stdout);
    assert!(
        out.stdout.contains("it is a file that is not a baton build"),
        "{}",
        out.stdout
    );
    assert!(!ran(&sandbox));
}

#[test]
fn a_copy_that_other_settings_still_run_is_kept_until_the_last_uninstall() {
    let sandbox = sandbox();
    let place = batons_place(&sandbox);
    ok(sandbox.run(&["install", "--copy", "--yes"], b""));
    ok(sandbox.run(&["install", "--copy", "--yes", "--project", "."], b""));

    // The project goes; the user's settings still run the copy.
    let out = ok(sandbox.run(&["uninstall", "--project", "."], b""));
    assert!(place.is_file(), "{}", out.stdout);
    assert!(
        out.stdout.contains(&format!(
            "Left {} where it is: it is still run by {}",
            native(&place),
            native(settings_path(&sandbox))
        )),
        "{}",
        out.stdout
    );
    let hook = ok(sandbox.hook(&post_tool_use(&sandbox, "still-wired", None)));
    assert!(hook.stderr.is_empty());

    // The other way round: the user's uninstall keeps the copy a project (known from baton's
    // own record, not from any manifest) still runs.
    ok(sandbox.run(&["install", "--copy", "--yes", "--project", "."], b""));
    let out = ok(sandbox.run(&["uninstall"], b""));
    let project_settings = sandbox.project.join(".claude/settings.json");
    assert!(place.is_file(), "{}", out.stdout);
    assert!(
        out.stdout
            .contains(&format!("still run by {}", native(&project_settings))),
        "{}",
        out.stdout
    );
    // The last one out removes it.
    let out = ok(sandbox.run(&["uninstall", "--project", "."], b""));
    assert!(
        out.stdout.contains(&format!("Removed {}", native(&place))),
        "{}",
        out.stdout
    );
    assert!(!place.exists());
}

#[test]
fn an_entry_the_user_edited_keeps_the_copy_it_runs() {
    let sandbox = sandbox();
    let place = batons_place(&sandbox);
    ok(sandbox.run(&["install", "--copy", "--yes"], b""));
    let path = settings_path(&sandbox);
    let mut settings = sandbox.read_json(&path);
    settings["hooks"]["PostToolUse"][0]["hooks"][0]["timeout"] = 30.into();
    std::fs::write(&path, serde_json::to_string_pretty(&settings).unwrap()).unwrap();

    let out = ok(sandbox.run(&["uninstall"], b""));
    assert!(
        out.stdout.contains("hooks.PostToolUse"),
        "the edited entry is kept: {}",
        out.stdout
    );
    assert!(place.is_file(), "the binary the kept entry runs stays: {}", out.stdout);
    assert!(out.stdout.contains("it is still run by"), "{}", out.stdout);
}

#[test]
fn an_install_with_nothing_to_change_says_so_and_a_cycle_leaves_no_backup() {
    let sandbox = sandbox();
    let path = settings_path(&sandbox);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let original = "{\n  \"model\": \"opus\"\n}\n";
    std::fs::write(&path, original).unwrap();
    let first = ok(sandbox.run(&["install", "--copy"], b""));
    assert!(first.stdout.contains("Restart Claude Code"), "{}", first.stdout);
    let again = ok(sandbox.run(&["install", "--copy"], b""));
    assert!(!again.stdout.contains("Restart"), "nothing changed: {}", again.stdout);
    assert!(again.stdout.contains("nothing to add"), "{}", again.stdout);
    ok(sandbox.run(&["uninstall"], b""));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), original);
    assert_eq!(
        backups_of(&path),
        Vec::<PathBuf>::new(),
        "an exact restore leaves no backup"
    );
}
