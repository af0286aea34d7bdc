//! baton's mod with the real client, the plugin loaded by `--plugin-dir` (its hooks and its
//! module both wired). On 2.1.332 the mod speaks: warnings from the client's own figures at the
//! tool call (the main agent's and a subagent's), once each, and the handoff in the next
//! subagent's task, and a warning names the largest items in the context as the hook's does;
//! the hooks stay quiet for the session. On 2.1.197, which has no mods, the
//! same runs get the same warnings and handoff from the hooks alone. `claude plugin validate`
//! and `claude plugin test` pass on the plugin (with 2.1.332 whatever the client under test).

use std::fs;
use std::path::Path;
use std::time::Duration;

use serde_json::{Value, json};

use super::client::{LATEST, isolate, latest_claude_bin, output_within, version};
use super::mock::{Block, Mock, Reply};
use super::plugin_dir::{run_headless, stage};
use super::request::Request;
use super::sandbox::Sandbox;
use super::window;

/// Where each client puts what baton says after a Bash call: the mod's `tool.call` context on
/// 2.1.332, the PostToolUse hook's on 2.1.197.
fn label() -> &'static str {
    if version() == LATEST {
        "tool.call hook additional context:"
    } else {
        "PostToolUse:Bash hook additional context:"
    }
}

/// The texts of the last user message of `request` that hold `needle`, counted once per
/// occurrence.
fn occurrences(request: &Request, needle: &str) -> usize {
    request
        .last_user_texts()
        .iter()
        .map(|text| text.matches(needle).count())
        .sum()
}

#[test]
fn warnings_come_at_calls_1_6_and_11_once_each_with_the_mod_and_the_hooks_wired() {
    const PROMPT: &str = "E2E-MOD-MAIN: run the twelve steps";
    let sandbox = Sandbox::new("mod-main");
    let steps: Vec<String> = (1..=12).map(|n| format!("echo step-{n}")).collect();
    let mock = Mock::start(move |request: &Request| match steps.get(request.assistant_turns()) {
        Some(step) => Reply::bash(140_000, step),
        None => Reply::text(140_000, "done"),
    });
    run_headless(&sandbox, &mock, PROMPT, "Bash");

    let turns = mock.turns_of(PROMPT);
    assert_eq!(turns.len(), 13, "requests: {:#?}", mock.describe());
    let mut warned = Vec::new();
    for (call, turn) in turns.iter().enumerate().skip(1) {
        let count = occurrences(turn, "CONTEXT WARNING: Usage at 70%. Remaining: 30%.");
        assert!(
            count <= 1,
            "call {call} warned {count} times: {:#?}",
            turn.last_user_texts()
        );
        if count == 1 {
            let from = occurrences(turn, &format!("{} CONTEXT WARNING", label()));
            assert_eq!(
                from,
                1,
                "call {call}: not from {:?}: {:#?}",
                label(),
                turn.last_user_texts()
            );
            warned.push(call);
        }
    }
    assert_eq!(warned, [1, 6, 11], "the debounce, once per warning");
}

/// The main agent (at 20k) runs one foreground subagent whose two Bash steps are at `sub_tokens`.
fn delegating(main_prompt: &'static str, sub_prompt: &'static str, sub_tokens: u64) -> Mock {
    Mock::start(move |request: &Request| {
        let turn = request.assistant_turns();
        if request.prompt().contains(sub_prompt) {
            return match turn {
                0 | 1 => Reply::bash(sub_tokens, &format!("echo sub-step-{turn}")),
                _ => Reply::text(sub_tokens, "Ran both steps."),
            };
        }
        let _ = main_prompt;
        match turn {
            0 => agent_call("two echo steps", sub_prompt, "general-purpose"),
            _ => Reply::text(20_000, "done"),
        }
    })
}

fn agent_call(description: &str, prompt: &str, kind: &str) -> Reply {
    Reply {
        input_tokens: 20_000,
        blocks: vec![Block::ToolUse {
            name: "Agent".into(),
            input: json!({"description": description, "prompt": prompt, "subagent_type": kind,
                          "run_in_background": false}),
        }],
    }
}

