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
        pause.contains(&format!(
            "```!\n{} pause --args-stdin <<'BATON_ARGS_END'\n$ARGUMENTS\nBATON_ARGS_END\n```",
            wired(&binary)
        )),
        "{pause}"
    );
    assert!(
        pause.contains(&format!("allowed-tools: \"Bash({}:*)\"", wired(&binary))),
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
    let shipped = std::fs::read_dir(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("plugin/commands")).unwrap();
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
            "{name:?} is in plugin/commands/ but install did not write it"
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
        progress.contains(&format!("```!\n{} progress --args-stdin", wired(&new))),
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
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("plugin/commands");
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
fn slash_commands_shell_out_to_baton_with_the_users_arguments_on_stdin() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("plugin/commands");
    for (file, command) in [
        ("pause-work.md", "pause"),
        ("resume-work.md", "resume"),
        ("progress.md", "progress"),
        ("set-profile.md", "profile set"),
        ("ctx-get.md", "ctx get"),
        ("ctx-set.md", "ctx set --as user"),
        ("setup.md", "install"),
    ] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        assert!(text.starts_with("---\ndescription: "), "{file}");
        assert!(text.contains("allowed-tools: Bash(baton:*)"), "{file}");
        assert!(
            text.contains(&format!(
                "```!\nbaton {command} --args-stdin <<'BATON_ARGS_END'\n$ARGUMENTS\nBATON_ARGS_END\n```\n"
            )),
            "{file}"
        );
        assert_eq!(text.matches("$ARGUMENTS").count(), 1, "{file}");
    }
}

/// The client's escape of the arguments before it fills them in (2.1.332 and 2.1.197): a `!`
/// that starts a word becomes `\!`, and no `` !` `` or `` `! `` is left to start a block.
fn escaped_as_the_client_does(args: &str) -> String {
    let args = args.replace("`!", "` !").replace("!`", "! `");
    let mut out = String::new();
    let mut prev = None;
    for c in args.chars() {
        if c == '!' && prev.is_none_or(char::is_whitespace) {
            out.push('\\');
        }
        out.push(c);
        prev = Some(c);
    }
    out
}

/// The shell command an installed slash command runs for `args`, found as the client finds it
/// once `$ARGUMENTS` is filled in as plain text (probe/FINDINGS.md §13): the first fenced
/// ```` ```! ```` block, else the first inline `` !`…` ``.
fn shell_command(text: &str, args: &str) -> String {
    let filled = text.replace("$ARGUMENTS", &escaped_as_the_client_does(args));
    if let Some(start) = filled.find("```!") {
        let body = filled[start + 4..].trim_start_matches([' ', '\t']);
        let body = body.strip_prefix('\n').unwrap_or(body);
        let end = body.find("```").expect("the ```! block ends");
        return body[..end].trim().to_owned();
    }
    let start = filled.find("!`").expect("a `!` command") + 2;
    let end = filled[start..].find('`').expect("the !` command ends");
    filled[start..start + end].trim().to_owned()
}

/// Runs an installed slash command's shell command for `args` as the Bash tool does (`bash -c`,
/// in the project, with the sandbox's HOME).
fn run_slash_command(sandbox: &Sandbox, name: &str, args: &str) -> std::process::Output {
    let text = std::fs::read_to_string(sandbox.home.join(".claude/commands/baton").join(name)).unwrap();
    std::process::Command::new("bash")
        .args(["-c", &shell_command(&text, args)])
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", &sandbox.home)
        .env("TMPDIR", &sandbox.tmp)
        .current_dir(&sandbox.project)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap()
}

/// A sandbox whose HOME holds a space, an apostrophe and a non-ASCII letter, with baton's copy
/// installed there (`install --copy`), so the commands run it by a quoted path.
fn installed_under_an_odd_home() -> Sandbox {
    let mut sandbox = Sandbox::new();
    sandbox.home = sandbox.home.join("Jane O'Doé");
    std::fs::create_dir_all(&sandbox.home).unwrap();
    ok(sandbox.run(&["install", "--copy", "--yes"], b""));
    sandbox
}

#[test]
fn slash_command_arguments_reach_baton_as_data_with_their_flags() {
    let sandbox = installed_under_an_odd_home();
    let note = "don't forget Bob's tests $(touch pwned) `touch pwned2` ; touch pwned3 | it's done !";
    let out = run_slash_command(
        &sandbox,
        "pause-work.md",
        &format!("{note} --next \"run the tests\" --blocker 'no key'"),
    );
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let handoff = sandbox.read_json(&sandbox.project.join(".planning/HANDOFF.json"));
    assert_eq!(handoff["context_notes"], note);
    assert_eq!(handoff["next_action"], "run the tests");
    assert_eq!(handoff["blockers"][0]["description"], "no key", "{handoff:#}");
    for planted in ["pwned", "pwned2", "pwned3"] {
        assert!(
            !sandbox.project.join(planted).exists(),
            "{planted}: a note ran as shell"
        );
    }

    // No arguments at all, and a value with an apostrophe for the context store.
    let out = run_slash_command(&sandbox, "progress.md", "");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    ok(sandbox.run(&["ctx", "init"], b""));
    let out = run_slash_command(&sandbox, "ctx-set.md", "notes.today \"Bob's day; $(id)\"");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let got = ok(sandbox.run(&["ctx", "get", "notes.today"], b""));
    assert_eq!(got.stdout.trim(), "\"Bob's day; $(id)\"");
}

#[test]
fn slash_commands_allow_the_program_word_their_command_line_starts_with() {
    let sandbox = installed_under_an_odd_home();
    let copy = sandbox.home.join(".local/bin").join(binary::file_name());
    for name in [
        "pause-work.md",
        "resume-work.md",
        "progress.md",
        "set-profile.md",
        "ctx-get.md",
        "ctx-set.md",
    ] {
        let text = std::fs::read_to_string(sandbox.home.join(".claude/commands/baton").join(name)).unwrap();
        // YAML-quoted, so that quotes and spaces in the path are the rule's own.
        assert!(
            text.contains("\nallowed-tools: \""),
            "{name}: allowed-tools is not YAML-quoted:\n{text}"
        );
        let front = text
            .strip_prefix("---\n")
            .and_then(|t| t.split_once("\n---\n"))
            .unwrap()
            .0;
        let front: serde_norway::Value = serde_norway::from_str(front).unwrap();
        let rule = front["allowed-tools"]
            .as_str()
            .unwrap_or_else(|| panic!("{name}: {front:?}"));
        let word = rule
            .strip_prefix("Bash(")
            .and_then(|r| r.strip_suffix(":*)"))
            .unwrap_or_else(|| panic!("{name}: {rule}"));
        let command = shell_command(&text, "");
        assert!(
            command.starts_with(&format!("{word} ")),
            "{name}: the rule names `{word}`, the command line runs `{command}`"
        );
        // The word is the copy's path, quoted for the shell.
        let unquoted = std::process::Command::new("sh")
            .args(["-c", &format!("printf %s {word}")])
            .output()
            .unwrap();
        assert_eq!(String::from_utf8_lossy(&unquoted.stdout), wired(&copy), "{name}");
    }
}
