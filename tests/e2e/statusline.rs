//! The interactive client under tmux: after a reply reporting 150k of 200k tokens, the
//! statusline Claude Code renders through `baton statusline` shows the model and the same
//! context figure as Claude Code's own footer.

use serde_json::json;

use super::client::baton_command;
use super::mock::{Mock, Reply};
use super::poll;
use super::sandbox::Sandbox;
use super::tmux::Tmux;

const PROMPT: &str = "say hi";
use super::tmux::LIMIT;

/// baton's row: it starts with the model name (the welcome box shows it too, inside `│`).
/// Claude Code may print its own "NN% context used" at the right of the same row; that part
/// is cut off so only baton's figure is left.
fn baton_row(screen: &str) -> Option<String> {
    let row = screen
        .lines()
        .map(str::trim)
        .find(|line| line.starts_with("Sonnet 4.5"))?;
    let own = match row.find("% context used") {
        Some(end) => row[..end].trim_end_matches(|c: char| c.is_ascii_digit()).trim_end(),
        None => row,
    };
    Some(own.to_owned())
}

#[test]
fn statusline_shows_model_and_context_like_claude_code() {
    let sandbox = Sandbox::new("statusline");
    sandbox.skip_first_run_dialogs(super::client::API_KEY);
    let statusline = json!({"type": "command", "command": baton_command("statusline"), "padding": 0});
    sandbox.project_settings(&json!({"statusLine": statusline}));
    let mock = Mock::start(|_| Reply::text(150_000, "hello from the mock"));
    let tmux = Tmux::start(&sandbox, &mock);

    tmux.submit(PROMPT, &mock);

    // 150k used of a 200k window minus Claude Code's 20k reserve: round(100 × 150 / 180) = 83.
    let row = poll(LIMIT, || baton_row(&tmux.screen()).filter(|row| row.contains("83%")));
    let screen = tmux.screen();
    let row = row.unwrap_or_else(|| {
        panic!(
            "no baton statusline with Sonnet 4.5 and 83% (row: {:?}); screen:\n{screen}",
            baton_row(&screen)
        )
    });
    assert!(
        row.contains('│'),
        "no segments in the statusline row {row:?}; screen:\n{screen}"
    );
    // Claude Code's own footer, when it has room to show one, must agree.
    if let Some(footer) = claude_code_footer(&screen) {
        assert_eq!(footer, "83% context used", "Claude Code's footer; screen:\n{screen}");
    }
}

/// Claude Code's own "NN% context used" indicator, if on screen.
fn claude_code_footer(screen: &str) -> Option<String> {
    let end = screen.find("% context used")?;
    let digits = screen[..end].chars().rev().take_while(char::is_ascii_digit).count();
    Some(screen[end - digits..end + "% context used".len()].to_owned())
}
