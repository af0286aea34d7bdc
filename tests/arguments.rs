//! Argument errors of every command through the built binary: one `baton <command>:`
//! prefix, the command's own help to read, exit 2, and never a panic, whatever the value
//! (a duration past the calendar, an empty path, a missing directory, bytes that are not
//! UTF-8).

use crate::common::*;

/// The commands a person runs (the hook-facing `statusline`, `hook` and `mod` take no
/// options: they read stdin and always exit 0).
fn commands(sandbox: &Sandbox) -> Vec<String> {
    let top = sandbox.run(&["--help"], b"").stdout;
    top.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(|l| l.split_whitespace().next().unwrap().to_owned())
        .filter(|c| !["statusline", "hook", "mod"].contains(&c.as_str()))
        .collect()
}

/// A usage error of `command`: exit 2, one prefix naming the command, the problem, and the
/// command's help to read.
#[track_caller]
fn assert_usage_error(out: &Outcome, command: &str, problem: &str) {
    assert_usage_error_with_help(out, command, problem, command);
}

/// [`assert_usage_error`] where the help to read is `topic`'s (an action's: `ctx get`).
fn assert_usage_error_with_help(out: &Outcome, command: &str, problem: &str, topic: &str) {
    assert_eq!(out.code, Some(2), "{command}: {out:?}");
    let prefix = format!("baton {command}: ");
    assert!(
        out.stderr.starts_with(&prefix) && out.stderr.contains(problem),
        "{command}: expected `{prefix}…{problem}…`, got:\n{}",
        out.stderr
    );
    assert!(
        !out.stderr.contains("baton: baton") && !out.stderr.contains("unexpected invalid"),
        "one prefix:\n{}",
        out.stderr
    );
    assert!(
        out.stderr.contains(&format!("`baton {topic} --help`")),
        "{command}: point at its own help:\n{}",
        out.stderr
    );
    assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
}

#[test]
fn an_unknown_option_names_the_command_once_and_points_at_its_help() {
    let sandbox = Sandbox::new();
    let commands = commands(&sandbox);
    assert!(commands.len() >= 10, "{commands:?}");
    for command in &commands {
        let out = sandbox.run(&[command, "--bogus"], b"");
        assert_usage_error(&out, command, "invalid option '--bogus'");
    }
    let out = sandbox.run(&["--bogus"], b"");
    assert_eq!(out.code, Some(2));
    assert!(
        out.stderr.starts_with("baton: invalid option '--bogus'") && out.stderr.contains("`baton --help`"),
        "{}",
        out.stderr
    );
}

#[test]
fn since_too_far_back_is_a_usage_error_not_a_panic() {
    let sandbox = Sandbox::new();
    for since in [
        "100000000days",
        "1000000years",
        "584542046090years",
        "9999999999999999999s",
        "",
        "soon",
    ] {
        let out = sandbox.run(&["report", "--since", since], b"");
        assert_usage_error(&out, "report", "--since");
    }
    let out = sandbox.run(&["report", "--json", "--since", "100000days"], b"");
    assert_eq!(out.code, Some(0), "a long but countable span is fine: {out:?}");
}

#[test]
fn empty_missing_and_wrong_values_are_usage_errors() {
    let sandbox = Sandbox::new();
    let file = sandbox.write("file.txt", "x");
    let file = file.to_str().unwrap();
    for (args, problem) in [
        (vec!["report", "--out", ""], "--out needs a file"),
        (vec!["report", "--transcript", ""], "--transcript needs a file"),
        (vec!["report", "--prices", ""], "--prices needs a file"),
        (vec!["report", "--out"], "--out needs a file"),
        (vec!["report", "--json=yes"], "--json"),
        (vec!["install", "--project", ""], "--project needs a directory"),
        (
            vec!["install", "--project", "/nonexistent/baton-test"],
            "no such directory",
        ),
        (vec!["uninstall", "--project", file], "not a directory"),
        (
            vec!["doctor", "--project", "/nonexistent/baton-test"],
            "no such directory",
        ),
        (vec!["pause", "--note"], "--note needs a value"),
        (vec!["progress", "extra"], "unexpected argument 'extra'"),
        (vec!["completions", "bash", "zsh"], "unexpected argument"),
    ] {
        let out = sandbox.run(&args, b"");
        assert_usage_error(&out, args[0], problem);
    }
    // An action's error points at the action's own help; a word that is no action, at the
    // command's.
    for (args, problem, help) in [
        (vec!["profile", "set"], "set needs PROFILE", "profile set"),
        (vec!["agents", "verify"], "verify needs ID (a run id", "agents verify"),
        (
            vec!["agents", "frob"],
            "unknown action 'frob'; the actions are: list, verify, waves, payload",
            "agents",
        ),
        (
            vec!["profile", "resolve", "--keep"],
            "resolve does not take --keep; usage: baton profile resolve",
            "profile resolve",
        ),
        (
            vec!["ctx", "show", "--keep", "3"],
            "show does not take --keep; usage: baton ctx show [OPTIONS]",
            "ctx show",
        ),
    ] {
        let out = sandbox.run(&args, b"");
        assert_usage_error_with_help(&out, args[0], problem, help);
    }
}

