//! A command's error through the built binary: one line by default, and with `--verbose` (or
//! `BATON_LOG=debug`) the errors that caused it, one `caused by:` line each.

use crate::common::*;

/// `pause --json-in` fed a truncated object: the JSON parser's error is the cause.
fn truncated_handoff(sandbox: &Sandbox, args: &[&str]) -> Outcome {
    let out = sandbox.run(args, b"{truncated");
    assert_eq!(out.code, Some(1), "{out:?}");
    out
}

const MESSAGE: &str = "baton pause: --json-in: stdin is not JSON: key must be a string at line 1 column 2; pipe a \
                       handoff object in GSD's schema\n";

#[test]
fn an_error_is_one_line_without_verbose() {
    let sandbox = Sandbox::new();
    let out = truncated_handoff(&sandbox, &["pause", "--json-in"]);
    assert_eq!(out.stderr, MESSAGE);
}

#[test]
fn verbose_shows_the_chain_of_causes() {
    let sandbox = Sandbox::new();
    let chain = "caused by: --json-in: stdin is not JSON: key must be a string at line 1 column 2\n\
                 caused by: key must be a string at line 1 column 2\n";
    let out = truncated_handoff(&sandbox, &["--verbose", "pause", "--json-in"]);
    assert_eq!(out.stderr, format!("{MESSAGE}{chain}"));
    let logged = Sandbox::new().env("BATON_LOG", "debug");
    let out = truncated_handoff(&logged, &["pause", "--json-in"]);
    assert_eq!(out.stderr, format!("{MESSAGE}{chain}"));
    assert!(!logged.project.join("debug").exists(), "BATON_LOG=debug names no file");
}

#[test]
fn verbose_keeps_the_exit_code_of_a_usage_error() {
    let out = Sandbox::new().run(&["--verbose", "pause", "--nope"], b"");
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(
        out.stderr.starts_with("baton pause: invalid option '--nope'"),
        "{}",
        out.stderr
    );
}

/// `--verbose` is where a user looks for it: in `baton --help` and in the completions.
#[test]
fn verbose_is_in_the_help_and_the_completions() {
    let sandbox = Sandbox::new();
    let help = sandbox.run(&["--help"], b"");
    assert!(
        help.stdout
            .contains("--verbose  Before the command: after an error, also print what caused it"),
        "{}",
        help.stdout
    );
    for shell in ["bash", "zsh", "fish", "powershell"] {
        let out = sandbox.run(&["completions", shell], b"");
        assert!(out.stdout.contains("verbose"), "{shell}: {}", out.stdout);
    }
}
