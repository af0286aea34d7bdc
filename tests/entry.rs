//! The binary's entry point: a panic in a command is a clear message and exit 101, never an
//! abort; in a hook or the statusline it stays silent with exit 0. (`BATON_FAULT=panic`
//! makes a debug build panic inside the command; the arguments themselves are checked by
//! every other test, and CI runs them all once more against the static musl build.)

use crate::common::*;

#[test]
fn a_panic_in_a_command_is_a_message_and_exit_101() {
    let sandbox = Sandbox::new().env("BATON_FAULT", "panic");
    for args in [
        &["pause", "--note", "x"][..],
        &["report"],
        &["install", "--dry-run"],
        &["progress"],
    ] {
        let out = sandbox.run(args, b"");
        assert_eq!(out.code, Some(101), "{args:?}: {out:?}");
        assert!(
            out.stderr.starts_with("baton: internal error: ") && out.stderr.contains("please report it"),
            "{args:?}: {}",
            out.stderr
        );
        assert!(!out.stderr.contains("failed to initiate panic"), "{}", out.stderr);
        assert_eq!(out.stdout, "", "{args:?}");
    }
}

#[test]
fn a_panic_in_a_hook_or_the_statusline_stays_silent() {
    let sandbox = Sandbox::new().env("BATON_FAULT", "panic");
    sandbox.hook(&post_tool_use(&sandbox, "s", None)).assert_hook_contract();
    let out = sandbox.statusline(&fixture("statusline-after-reply.json"));
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr.as_str()),
        (Some(0), "", ""),
        "{out:?}"
    );
}

#[test]
fn output_is_complete_through_a_pipe() {
    let sandbox = Sandbox::new();
    let out = sandbox.run(&["completions", "bash"], b"");
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(out.stdout.ends_with('\n') && out.stdout.len() > 200, "{:?}", out.stdout);
    let version = sandbox.run(&["--version"], b"");
    assert_eq!(version.stdout, format!("baton {}\n", env!("CARGO_PKG_VERSION")));
}
