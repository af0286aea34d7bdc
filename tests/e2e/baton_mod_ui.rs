//! What baton's mod draws in the interactive client (tmux), the plugin loaded by `--plugin-dir`:
//! a running background subagent's row with its own context bar and requests left, and the band
//! above the prompt with the main conversation's, and the pane `/baton-window` opens, charting
//! the context request by request with the largest items. 2.1.197 has no mods: the plugin loads there
//! too, its hooks work, and nothing of the mod is drawn.

use std::ffi::OsStr;
use std::thread;
use std::time::Duration;

use serde_json::json;

use super::client::{LATEST, version};
use super::mock::{Block, Mock, Reply};
use super::plugin_dir::stage;
use super::poll;
use super::request::Request;
use super::sandbox::Sandbox;
use super::tmux::{LIMIT, Tmux};
use super::window;

const MAIN: &str = "E2E-MOD-UI: delegate the slow steps";
const SUB: &str = "E2E-MOD-UI-SUB: run the slow steps";

/// The subagent's requests: 100k, then 12k more each (62%, 69%, … of the 180k its model's
/// footer counts to), every answer held 3 s so its row stays on screen.
fn sub_reply(turn: usize) -> Reply {
    thread::sleep(Duration::from_secs(3));
    let tokens = 100_000 + 12_000 * turn as u64;
    if turn < 5 {
        Reply::bash(tokens, &format!("echo slow-{turn}"))
    } else {
        Reply::text(tokens, "Ran the slow steps.")
    }
}

#[test]
fn the_subagent_row_and_the_band_show_batons_figures() {
    let sandbox = Sandbox::new("mod-ui");
    sandbox.skip_first_run_dialogs(super::client::API_KEY);
    sandbox.project_settings(&json!({"permissions": {"allow": ["Bash(echo:*)"]}}));
    let plugin = stage(&sandbox);
    let mock = Mock::start(|request: &Request| {
        let turn = request.assistant_turns();
        if request.prompt().contains(SUB) {
            return sub_reply(turn);
        }
        match turn {
            0 => Reply {
                input_tokens: 30_000,
                blocks: vec![Block::ToolUse {
                    name: "Agent".into(),
                    input: json!({"description": "slow steps", "prompt": SUB, "subagent_type": "general-purpose"}),
                }],
            },
            n => Reply::text(30_000 + 1_000 * n as u64, "Started the steps."),
        }
    });
    let prefix = sandbox.root.join("prefix");
    let args = [OsStr::new("--plugin-dir"), plugin.as_os_str()];
    let tmux = Tmux::start_with(&sandbox, &mock, &args, &[("BATON_PREFIX", &prefix)]);
    tmux.submit(MAIN, &mock);

    if version() != LATEST {
        // No mods: the subagent runs (its hooks fire), and no row or band of baton's appears.
        let ran = poll(LIMIT, || (mock.turns_of(SUB).len() >= 3).then_some(()));
        assert!(ran.is_some(), "the subagent never ran; screen:\n{}", tmux.screen());
        let screen = tmux.screen();
        assert!(
            !screen.contains("context │"),
            "a band on a client without mods:\n{screen}"
        );
        return;
    }
    // The row: its type, its task, its own bar and, from its third request, its forecast
    // (124k: 69%, 12k a request, 5 more start below 180k).
    let row = poll(LIMIT, || {
        let screen = tmux.screen();
        let line = screen.lines().find(|l| l.contains("general-purpose │ slow steps │"))?;
        line.contains("≈").then(|| line.trim().to_owned())
    });
    let screen = tmux.screen();
    let row = row.unwrap_or_else(|| panic!("no subagent row with a forecast; screen:\n{screen}"));
    assert!(row.contains("% ≈"), "{row}");
    let shown: u8 = row
        .split('%')
        .next()
        .and_then(|head| head.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no percentage in {row:?}"));
    assert!((62..=100).contains(&shown), "{row}");
    // The band: the main conversation's bar (31k of 180k: 17%; 18% once it answered again).
    // Waited for on its own: on a loaded machine the client may draw the row a frame before it.
    let band = poll(LIMIT, || {
        let screen = tmux.screen();
        let band = screen.lines().find(|l| l.trim_start().starts_with("context │"))?;
        Some(band.to_owned())
    });
    let band = band.unwrap_or_else(|| panic!("no band above the prompt; screen:\n{}", tmux.screen()));
    assert!(band.contains("context │ █░░░░░░░░░ 1"), "{band}");
}

#[test]
fn the_baton_window_pane_charts_the_context_and_names_the_file_read() {
    if version() != LATEST {
        return; // no mods, no pane: `baton window` itself is tested in e2e::window
    }
    let sandbox = Sandbox::new("mod-pane");
    sandbox.skip_first_run_dialogs(super::client::API_KEY);
    sandbox.project_settings(&json!({"permissions": {"allow": ["Bash(echo:*)", "Read"]}}));
    let plugin = stage(&sandbox);
    let mock = window::read_then_run(window::project_with_a_dump(&sandbox), 20_000, 41_000);
    let prefix = sandbox.root.join("prefix");
    let args = [OsStr::new("--plugin-dir"), plugin.as_os_str()];
    let tmux = Tmux::start_with(&sandbox, &mock, &args, &[("BATON_PREFIX", &prefix)]);
    tmux.submit(window::PROMPT, &mock);
    let answered = poll(LIMIT, || (mock.turns_of(window::PROMPT).len() >= 5).then_some(()));
    assert!(answered.is_some(), "the turn never ended; screen:\n{}", tmux.screen());

    tmux.type_text("/baton-window");
    thread::sleep(Duration::from_millis(500));
    tmux.press_enter();
    let chart = poll(LIMIT, || {
        let screen = tmux.screen();
        (screen.contains("Largest in the live context") && screen.contains("41k")).then_some(screen)
    });
    let screen = chart.unwrap_or_else(|| panic!("no chart in a pane; screen:\n{}", tmux.screen()));
    assert!(screen.contains("Read src/ledger_dump.sql"), "{screen}");
    assert!(screen.contains("baseline"), "the first request: {screen}");
}
