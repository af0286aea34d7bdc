//! From a clean HOME: `./install.sh` installs and wires baton, then the real interactive
//! client runs with baton's statusline on screen and its hooks firing.

use std::process::Command;

use super::client::API_KEY;
use super::mock::Mock;
use super::poll;
use super::sandbox::Sandbox;
use super::tmux::{LIMIT, Tmux};

const PROMPT: &str = "check the build";

#[test]
fn install_sh_wires_a_clean_home_and_the_client_runs_baton() {
    let sandbox = Sandbox::new("install");
    let repo = env!("CARGO_MANIFEST_DIR");
    let prefix = sandbox.home.join(".local");
    // install.sh takes the binary cargo test already built (BATON_BINARY), so the test
    // exercises the install and wiring, not a second compile.
    let out = Command::new(format!("{repo}/install.sh"))
        .arg("--yes")
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", &sandbox.home)
        .env("TMPDIR", &sandbox.tmp)
        .env("BATON_PREFIX", &prefix)
        .env("BATON_BINARY", crate::common::baton_bin())
        .output()
        .unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "install.sh failed:\n{said}");
    let installed = prefix.join("bin/baton");
    assert!(installed.is_file(), "{said}");
    let settings = std::fs::read_to_string(sandbox.home.join(".claude/settings.json")).unwrap();
    assert!(
        settings.contains(&format!("{} statusline", installed.display())),
        "{settings}"
    );

    sandbox.skip_first_run_dialogs(API_KEY);
    // One Bash call at 140k of 200k tokens (30% remaining), then a final answer.
    let mock = Mock::start(|request| match request.assistant_turns() {
        0 => super::mock::Reply::bash(140_000, "echo built"),
        _ => super::mock::Reply::text(140_000, "The build is fine."),
    });
    let tmux = Tmux::start(&sandbox, &mock);
    tmux.submit(PROMPT, &mock);

    // The statusline: 140k of (200k − 20k) = 78%, as Claude Code's own indicator would say.
    let row = poll(LIMIT, || {
        let screen = tmux.screen();
        screen
            .lines()
            .map(str::trim)
            .find(|l| l.starts_with("Sonnet 4.5") && l.contains("78%"))
            .map(str::to_owned)
    });
    assert!(row.is_some(), "no baton statusline at 78%; screen:\n{}", tmux.screen());

    // The PostToolUse hook: the model's turn after the Bash call carries baton's warning.
    let warned = poll(LIMIT, || {
        let turns = mock.turns_of(PROMPT);
        let after_call = turns.iter().find(|t| t.assistant_turns() == 1)?;
        after_call
            .last_user_texts()
            .into_iter()
            .find(|t| t.contains("CONTEXT WARNING: Usage at 70%. Remaining: 30%."))
    });
    assert!(
        warned.is_some(),
        "baton's warning did not reach the model; turns: {:#?}\nscreen:\n{}",
        mock.turns_of(PROMPT)
            .iter()
            .map(|t| t.last_user_texts())
            .collect::<Vec<_>>(),
        tmux.screen()
    );
    let errors: Vec<_> = sandbox
        .hook_attachments()
        .into_iter()
        .filter(|a| {
            a["type"].as_str().is_some_and(|t| t.contains("error")) || a["exitCode"].as_i64().is_some_and(|c| c != 0)
        })
        .collect();
    assert!(errors.is_empty(), "hook errors: {errors:#?}");
}
