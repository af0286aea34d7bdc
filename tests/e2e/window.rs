//! What fills the context, on what the real client wrote and told the model: the model (the
//! mock) reads a large file, then runs a command; `baton window` names the file and the
//! command, with each request's size as the usage the mock reported, and the monitor's
//! warning names the file to the model.

use serde_json::{Value, json};

use super::client::{MODEL, baton_command, claude_command, output_within};
use super::mock::{Block, Mock, Reply};
use super::request::Request;
use super::sandbox::Sandbox;

pub(crate) const PROMPT: &str = "look at the ledger dump";

/// A project with a 60 KB file the model reads.
pub(crate) fn project_with_a_dump(sandbox: &Sandbox) -> String {
    let dump = sandbox.project.join("src/ledger_dump.sql");
    std::fs::create_dir_all(dump.parent().unwrap()).unwrap();
    let rows: String = (0..1500)
        .map(|n| format!("INSERT INTO ledger VALUES ({n}, 'entry {n}');\n"))
        .collect();
    std::fs::write(&dump, rows).unwrap();
    dump.to_string_lossy().into_owned()
}

/// The model reads `path` at `first` tokens, runs a command at `second`, then answers.
pub(crate) fn read_then_run(path: String, first: u64, second: u64) -> Mock {
    Mock::start(move |request: &Request| {
        if request.prompt() != PROMPT {
            return Reply::text(5_000, "ok");
        }
        match request.assistant_turns() {
            0 => Reply {
                input_tokens: first,
                blocks: vec![Block::ToolUse {
                    name: "Read".into(),
                    input: json!({"file_path": path}),
                }],
            },
            // A few more steps: a hook that runs before the client wrote the reply it judges
            // leaves that call to the next one.
            k @ 1..=3 => Reply::bash(second + 100 * (k as u64 - 1), &format!("echo checked{k}")),
            _ => Reply::text(second + 300, "done"),
        }
    })
}

#[test]
fn e2e_window_names_the_file_and_the_command_that_filled_the_context() {
    let sandbox = Sandbox::new("window");
    let mock = read_then_run(project_with_a_dump(&sandbox), 20_000, 41_000);
    let mut command = claude_command(&sandbox, &mock);
    command.args(["-p", PROMPT, "--allowedTools", "Bash Read", "--model", MODEL]);
    let out = output_within(command, std::time::Duration::from_secs(150));
    assert!(
        out.status.success(),
        "claude -p failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );

    let out = std::process::Command::new(crate::common::baton_bin())
        .args(["window", "--json"])
        .env("HOME", &sandbox.home)
        .env("TMPDIR", &sandbox.tmp)
        .env_remove("CLAUDE_CONFIG_DIR")
        .current_dir(&sandbox.project)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "baton window: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
    let sizes: Vec<u64> = answer["requests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["context_tokens"].as_u64().unwrap())
        .collect();
    assert_eq!(sizes, [20_000, 41_000, 41_100, 41_200, 41_300], "{answer:#}");
    let grown = &answer["requests"][1]["items"][0];
    assert_eq!(
        (&grown["tool"], &grown["target"]),
        (&json!("Read"), &json!("src/ledger_dump.sql")),
        "{answer:#}"
    );
    assert!(
        grown["tokens"].as_i64().unwrap() > 15_000,
        "the file took most of the 21k: {answer:#}"
    );
    let last = answer["requests"][2]["items"].as_array().unwrap();
    assert!(
        last.iter()
            .any(|i| i["kind"] == "tool" && i["tool"] == "Bash" && i["target"] == "echo checked1"),
        "{answer:#}"
    );
    assert_eq!(answer["live"]["items"][0]["target"], "src/ledger_dump.sql");
}

#[test]
fn e2e_window_the_warning_tells_the_model_which_file_fills_its_context() {
    let sandbox = Sandbox::new("window-warning");
    let hook =
        json!([{"matcher": "*", "hooks": [{"type": "command", "command": baton_command("hook"), "timeout": 10}]}]);
    sandbox.project_settings(&json!({"permissions": {"allow": ["Bash", "Read"]}, "hooks": {"PostToolUse": hook}}));
    // 150k of 200k after the file was read: the Bash call's hook warns (CRITICAL, 25% left).
    let mock = read_then_run(project_with_a_dump(&sandbox), 20_000, 150_000);
    let mut command = claude_command(&sandbox, &mock);
    command.args(["-p", PROMPT, "--model", MODEL]);
    let out = output_within(command, std::time::Duration::from_secs(150));
    assert!(
        out.status.success(),
        "claude -p failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let turns = mock.turns_of(PROMPT);
    let told: Vec<String> = turns
        .iter()
        .flat_map(|t| t.last_user_hook_context("PostToolUse:Bash"))
        .collect();
    let warning = told
        .iter()
        .find(|text| text.contains("CONTEXT CRITICAL"))
        .unwrap_or_else(|| panic!("{:#?}", mock.describe()));
    assert!(
        warning.contains("Largest in context: Read src/ledger_dump.sql 1"),
        "the model is told the file took ~130k: {warning}"
    );
}
