//! `baton doctor` after real sessions of the client, baton installed for the user: a headless
//! `claude -p` (its transcript's `entrypoint` is `sdk-cli`) runs no statusline and is not asked
//! for a bridge file; an interactive session (`cli`) whose statusline ran has one.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

use super::client::{API_KEY, isolate, run_headless};
use super::mock::{Mock, Reply};
use super::poll;
use super::sandbox::Sandbox;
use super::tmux::{LIMIT, Tmux};

/// `baton <args>` as the user runs it: the sandbox's HOME and TMPDIR, baton on PATH.
fn baton(sandbox: &Sandbox, args: &[&str]) -> Output {
    let binary = Path::new(crate::common::baton_bin());
    let dir = binary.canonicalize().unwrap().parent().unwrap().to_path_buf();
    let mut command = Command::new(binary);
    isolate(&mut command, &sandbox.home, &sandbox.tmp);
    command
        .args(args)
        .current_dir(&sandbox.project)
        .env("PATH", format!("{}:/usr/bin:/bin", dir.display()));
    command.output().unwrap()
}

/// Runs `baton doctor`; its stdout, after asserting it exits 0.
fn doctor_all_good(sandbox: &Sandbox) -> String {
    let out = baton(sandbox, &["doctor"]);
    let said = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success() && said.contains("All good.") && !said.contains("FIX"),
        "doctor exited {}:\n{said}{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    said
}

/// The `entrypoint`s of the session's transcript lines, each once.
fn entrypoints(sandbox: &Sandbox) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for line in sandbox.transcript_lines() {
        if let Some(e) = line.get("entrypoint").and_then(Value::as_str)
            && !found.iter().any(|f| f == e)
        {
            found.push(e.to_owned());
        }
    }
    found
}

#[test]
fn doctor_after_a_headless_session_asks_for_no_bridge_file() {
    let sandbox = Sandbox::new("doctor-headless");
    assert!(baton(&sandbox, &["install"]).status.success());
    let mock = Mock::start(|_| Reply::text(2_000, "done"));
    run_headless(&sandbox, &mock, "say done");
    assert_eq!(entrypoints(&sandbox), ["sdk-cli"], "the transcript marks `claude -p`");
    let said = doctor_all_good(&sandbox);
    assert!(
        said.contains("1 headless session (`claude -p`, which runs no statusline) not checked"),
        "{said}"
    );
}

#[test]
fn doctor_after_an_interactive_session_finds_its_bridge_file() {
    let sandbox = Sandbox::new("doctor-interactive");
    sandbox.skip_first_run_dialogs(API_KEY);
    assert!(baton(&sandbox, &["install"]).status.success());
    let mock = Mock::start(|_| Reply::text(150_000, "hello from the mock"));
    let tmux = Tmux::start(&sandbox, &mock);
    tmux.submit("say hi", &mock);
    let bridge = poll(LIMIT, || {
        std::fs::read_dir(&sandbox.tmp)
            .ok()?
            .flatten()
            .find(|e| e.file_name().to_string_lossy().starts_with("claude-ctx-"))
    });
    assert!(
        bridge.is_some(),
        "the statusline wrote no bridge file; screen:\n{}",
        tmux.screen()
    );
    assert_eq!(
        entrypoints(&sandbox),
        ["cli"],
        "the transcript marks the interactive client"
    );
    let said = doctor_all_good(&sandbox);
    assert!(
        said.contains("every interactive session active in the last ten minutes (1) has a fresh bridge file"),
        "{said}"
    );
}
