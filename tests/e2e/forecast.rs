//! The compaction forecast with the real client. The mock reports a context that grows by
//! 10,000 tokens per request, and the project's settings give the client an auto-compact
//! window (`env.CLAUDE_CODE_AUTO_COMPACT_WINDOW`, which its hooks and statusline inherit), so
//! the client compacts on its own at 167,000 tokens: the truth is the requests it really
//! sends before its summary request. Headless, the monitor's WARNING reaches the model with
//! the forecast; interactive, the statusline and the bridge file show it, and Claude Code's
//! own footer counts down to the same limit.

use std::fs;
use std::path::Path;
use std::time::Duration;

use serde_json::{Value, json};

use super::client::{MODEL, baton_command, claude_command, output_within};
use super::mock::{Mock, Reply};
use super::poll;
use super::request::Request;
use super::sandbox::Sandbox;
use super::tmux::{LIMIT, Tmux};

const PROMPT: &str = "run the growing steps";
const GROWTH: u64 = 10_000;
/// What the client's summary request asks for (the last text of its last user message).
const SUMMARY_ASK: &str = "create a detailed summary of the conversation";
const SUMMARY: &str = "<analysis>e2e</analysis>\n<summary>E2E-SUMMARY: the user ran growing steps.</summary>";

/// Settings: the auto-compact window in the client's environment, Bash allowed, and baton as
/// the PostToolUse hook and (optionally) the statusline.
fn settings(sandbox: &Sandbox, statusline: bool) {
    let hook =
        json!([{"matcher": "*", "hooks": [{"type": "command", "command": baton_command("hook"), "timeout": 10}]}]);
    let mut settings = json!({"env": {"CLAUDE_CODE_AUTO_COMPACT_WINDOW": "200000"},
                              "permissions": {"allow": ["Bash"]},
                              "hooks": {"PostToolUse": hook}});
    if statusline {
        settings["statusLine"] = json!({"type": "command", "command": baton_command("statusline"), "padding": 0});
    }
    sandbox.project_settings(&settings);
}

fn is_summary_request(request: &Request) -> bool {
    request.last_user_texts().iter().any(|text| text.contains(SUMMARY_ASK))
}

/// Reply `k` of the main conversation reports `start + k × 10,000` tokens and runs a Bash
/// step, except the turns in `answers` (a text answer ending the prompt); the summary request
/// gets a summary; after the compaction the agent answers at once.
fn growing(start: u64, answers: &'static [usize]) -> Mock {
    Mock::start(move |request: &Request| {
        if is_summary_request(request) {
            return Reply::text(30_000, SUMMARY);
        }
        if request.prompt() != PROMPT {
            return Reply::text(9_000, "done after the compaction");
        }
        let k = request.assistant_turns();
        let tokens = start + GROWTH * k as u64;
        if answers.contains(&k) || k >= 20 {
            Reply::text(tokens, "done")
        } else {
            Reply::bash(tokens, &format!("echo step{k}"))
        }
    })
}

/// The request (by its count of earlier replies) that carries what the hook said after the tool
/// call of the first reply at or past `percent`% of the 200k window, when reply `k` reports
/// `start + k × 10,000` tokens: where a warning given at the first chance reaches the model.
fn after_first_reply_at(start: u64, percent: u64) -> usize {
    let tokens = 200_000 * percent / 100;
    tokens.saturating_sub(start).div_ceil(GROWTH) as usize + 1
}

/// The first request whose PostToolUse context (from baton) holds `needle`.
fn first_told(turns: &[Request], needle: &str) -> Option<usize> {
    turns.iter().position(|turn| {
        turn.last_user_hook_context("PostToolUse:Bash")
            .iter()
            .any(|text| text.contains(needle))
    })
}

/// The main conversation's requests before the client's summary request, in order, and
/// whether a summary request came at all.
fn before_compaction(mock: &Mock) -> (Vec<Request>, bool) {
    let turns = mock.turns_of(PROMPT);
    let cut = turns.iter().position(is_summary_request);
    let compacted = cut.is_some();
    (turns[..cut.unwrap_or(turns.len())].to_vec(), compacted)
}

/// `N` in "about N more requests fit" (or "about 1 more request fits").
fn forecast_in(text: &str) -> Option<u64> {
    let rest = &text[text.find("), about ")? + "), about ".len()..];
    rest.split(' ').next()?.parse().ok()
}