#[test]
fn a_subagent_is_warned_from_its_own_usage() {
    const MAIN: &str = "E2E-MOD-DELEGATE: delegate the steps";
    const SUB: &str = "E2E-MOD-SUB: run the two echo steps";
    let sandbox = Sandbox::new("mod-subagent");
    let mock = delegating(MAIN, SUB, 150_000);
    run_headless(&sandbox, &mock, MAIN, "Bash,Agent");

    let sub = mock.turns_of(SUB);
    assert_eq!(sub.len(), 3, "requests: {:#?}", mock.describe());
    let critical = "CONTEXT CRITICAL: Usage at 75%. Remaining: 25%.";
    assert_eq!(occurrences(&sub[1], critical), 1, "{:#?}", sub[1].last_user_texts());
    assert_eq!(occurrences(&sub[1], &format!("{} {critical}", label())), 1);
    let told = sub[1].last_user_texts().join("\n");
    assert!(told.contains("report back to the orchestrator"), "{told}");
    assert_eq!(
        occurrences(&sub[2], "CONTEXT "),
        0,
        "debounce: {:#?}",
        sub[2].last_user_texts()
    );
    for turn in mock.turns_of(MAIN) {
        let all = turn.all_texts().join("\n");
        assert!(!all.contains("CONTEXT "), "the main agent (at 10%) was warned: {all}");
    }
}

/// The session of [`window::read_then_run`], its context climbing to CRITICAL one Bash step
/// after the Read's result (125k, then 150k of 200k).
fn read_then_climb(path: String) -> Mock {
    Mock::start(move |request: &Request| {
        if request.prompt() != window::PROMPT {
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
            1 => Reply::bash(125_000, "echo checked1"),
            k @ 2..=3 => Reply::bash(150_000 + 100 * (k as u64 - 2), &format!("echo checked{k}")),
            _ => Reply::text(150_300, "done"),
        }
    })
}

#[test]
fn the_mods_warning_names_the_file_that_fills_the_context() {
    let sandbox = Sandbox::new("mod-largest");
    // 125k of 200k after the file was read (no warning yet), then 150k: the second Bash call's
    // warning is CRITICAL (25% left). The mod judges a call at once, and the client may not
    // have written the Read's result to the transcript by the first call after it.
    let mock = read_then_climb(window::project_with_a_dump(&sandbox));
    run_headless(&sandbox, &mock, window::PROMPT, "Bash,Read");

    let turns = mock.turns_of(window::PROMPT);
    let told: Vec<String> = turns.iter().flat_map(Request::last_user_texts).collect();
    let warning = told
        .iter()
        .find(|text| text.contains(&format!("{} CONTEXT CRITICAL", label())))
        .unwrap_or_else(|| panic!("{:#?}", mock.describe()));
    assert!(
        warning.contains("Largest in context: Read src/ledger_dump.sql 1"),
        "the model is told the file took ~130k: {warning}"
    );
}

const MIGRATION: &str = "CREATE TABLE accounts (\n  id bigserial PRIMARY KEY,\n  email text NOT NULL UNIQUE\n);\n";

