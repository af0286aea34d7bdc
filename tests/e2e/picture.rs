//! The scene of the README's picture, which `scripts/picture.py` runs and renders to SVG: the
//! real interactive client with the baton plugin and statusline, a model (the mock) that reads a
//! large file and runs commands while its context grows past the monitor's WARNING, then quotes
//! what it was told, with `/baton-window`'s chart open beside it. Not a check of baton (the other
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
        if !asked(request) {
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

/// Whether `request` is of the conversation the user started: its first user message is the
/// `/baton-window` command run before the prompt, so the prompt is looked for in every text.
fn asked(request: &Request) -> bool {
    request.is_turn() && request.all_texts().iter().any(|text| text.contains(PROMPT))
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
    // The chart is opened first, as a user watching the context would: it and the band above
    // the prompt are redrawn after each response, so both show the last one.
    let ready = poll(LIMIT, || tmux.screen().contains('❯').then_some(()));
    assert!(ready.is_some(), "no prompt; screen:\n{}", tmux.screen());
    tmux.type_text("/baton-window");
    thread::sleep(Duration::from_millis(500));
    tmux.press_enter();
    let opened = poll(LIMIT, || tmux.screen().contains("chart is open").then_some(()));
    assert!(opened.is_some(), "the chart did not open; screen:\n{}", tmux.screen());
    tmux.type_text(PROMPT);
    thread::sleep(Duration::from_millis(500));
    tmux.press_enter();
    let turns = || mock.requests().iter().filter(|request| asked(request)).count();
    let answered = poll(LIMIT, || (turns() >= CONTEXT.len()).then_some(()));
    assert!(answered.is_some(), "the turn never ended; screen:\n{}", tmux.screen());
    // Everything shows the last response: the warning quoted, the chart up to its request, and
    // the statusline and the band (asked of baton after it, each in its own time) at one figure.
    let last = format!("{}k", CONTEXT[CONTEXT.len() - 1] / 1000);
    let settled = |screen: &str| {
        screen.contains("told me: CONTEXT WARNING")
            && screen.contains("Largest in the live context")
            && screen.contains(&last)
            && percent_after(screen, "context │").is_some()
            && percent_after(screen, "context │") == percent_after(screen, "│ shop │")
    };
    let shown = poll(LIMIT, || settled(&tmux.screen()).then_some(()));
    assert!(
        shown.is_some(),
        "no warning, chart, or band and statusline at one figure; screen:\n{}",
        tmux.screen()
    );
    capture(&tmux, &out.join("screen.ansi"));
}

/// The first `NN%` after `marker` on the screen's row holding it.
fn percent_after<'s>(screen: &'s str, marker: &str) -> Option<&'s str> {
    let row = screen.lines().find(|row| row.contains(marker))?;
    let after = &row[row.find(marker)? + marker.len()..];
    after.split_whitespace().find(|word| word.ends_with('%'))
}
