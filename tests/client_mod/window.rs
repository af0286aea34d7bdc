//! The pane's chart (`window`): `baton window`'s view of the session's newest requests and the
//! largest items in its live context, fitted to the pane's columns and rows, as styled runs,
//! from the running walk the warnings keep (a second look reads only what was appended).

use serde_json::{Value, json};

use super::{SESSION, ask};
use crate::common::*;
use crate::window::a_working_session;

/// The pane's lines for `question`, each as its runs' texts joined, and the runs themselves.
fn chart(sandbox: &Sandbox, question: Value) -> (Vec<String>, Vec<Value>) {
    let mut question = question;
    question["event"] = json!("window");
    let answer = ask(sandbox, question);
    let lines = answer["lines"]
        .as_array()
        .unwrap_or_else(|| panic!("no lines: {answer}"));
    let texts = lines
        .iter()
        .map(|runs| {
            runs.as_array()
                .unwrap()
                .iter()
                .map(|r| r["text"].as_str().unwrap())
                .collect()
        })
        .collect();
    let runs = lines.iter().flat_map(|runs| runs.as_array().unwrap().clone()).collect();
    (texts, runs)
}

#[test]
fn the_pane_charts_each_request_and_names_the_largest_items() {
    let sandbox = Sandbox::new().env("NO_COLOR", "1");
    let transcript = a_working_session(&sandbox).write(&sandbox, SESSION);
    let (lines, runs) = chart(
        &sandbox,
        json!({"transcript_path": native(&transcript), "columns": 72, "rows": 40, "window": 200_000}),
    );
    let all = lines.join("\n");
    assert_eq!(lines[0], format!("Context of session {SESSION}"), "{all}");
    assert_eq!(lines[1], "claude-sonnet-4-5, window 200k, compacts at 180k", "{all}");
    let requests: Vec<&String> = lines.iter().filter(|l| l.starts_with("   ")).collect();
    assert_eq!(requests.len(), 4, "one line per request: {all}");
    assert!(
        requests[0].contains("20k") && requests[0].ends_with("baseline"),
        "{all}"
    );
    assert!(requests[1].contains("52k") && requests[1].contains("+32k"), "{all}");
    assert!(requests[1].contains("Read …"), "the request's largest item: {all}");
    let top = lines
        .iter()
        .position(|l| l == "Largest in the live context:")
        .expect(&all);
    assert!(
        lines[top + 1]
            .trim_start()
            .starts_with("Read src/billing/ledger_dump.sql"),
        "{all}"
    );
    // The bars and the items fit the pane; a longer sentence is the surface's to cut or slide.
    for line in requests.iter().copied().chain(&lines[top..top + 4]) {
        assert!(
            unicode_width::UnicodeWidthStr::width(line.as_str()) <= 72,
            "{line:?} is wider than the pane"
        );
    }
    assert!(runs.iter().all(|r| r.get("color").is_none()), "NO_COLOR: no colours");
    assert!(!all.contains('\u{1b}'), "a pane takes no escape sequences: {all:?}");
}

#[test]
fn the_bars_are_coloured_runs_unless_no_color_is_set() {
    let sandbox = Sandbox::new();
    a_working_session(&sandbox).write(&sandbox, SESSION);
    let (lines, runs) = chart(&sandbox, json!({"columns": 80}));
    assert!(!lines.join("").contains('\u{1b}'), "{lines:?}");
    let bars: Vec<&Value> = runs
        .iter()
        .filter(|r| r["text"].as_str().unwrap().contains('█'))
        .collect();
    assert_eq!(bars.len(), 4, "{runs:?}");
    assert!(
        bars.iter().all(|r| r["color"] == "green"),
        "far below the limit: {bars:?}"
    );
}