#[test]
fn a_headless_warning_carries_a_forecast_the_client_then_keeps() {
    let sandbox = Sandbox::new("forecast-headless");
    settings(&sandbox, false);
    // 100k, 110k, 120k, 130k: the monitor warns after the Bash call of the 130k reply (35%
    // of the window left), with four requests of history.
    let mock = growing(100_000, &[]);
    let mut command = claude_command(&sandbox, &mock);
    command.args(["-p", PROMPT, "--allowedTools", "Bash", "--model", MODEL]);
    let output = output_within(command, Duration::from_secs(300));
    let (turns, compacted) = before_compaction(&mock);
    let described: Vec<String> = mock
        .requests()
        .iter()
        .map(|r| {
            format!(
                "{} turns={} summary={}",
                r.path,
                r.assistant_turns(),
                is_summary_request(r)
            )
        })
        .collect();
    assert!(
        output.status.success(),
        "claude -p exited with {}\nstderr: {}\nrequests: {described:#?}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(compacted, "the client never compacted; requests: {described:#?}");

    let warned_at = first_told(&turns, "CONTEXT WARNING");
    let warned_at = warned_at.unwrap_or_else(|| panic!("no warning reached the model; requests: {described:#?}"));
    let warning = turns[warned_at].last_user_hook_context("PostToolUse:Bash").join("\n");
    assert!(warning.contains("Usage at 65%."), "{warning}");
    assert_eq!(
        turns[warned_at].assistant_turns(),
        after_first_reply_at(100_000, 65),
        "the warning reaches the model in the request after the 130k reply's tool call: {warning}"
    );
    let forecast = forecast_in(&warning).unwrap_or_else(|| panic!("the warning has no forecast: {warning}"));
    assert!(warning.contains("about 10k tokens per request"), "{warning}");
    // The warned request and those after it, up to the compaction: what really fit.
    let truth = (turns.len() - warned_at) as u64;
    assert!(
        forecast.abs_diff(truth) <= 1,
        "forecast {forecast} requests, the client sent {truth} before compacting; warning: {warning}"
    );
}

/// The bridge file the statusline wrote for the session.
fn bridge(sandbox: &Sandbox) -> Option<Value> {
    let entries = fs::read_dir(&sandbox.tmp).ok()?;
    let path = entries.flatten().map(|e| e.path()).find(|p| {
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        name.starts_with("claude-ctx-")
            && name.ends_with(".json")
            && !name.contains("-warned")
            && !name.contains("-compactions")
    })?;
    serde_json::from_slice(&fs::read(Path::new(&path)).ok()?).ok()
}

/// `(percent, requests left)` from baton's statusline row: `… 90% ≈2 left`.
fn baton_forecast(screen: &str) -> Option<(u64, u64)> {
    let row = screen.lines().find(|line| line.contains("Sonnet 4.5 │"))?;
    let at = row.find(" left")?;
    let head = &row[..at];
    let (before, left) = head.rsplit_once(" ≈")?;
    let percent = before.rsplit_once(' ')?.1.strip_suffix('%')?;
    Some((percent.parse().ok()?, left.parse().ok()?))
}

/// The percentage beside baton's bar in a statusline row.
fn baton_percent(row: &str) -> Option<u64> {
    let bar_end = row.rfind('░').or_else(|| row.rfind('█'))?;
    let rest = row[bar_end..].split_once(' ')?.1;
    rest.split('%').next()?.trim().parse().ok()
}

/// `N` in Claude Code's own footer "N% until auto-compact".
fn footer_until_compact(screen: &str) -> Option<u64> {
    let end = screen.find("% until auto-compact")?;
    let digits: String = screen[..end].chars().rev().take_while(char::is_ascii_digit).collect();
    digits.chars().rev().collect::<String>().parse().ok()
}

#[test]
fn the_statusline_and_the_bridge_forecast_what_the_client_then_does() {
    let sandbox = Sandbox::new("forecast-statusline");
    sandbox.skip_first_run_dialogs(super::client::API_KEY);
    settings(&sandbox, true);
    // The first prompt: Bash at 100k … 140k, the answer at 150k (turn 5). The second: on
    // from 160k until the client compacts.
    let mock = growing(100_000, &[5]);
    let tmux = Tmux::start(&sandbox, &mock);
    tmux.submit(PROMPT, &mock);

    let shown = poll(LIMIT, || {
        baton_forecast(&tmux.screen()).filter(|(percent, _)| *percent == 90)
    });
    let screen = tmux.screen();
    let (percent, left) = shown.unwrap_or_else(|| panic!("no `90% ≈N left` from baton at 150k; screen:\n{screen}"));
    let recorded = bridge(&sandbox).unwrap_or_else(|| panic!("no bridge file in {}", sandbox.tmp.display()));
    assert_eq!(recorded["used_tokens"], 150_000, "{recorded}");
    assert_eq!(
        recorded["forecast"]["requests_left"], left,
        "the bridge and the line agree: {recorded}"
    );
    assert_eq!(recorded["forecast"]["tokens_per_request"], GROWTH, "{recorded}");
    // Claude Code's own footer counts down to the same limit (it competes with notices).
    let footer = poll(Duration::from_secs(30), || footer_until_compact(&tmux.screen()));
    if let Some(until) = footer {
        assert_eq!(
            percent,
            100 - until,
            "baton {percent}% against the footer's {until}% until auto-compact"
        );
    }

    // Go on: the requests the client sends before it compacts are the truth.
    tmux.type_text("keep going");
    tmux.press_enter();
    let compacted = poll(LIMIT, || before_compaction(&mock).1.then_some(()));
    let (turns, _) = before_compaction(&mock);
    assert!(
        compacted.is_some(),
        "the client never compacted; screen:\n{}",
        tmux.screen()
    );
    let truth = turns.iter().filter(|t| t.assistant_turns() > 5).count() as u64;
    assert!(
        left.abs_diff(truth) <= 1,
        "forecast {left}, the client sent {truth} more requests before compacting"
    );
    // Interactive, the statusline re-renders only now and then while tools this quick run, so
    // its bridge file is replies behind, and the client writes a reply to the transcript up to
    // ~150 ms after starting the hook of its tool call (2.1.332). Still the first warning that
    // reaches the model is the WARNING from the 130k reply's tool call, with that reply's figure
    // and the forecast from it; the first CRITICAL, from the 160k reply's (the 150k reply ended
    // the first prompt without a tool call).
    let told = |needle: &str| {
        let at = first_told(&turns, needle);
        at.map(|i| {
            (
                turns[i].assistant_turns(),
                turns[i].last_user_hook_context("PostToolUse:Bash").join("\n"),
            )
        })
    };
    let (warned_at, warning) =
        told("CONTEXT ").unwrap_or_else(|| panic!("no warning reached the model; screen:\n{}", tmux.screen()));
    assert!(
        warning.contains("CONTEXT WARNING: Usage at 65%. Remaining: 35%. (130k of 200k tokens in use.)"),
        "the first warning to reach the model, in request {warned_at}: {warning}"
    );
    assert_eq!(
        warned_at,
        after_first_reply_at(100_000, 65),
        "the first warning reaches the model right after the 130k reply's tool call: {warning}"
    );
    let (critical_at, critical) =
        told("CONTEXT CRITICAL").unwrap_or_else(|| panic!("no CRITICAL reached the model; screen:\n{}", tmux.screen()));
    assert!(critical.contains("Usage at 80%. Remaining: 20%."), "{critical}");
    assert_eq!(
        critical_at,
        after_first_reply_at(100_000, 80),
        "the CRITICAL reaches the model right after the 160k reply's tool call: {critical}"
    );
    let warned_at = turns.iter().position(|t| t.assistant_turns() == warned_at).unwrap();
    let forecast = forecast_in(&warning).unwrap_or_else(|| panic!("the warning has no forecast: {warning}"));
    let truth = (turns.len() - warned_at) as u64;
    assert!(
        forecast.abs_diff(truth) <= 1,
        "the warning's forecast {forecast}, the client sent {truth} requests from there; warning: {warning}"
    );
    // After the compaction the history restarts: no forecast beside the bar.
    let after = poll(LIMIT, || {
        let screen = tmux.screen();
        let row = screen.lines().find(|line| line.contains("Sonnet 4.5 │"))?.to_owned();
        let percent = baton_percent(&row)?;
        (percent < 50).then_some(row)
    });
    let row = after.unwrap_or_else(|| panic!("no statusline after the compaction; screen:\n{}", tmux.screen()));
    assert!(!row.contains('≈'), "a forecast right after the compaction: {row}");
}