#[test]
fn the_handoff_reaches_the_next_subagents_first_request_once() {
    const MAIN: &str = "E2E-MOD-HANDOFF: build accounts with the db and backend agents";
    const DB: &str = "E2E-MOD-DB: create the accounts table";
    const API: &str = "E2E-MOD-API: add the accounts endpoints";
    let sandbox = Sandbox::new("mod-handoff");
    for (name, what) in [
        ("db-coding-agent", "Writes SQL"),
        ("backend-coding-agent", "Writes the API"),
    ] {
        let path = sandbox.project.join(".claude/agents").join(format!("{name}.md"));
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(
            path,
            format!("---\nname: {name}\ndescription: {what}\ntools: Write, Read, Bash\n---\nYou are the {name}.\n"),
        )
        .unwrap();
    }
    crate::common::git_repo(&sandbox.project, &[("README.md", "# accounts\n")]);
    let migration = sandbox.project.join("db/migrations/001_accounts.sql");
    let write = json!({"file_path": migration, "content": MIGRATION});
    let mock = Mock::start(move |request: &Request| {
        let (turn, prompt) = (request.assistant_turns(), request.prompt());
        if prompt.contains(DB) {
            return match turn {
                0 => Reply {
                    input_tokens: 20_000,
                    blocks: vec![Block::ToolUse {
                        name: "Write".into(),
                        input: write.clone(),
                    }],
                },
                _ => Reply::text(20_000, "Created the accounts table."),
            };
        }
        if prompt.contains(API) {
            return Reply::text(20_000, "Endpoints planned.");
        }
        match turn {
            0 => agent_call("accounts table", DB, "db-coding-agent"),
            1 => agent_call("accounts API", API, "backend-coding-agent"),
            _ => Reply::text(20_000, "done"),
        }
    });
    run_headless(&sandbox, &mock, MAIN, "Agent,Write,Read,Bash");
    assert_eq!(fs::read_to_string(&migration).ok().as_deref(), Some(MIGRATION));

    // On 2.1.332 the task is the handoff and then the orchestrator's words.
    let api: Vec<Request> = mock
        .requests()
        .into_iter()
        .filter(|r| r.is_turn() && r.prompt().contains(API))
        .collect();
    let first = api
        .first()
        .unwrap_or_else(|| panic!("no backend agent: {:#?}", mock.describe()));
    let texts = first.all_texts().join("\n");
    assert_eq!(
        texts.matches("Handoff from db-coding-agent (db):").count(),
        1,
        "once: {texts}"
    );
    assert!(
        texts.contains("accounts [db/migrations/001_accounts.sql]: id bigserial PK, email TEXT NOT NULL UNIQUE"),
        "{texts}"
    );
    let by_hook = texts.contains("SubagentStart hook additional context: baton bridge:");
    if version() == LATEST {
        assert!(!by_hook, "the mod gave it with the task; the hook stays quiet: {texts}");
        assert!(
            first.prompt().starts_with("baton bridge:") && first.prompt().ends_with(API),
            "{}",
            first.prompt()
        );
    } else {
        assert!(by_hook, "2.1.197 has no mods: the hook gives it: {texts}");
    }
    let db = mock.turns_of(DB);
    assert!(
        db[0].all_texts().iter().all(|t| !t.contains("baton bridge")),
        "the first has no predecessor"
    );
}

/// Runs the latest client's `claude plugin <args>` (it alone has mods) on the staged plugin.
fn plugin_command(sandbox: &Sandbox, plugin: &Path, args: &[&str]) -> (bool, String) {
    let mut command = std::process::Command::new(latest_claude_bin());
    isolate(&mut command, &sandbox.home, &sandbox.tmp);
    command.current_dir(plugin).arg("plugin").args(args).arg(plugin);
    let output = output_within(command, Duration::from_secs(180));
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.success(), said)
}

#[test]
fn claude_plugin_validate_and_test_pass_on_the_plugin() {
    let sandbox = Sandbox::new("mod-validate");
    let plugin = stage(&sandbox);
    let (passed, said) = plugin_command(&sandbox, &plugin, &["validate", "--json"]);
    let report: Value = serde_json::from_str(said.trim()).unwrap_or_else(|e| panic!("{e}: {said}"));
    assert!(passed && report["success"] == true, "{said}");
    let contents = report["contents"].as_array().unwrap();
    let hooks = contents
        .iter()
        .find(|c| c["file"].as_str().is_some_and(|f| f.ends_with("hooks/hooks.json")))
        .unwrap();
    assert_eq!(hooks["errors"], json!([]), "{hooks:#}");
    let notes = hooks["notes"].to_string();
    for hooked in [
        "tool.call",
        "turn.step",
        "agent.spawn",
        "ui.render{component=AgentRow}",
        "$.process.run",
    ] {
        assert!(notes.contains(hooked), "the module hooks {hooked}: {notes}");
    }
    // A type error in the module is listed under its own file: there is none.
    let typed = contents
        .iter()
        .filter(|c| c["file"].as_str().is_some_and(|f| f.contains("/mod/")));
    assert_eq!(typed.count(), 0, "{said}");

    let (passed, said) = plugin_command(&sandbox, &plugin, &["test"]);
    assert!(passed, "claude plugin test failed:\n{said}");
    assert!(said.contains(" 0 fail") && !said.contains("(fail)"), "{said}");
}