#[test]
fn a_short_pane_keeps_the_newest_requests_and_the_largest_item() {
    let sandbox = Sandbox::new().env("NO_COLOR", "1");
    a_working_session(&sandbox).write(&sandbox, SESSION);
    let (lines, _) = chart(&sandbox, json!({"columns": 80, "rows": 9}));
    let all = lines.join("\n");
    assert!(lines.len() <= 9, "{all}");
    assert!(!all.contains("baseline\n"), "the oldest request left out: {all}");
    assert!(all.contains("63k"), "the newest kept: {all}");
    assert!(all.contains("  Read src/billing/ledger_dump.sql"), "{all}");
    assert_eq!(chart(&sandbox, json!({"columns": 80, "rows": 1})).0.len(), 1);
}

#[test]
fn the_chart_follows_the_session_and_reads_only_what_was_appended() {
    let sandbox = Sandbox::new().env("NO_COLOR", "1");
    let mut session = a_working_session(&sandbox);
    let transcript = session.write(&sandbox, SESSION);
    chart(&sandbox, json!({"columns": 80}));
    let read = std::fs::metadata(&transcript).unwrap().len() as usize;

    session
        .reply(90_000, Some(("Bash", json!({"command": "cargo test"}))))
        .result(100_000)
        .reply(120_000, None);
    session.write(&sandbox, SESSION);
    // What the first look read is not read again: blanked out, the chart still has it.
    let mut grown = std::fs::read(&transcript).unwrap();
    grown[..read - 1].fill(b' ');
    std::fs::write(&transcript, grown).unwrap();
    let (lines, _) = chart(&sandbox, json!({"columns": 80}));
    let all = lines.join("\n");
    assert!(all.contains("120k") && all.contains("+30k"), "{all}");
    assert!(all.contains("Bash cargo test"), "{all}");
    assert!(all.contains("  Read src/billing/ledger_dump.sql"), "{all}");
}

#[test]
fn without_a_transcript_or_with_a_hostile_question_the_answer_is_empty() {
    let sandbox = Sandbox::new();
    assert_eq!(ask(&sandbox, json!({"event": "window", "columns": 80})), json!({}));
    a_working_session(&sandbox).write(&sandbox, SESSION);
    for hostile in [
        json!({"event": "window", "agent_id": "../../etc"}),
        json!({"event": "window", "session_id": "../x"}),
        json!({"event": "window", "transcript_path": "/nonexistent/t.jsonl"}),
        json!({"event": "window", "columns": "wide"}),
    ] {
        assert_eq!(ask(&sandbox, hostile.clone()), json!({}), "{hostile}");
    }
    let huge = ask(
        &sandbox,
        json!({"event": "window", "columns": 1_000_000_000u64, "rows": 5}),
    );
    assert!(huge["lines"].as_array().is_some_and(|l| l.len() <= 5), "{huge}");
}

#[test]
fn a_subagent_in_view_is_charted_from_its_own_transcript() {
    let sandbox = Sandbox::new().env("NO_COLOR", "1");
    let own = a_working_session(&sandbox).write(&sandbox, "scratch");
    let agent = "a8e2f0c4d6b1a3e5f";
    sandbox.subagent_transcript(SESSION, agent, &std::fs::read_to_string(own).unwrap());
    let mut main = crate::window::Session::new(&sandbox);
    main.prompt("delegate")
        .reply(30_000, None)
        .prompt("again")
        .reply(31_000, None);
    let transcript = main.write(&sandbox, SESSION);
    let asked = json!({"transcript_path": native(&transcript), "columns": 80});
    let (lines, _) = chart(&sandbox, asked.clone());
    assert!(
        !lines.join("\n").contains("ledger_dump"),
        "the main conversation's: {lines:?}"
    );
    let mut of_agent = asked;
    of_agent["agent_id"] = json!(agent);
    let all = chart(&sandbox, of_agent).0.join("\n");
    assert!(all.contains("Read src/billing/ledger_dump.sql"), "{all}");
    assert!(all.contains("63k"), "{all}");
}
