//! The slash commands `baton install --copy` writes, run by the real client headless (`claude -p
//! "/baton:…"` with no `--allowedTools`: only the command's own `allowed-tools` lets it run)
//! from a HOME whose path holds a space and a non-ASCII letter: the permission check passes for
//! baton's quoted absolute path, and an argument with an apostrophe, `$( )` and a flag reaches
//! baton as data (probe/FINDINGS.md §13).

use std::time::Duration;

use serde_json::Value;

use super::client::{API_KEY, MODEL, claude_command, output_within, succeeded};
use super::mock::{Mock, Reply};
use super::sandbox::Sandbox;

/// A sandbox whose HOME is `<root>/Jane Doé`, with baton's copy installed and wired there as
/// `npx baton-cc install` does (`baton install --copy`).
fn installed_under_a_home_with_a_space(name: &str) -> Sandbox {
    let mut sandbox = Sandbox::new(name);
    sandbox.home = sandbox.root.join("Jane Doé");
    sandbox.tmp = sandbox.home.join("tmp");
    std::fs::create_dir_all(&sandbox.tmp).unwrap();
    sandbox.skip_first_run_dialogs(API_KEY);
    sandbox.install_baton_copy();
    sandbox
}

/// Runs `claude -p PROMPT` (no `--allowedTools`); returns what it printed. Panics unless it
/// exits 0 and says nothing of a failed shell command or permission check.
fn slash(sandbox: &Sandbox, mock: &Mock, prompt: &str) -> String {
    let mut command = claude_command(sandbox, mock);
    command.args(["-p", prompt, "--model", MODEL]);
    let said = succeeded(
        output_within(command, Duration::from_secs(150)),
        &format!("claude -p {prompt}"),
    );
    for failure in ["permission check failed", "Shell command failed", "requires approval"] {
        assert!(!said.contains(failure), "`claude -p {prompt}`:\n{said}");
    }
    said
}

/// Everything the model was sent in the conversation whose prompt holds `command`.
fn sent_for(mock: &Mock, command: &str) -> String {
    let requests = mock.requests();
    let turns = requests
        .iter()
        .filter(|r| r.is_turn() && r.prompt().contains(&format!("<command-name>{command}</command-name>")));
    turns.flat_map(|r| r.all_texts()).collect::<Vec<_>>().join("\n")
}

#[test]
fn slash_commands_run_from_a_home_with_a_space_and_take_an_apostrophe_as_data() {
    let sandbox = installed_under_a_home_with_a_space("slash");
    let mock = Mock::start(|_| Reply::text(2_000, "Noted."));

    slash(
        &sandbox,
        &mock,
        "/baton:pause-work don't forget the tests $(touch pwned) --next \"run them; all\"",
    );
    let handoff: Value =
        serde_json::from_slice(&std::fs::read(sandbox.project.join(".planning/HANDOFF.json")).unwrap()).unwrap();
    assert_eq!(handoff["context_notes"], "don't forget the tests $(touch pwned)");
    assert_eq!(handoff["next_action"], "run them; all");
    assert!(!sandbox.project.join("pwned").exists(), "a note ran as shell");
    // baton's output is what the model was given (2.1.197 sends nothing when the command fails).
    let sent = sent_for(&mock, "/baton:pause-work");
    assert!(sent.contains("Wrote .planning/HANDOFF.json"), "{sent}");

    // The issue's own case: a command with no arguments.
    slash(&sandbox, &mock, "/baton:progress");
    let sent = sent_for(&mock, "/baton:progress");
    assert!(
        sent.contains("run them; all"),
        "the progress report names the next action:\n{sent}"
    );
}
