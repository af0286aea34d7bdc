//! The slash commands `baton install` writes: what they run, absolute paths, the user's
//! own edits kept, what uninstall takes out.

use super::{baton_copy, ok, run_binary, settings_path, write_settings};
use crate::common::*;

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
    let binary = std::fs::canonicalize(baton_bin()).unwrap();
    assert!(
        pause.contains(&format!("!`{} pause $ARGUMENTS`", wired(&binary))),
        "{pause}"
    );
    assert!(
        pause.contains(&format!("allowed-tools: Bash({}:*)", wired(&binary))),
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
        // The plugin's own (/baton:setup runs `baton install` for the statusline): without
        // the plugin, the install that writes these commands has just done it.
        if name == "setup.md" {
            assert!(!sandbox.home.join(".claude/commands/baton/setup.md").exists());
            continue;
        }
        let installed = sandbox.home.join(".claude/commands/baton").join(&name);
        assert!(
            installed.is_file(),
            "{name:?} is in commands/ but install did not write it"
        );
    }
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
        progress.contains(&format!("!`{} progress", wired(&new))),
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

#[test]
fn slash_commands_shell_out_to_baton_with_the_users_arguments() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("commands");
    for (file, command) in [
        ("pause-work.md", "pause"),
        ("resume-work.md", "resume"),
        ("progress.md", "progress"),
    ] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        assert!(text.starts_with("---\ndescription: "), "{file}");
        assert!(text.contains("allowed-tools: Bash(baton:*)"), "{file}");
        assert!(text.contains(&format!("!`baton {command} $ARGUMENTS`")), "{file}");
    }
}
