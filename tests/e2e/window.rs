//! `baton window` on a transcript the real client wrote: the model (the mock) reads a large
//! file, then runs a command; baton names the file and the command as what filled the
//! context, with each request's size as the usage the mock reported.

use serde_json::{Value, json};

use super::client::{MODEL, claude_command, output_within};
use super::mock::{Block, Mock, Reply};
use super::request::Request;
use super::sandbox::Sandbox;

const PROMPT: &str = "look at the ledger dump";

#[test]
fn e2e_window_names_the_file_and_the_command_that_filled_the_context() {
    let sandbox = Sandbox::new("window");
    let dump = sandbox.project.join("src/ledger_dump.sql");
    std::fs::create_dir_all(dump.parent().unwrap()).unwrap();
    let rows: String = (0..1500)
        .map(|n| format!("INSERT INTO ledger VALUES ({n}, 'entry {n}');\n"))
        .collect();
    std::fs::write(&dump, rows).unwrap();
    let path = dump.to_string_lossy().into_owned();
    let mock = Mock::start(move |request: &Request| {
        if request.prompt() != PROMPT {
            return Reply::text(5_000, "ok");
        }
        match request.assistant_turns() {
            0 => Reply {
                input_tokens: 20_000,
                blocks: vec![Block::ToolUse {
                    name: "Read".into(),
                    input: json!({"file_path": path}),
                }],
            },
            1 => Reply::bash(41_000, "echo checked"),
            _ => Reply::text(41_300, "done"),
        }
    });
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
    assert_eq!(sizes, [20_000, 41_000, 41_300], "{answer:#}");
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
            .any(|i| i["tool"] == "Bash" && i["target"] == "echo checked"),
        "{answer:#}"
    );
    assert_eq!(answer["live"]["items"][0]["target"], "src/ledger_dump.sql");
}