#[cfg(unix)]
#[test]
fn arguments_that_are_not_utf8_are_usage_errors() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let sandbox = Sandbox::new();
    let junk = OsStr::from_bytes(b"\xff\xfe");
    for (args, help) in [
        (["report", "--session"], "report"),
        (["report", "--since"], "report"),
        (["pause", "--note"], "pause"),
        (["agents", "waves"], "agents waves"),
    ] {
        let out = sandbox.command(&args).arg(junk).output().unwrap();
        let out = Outcome {
            code: out.status.code(),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            elapsed: std::time::Duration::ZERO,
        };
        assert_usage_error_with_help(&out, args[0], "must be UTF-8 text", help);
    }
    // A path may be any bytes the system allows: it is used as given.
    let out = sandbox.command(&["report", "--transcript"]).arg(junk).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "no such transcript, but a fine argument");
    assert!(String::from_utf8_lossy(&out.stderr).contains("no transcript at"));
}

#[test]
fn paths_with_nul_from_a_hook_payload_are_refused_quietly() {
    // Arguments cannot hold NUL; a hook payload can, and `report --hook` must stay silent.
    let sandbox = Sandbox::new();
    let payload = br#"{"session_id":"a\u0000b","transcript_path":"/tmp/x\u0000y.jsonl","cwd":"/tmp\u0000/z"}"#;
    sandbox.run(&["report", "--hook"], payload).assert_hook_contract();
}

#[test]
fn arguments_on_stdin_are_split_by_baton_and_must_be_utf8() {
    // What a slash command hands over: the user's text, shell syntax and all, as data.
    let sandbox = Sandbox::new();
    let out = sandbox.run(
        &["pause", "--args-stdin"],
        b"don't stop; $(touch pwned) --next \"ship it\"\n",
    );
    assert_eq!(out.code, Some(0), "{out:?}");
    let handoff = sandbox.read_json(&sandbox.project.join(".planning/HANDOFF.json"));
    assert_eq!(handoff["context_notes"], "don't stop; $(touch pwned)");
    assert_eq!(handoff["next_action"], "ship it");
    assert!(!sandbox.project.join("pwned").exists());
    let out = sandbox.run(&["progress", "--args-stdin"], b"--json\n");
    assert_eq!(out.code, Some(0), "{out:?}");
    serde_json::from_str::<serde_json::Value>(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", out.stdout));

    assert_usage_error(
        &sandbox.run(&["pause", "--args-stdin"], b"\xff\xfe note"),
        "pause",
        "not UTF-8",
    );
    assert_usage_error(
        &sandbox.run(&["progress", "--args-stdin"], b"--bogus"),
        "progress",
        "--bogus",
    );
}

#[test]
fn a_value_that_looks_like_a_flag_is_the_value_not_the_flag() {
    // `--note --help` is the note "--help": help is never found by scanning the arguments.
    let sandbox = Sandbox::new();
    let out = sandbox.run(&["pause", "--note", "--help", "--next", "-v"], b"");
    assert_eq!(out.code, Some(0), "{out:?}");
    let handoff = sandbox.read_json(&sandbox.project.join(".planning/HANDOFF.json"));
    assert_eq!(handoff["context_notes"], "--help");
    assert_eq!(handoff["next_action"], "-v");
    let help = sandbox.run(&["pause", "--json", "--help"], b"");
    assert!(
        help.code == Some(0) && help.stdout.contains("Usage: baton pause"),
        "{help:?}"
    );
}
