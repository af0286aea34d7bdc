//! The scene of the README's picture, which `scripts/picture.py` runs and renders to SVG: the
//! real interactive client with the baton plugin and statusline, a model (the mock) that reads a
//! large file and runs commands while its context grows past the monitor's WARNING, then quotes
//! what it was told; `/baton-window` opens the chart beside it. Not a check of baton (the other
//! e2e tests are), so ignored: the suite never runs it. The screen, with its colours, goes to
//! `$BATON_PICTURE_DIR/screen.ansi`.

use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};
use std::thread;
use std::time::Duration;

use serde_json::{Value, json};

use super::client::{API_KEY, baton_command};
use super::mock::{Block, Mock, Reply};
use super::plugin_dir::stage;
use super::poll;
use super::request::Request;
use super::sandbox::Sandbox;
use super::tmux::{LIMIT, Tmux};
use super::window::project_with_a_dump;

const PROMPT: &str = "check the ledger import";
/// A current model (the e2e tests' Sonnet 4.5 gets a "retired" notice on screen).
const MODEL: &str = "claude-sonnet-4-6";
/// The terminal: wide enough for the conversation and the chart side by side.
const COLUMNS: &str = "120";
const ROWS: &str = "40";
/// The context each reply reports: the Read and the log add what they hold, the counts little;
/// the fifth crosses 130k of 200k (35% left), so baton warns after its command, by then with
/// the log among the largest items.
const CONTEXT: [u64; 6] = [60_000, 96_000, 99_000, 128_000, 131_000, 134_000];
/// What the model runs after reading the dump, one command a reply, and why.
const COMMANDS: [(&str, &str); 4] = [
    ("grep -c INSERT src/ledger_dump.sql", "Count the dump's rows"),
    ("cat logs/import.log", "Show the import log"),
    ("grep -c ' ok$' logs/import.log", "Count the rows imported ok"),
    ("tail -n 1 logs/import.log", "Show the last row imported"),
];

/// The project: the dump the model reads and the import's log it prints.
fn shop(sandbox: &Sandbox) -> String {
    let log: String = (0..1500)
        .map(|n| format!("2026-12-07 10:01:{:02} ledger row {n} imported ok\n", n % 60))
        .collect();
    fs::create_dir_all(sandbox.project.join("logs")).unwrap();
    fs::write(sandbox.project.join("logs/import.log"), log).unwrap();
    project_with_a_dump(sandbox)
}

/// The model: the Read, the commands, then an answer quoting the monitor.
fn model(dump: String) -> Mock {
    Mock::start(move |request: &Request| {
        if request.prompt() != PROMPT {
            return Reply::text(5_000, "ok");
        }
        let turn = request.assistant_turns();
        let tokens = CONTEXT[turn.min(CONTEXT.len() - 1)];
        match turn {
            0 => Reply {
                input_tokens: tokens,
                blocks: vec![Block::ToolUse {
                    name: "Read".into(),
                    input: json!({"file_path": dump}),
                }],
            },
            n if n <= COMMANDS.len() => {
                let (command, description) = COMMANDS[n - 1];
                let input = json!({"command": command, "description": description});
                Reply {
                    input_tokens: tokens,
                    blocks: vec![Block::ToolUse {
                        name: "Bash".into(),
                        input,
                    }],
                }
            }
            _ => Reply::text(tokens, &answer(request)),
        }
    })
}

/// The final answer, quoting the warning baton gave the model (the mock repeats it word for word).
fn answer(request: &Request) -> String {
    let texts = request.all_texts();
    let warning = texts
        .iter()
        .rev()
        .find_map(|text| text.find("CONTEXT ").map(|at| &text[at..]));
    let warning = warning.and_then(|w| w.lines().next()).unwrap_or("(none)");
    format!("All 1500 rows are imported and ok.\n\nWhile I worked, baton told me: {warning}")
}

/// Settings as a user of the plugin has them: baton's statusline (with the `largest` segment),
/// the commands allowed (by name: auto mode sets a bare `Bash` aside), and no first-run notices.
fn wire(sandbox: &Sandbox) {
    sandbox.skip_first_run_dialogs(API_KEY);
    let state_file = sandbox.home.join(".claude.json");
    let mut state: Value = serde_json::from_str(&fs::read_to_string(&state_file).unwrap()).unwrap();
    state["hasSeenAutoDefaultNotice"] = json!(true);
    fs::write(&state_file, state.to_string()).unwrap();
    let statusline = json!({"type": "command", "command": baton_command("statusline"), "padding": 0});
    let allow = json!(["Bash(grep:*)", "Bash(cat:*)", "Bash(tail:*)", "Read"]);
    sandbox.project_settings(&json!({"statusLine": statusline, "permissions": {"allow": allow}}));
    fs::create_dir_all(sandbox.project.join(".baton")).unwrap();
    fs::write(
        sandbox.project.join(".baton/config.json"),
        r#"{"statusline": {"segments": ["model", "dir", "context", "largest"]}}"#,
    )
    .unwrap();
}

/// Writes the pane, with its escape sequences, to `path`.
fn capture(tmux: &Tmux, path: &Path) {
    let screen = tmux.run(&["capture-pane", "-e", "-p", "-t", "e2e"]);
    assert!(screen.status.success(), "tmux capture-pane failed");
    fs::write(path, screen.stdout).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
}

#[test]
#[ignore = "makes the README's picture: run by scripts/picture.py"]
fn picture() {
    let out = std::env::var_os("BATON_PICTURE_DIR").expect("BATON_PICTURE_DIR: where the capture goes");
    let out = PathBuf::from(out);
    // The project sits in the client's HOME, so its header shows `~/shop`.
    let sandbox = Sandbox::at(out.join("scene"), "home/shop");
    wire(&sandbox);
    let mock = model(shop(&sandbox));
    let plugin = stage(&sandbox);
    let prefix = sandbox.root.join("prefix");
    let args = [
        OsStr::new("--plugin-dir"),
        plugin.as_os_str(),
        OsStr::new("--model"),
        OsStr::new(MODEL),
    ];
    let tmux = Tmux::start_with(&sandbox, &mock, &args, &[("BATON_PREFIX", &prefix)]);
    tmux.run(&["resize-window", "-t", "e2e", "-x", COLUMNS, "-y", ROWS]);
    tmux.submit(PROMPT, &mock);
    let answered = poll(LIMIT, || (mock.turns_of(PROMPT).len() >= CONTEXT.len()).then_some(()));
    assert!(answered.is_some(), "the turn never ended; screen:\n{}", tmux.screen());
    let quoted = poll(LIMIT, || {
        tmux.screen().contains("told me: CONTEXT WARNING").then_some(())
    });
    assert!(quoted.is_some(), "no warning on screen:\n{}", tmux.screen());

    tmux.type_text("/baton-window");
    thread::sleep(Duration::from_millis(500));
    tmux.press_enter();
    let charted = |screen: &str| screen.contains("Largest in the live context") && screen.contains("≈");
    let shown = poll(LIMIT, || charted(&tmux.screen()).then_some(()));
    assert!(shown.is_some(), "no chart and statusline; screen:\n{}", tmux.screen());
    // The band above the prompt comes back once the client redraws with the pane open.
    let band = poll(Duration::from_secs(45), || {
        tmux.screen().contains("context │").then_some(())
    });
    if band.is_none() {
        eprintln!("picture: the band above the prompt is not on screen");
    }
    capture(&tmux, &out.join("screen.ansi"));
}
