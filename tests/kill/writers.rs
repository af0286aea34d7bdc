//! Kill points of the project and temp-dir writers: the handoff (`pause`, `resume`), the
//! monitor's STATE.md note and debounce file, the statusline's bridge file, the agent ledger.

use std::path::PathBuf;

use serde_json::{Value, json};

use super::{Writer, json_where, none};
use crate::common::gsd;
use crate::common::*;

const SESSION: &str = "4106d464-75bb-44ee-b810-e0e678a180ac";
const AGENT: &str = "a9f371828cb2429bb";
/// A page an agent wrote in the phase directory: baton archives it, never loses it.
const FOREIGN_PAGE: &str = "# Continue here (written by the agent)\n\nWire DELETE /cart/:id next.\n";

fn planning(sandbox: &Sandbox) -> Vec<PathBuf> {
    vec![sandbox.project.join(".planning")]
}

fn no_stdin(_: &Sandbox) -> Vec<u8> {
    Vec::new()
}

fn nothing_more(_: &Sandbox) {}

#[track_caller]
fn succeeds(out: &Outcome) {
    assert_eq!(out.code, Some(0), "{out:?}");
}

/// A GSD project in git, paused once with a blocker and a human action, then given a page
/// of the agent's own in the current phase.
fn paused_project() -> Sandbox {
    let sandbox = Sandbox::new();
    gsd::write_project(&sandbox);
    gsd::git_init(&sandbox);
    let first = sandbox.run(
        &[
            "pause",
            "--blocker",
            "Staging is down",
            "--human-action",
            "Rotate the API key",
        ],
        b"",
    );
    succeeds(&first);
    sandbox.write(".planning/phases/03-cart/.continue-here.md", FOREIGN_PAGE);
    an_older_session(&sandbox);
    sandbox
}

/// Dates STATE.md's last session back, so that the next pause changes it even within the
/// same second (the number of writes, and so of kill points, must not depend on the clock).
fn an_older_session(sandbox: &Sandbox) {
    let path = sandbox.project.join(".planning/STATE.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let dated: Vec<String> = text
        .lines()
        .map(|l| match l.starts_with("Last session:") {
            true => "Last session: 2026-11-01T00:00:00Z".to_owned(),
            false => l.to_owned(),
        })
        .collect();
    std::fs::write(&path, dated.join("\n") + "\n").unwrap();
}

/// What a pause must never lose, whenever it is killed.
fn nothing_lost(sandbox: &Sandbox) {
    let handoff = sandbox.project.join(".planning/HANDOFF.json");
    let h: Value = serde_json::from_slice(&std::fs::read(&handoff).expect("HANDOFF.json must never be missing"))
        .expect("HANDOFF.json must always be whole");
    assert_eq!(h["blockers"].as_array().map(Vec::len), Some(2), "{h}");
    let everywhere = std::fs::read_dir(sandbox.project.join(".planning/handoffs"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .chain([sandbox.project.join(".planning/phases/03-cart/.continue-here.md")]);
    let kept = everywhere
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .any(|t| t == FOREIGN_PAGE);
    assert!(kept, "the agent's page must be in place or archived");
}

/// The next pause carries the first one's blocker and human action forward.
fn pause_again_carries_everything_forward(sandbox: &Sandbox) {
    succeeds(&sandbox.run(&["pause", "--note", "third"], b""));
    let h = sandbox.read_json(&sandbox.project.join(".planning/HANDOFF.json"));
    let text = h.to_string();
    assert!(
        text.contains("Staging is down") && text.contains("Rotate the API key"),
        "{h}"
    );
    let brief = sandbox.run(&["resume", "--keep"], b"");
    succeeds(&brief);
    assert!(brief.stdout.contains("Staging is down"), "{brief:?}");
}

#[test]
fn a_pause_killed_anywhere_keeps_the_handoff_and_the_next_pause_carries_it_forward() {
    let writer = Writer {
        name: "pause",
        setup: paused_project,
        args: &["pause", "--note", "second"],
        stdin: no_stdin,
        watched: planning,
        intermediate: none,
        after_kill: nothing_lost,
        recover: pause_again_carries_everything_forward,
    };
    writer.check(&[]);
}

/// After a resume is killed, the next one works and ends the pause.
fn resume_again_ends_the_pause(sandbox: &Sandbox) {
    let out = sandbox.run(&["resume"], b"");
    succeeds(&out);
    assert!(!sandbox.project.join(".planning/HANDOFF.json").exists());
    let state = std::fs::read_to_string(sandbox.project.join(".planning/STATE.md")).unwrap();
    assert!(state.contains("Resume file: None"), "{state}");
    let archived = std::fs::read_dir(sandbox.project.join(".planning/handoffs"))
        .unwrap()
        .flatten()
        .filter_map(|e| std::fs::read_to_string(e.path()).ok())
        .any(|t| t.contains("Staging is down"));
    assert!(archived, "the handoff is in the archive");
}

fn handoff_somewhere(sandbox: &Sandbox) {
    let planning = sandbox.project.join(".planning");
    let live = planning.join("HANDOFF.json").exists();
    let archived = std::fs::read_dir(planning.join("handoffs"))
        .into_iter()
        .flatten()
        .flatten()
        .any(|e| e.file_name().to_string_lossy().starts_with("HANDOFF-"));
    assert!(live || archived, "the handoff must be in place or archived");
}

#[test]
fn a_resume_killed_anywhere_leaves_the_handoff_in_place_or_archived() {
    let writer = Writer {
        name: "resume",
        setup: || {
            let sandbox = Sandbox::new();
            gsd::write_project(&sandbox);
            succeeds(&sandbox.run(&["pause", "--blocker", "Staging is down"], b""));
            sandbox
        },
        args: &["resume"],
        stdin: no_stdin,
        watched: planning,
        intermediate: none,
        after_kill: handoff_somewhere,
        recover: resume_again_ends_the_pause,
    };
    writer.check(&[]);
}

fn temp_and_planning(sandbox: &Sandbox) -> Vec<PathBuf> {
    vec![sandbox.tmp.clone(), sandbox.project.join(".planning")]
}

fn tool_use(sandbox: &Sandbox) -> Vec<u8> {
    post_tool_use(sandbox, SESSION, None).to_string().into_bytes()
}

/// The next tool call's hook keeps the contract and leaves a readable debounce file.
fn hook_again_works(sandbox: &Sandbox) {
    sandbox
        .hook(&post_tool_use(sandbox, SESSION, None))
        .assert_hook_contract();
    let state = sandbox.read_json(&sandbox.debounce_file(SESSION));
    assert!(state["callsSinceWarn"].is_number(), "{state}");
}

#[test]
fn the_monitors_critical_note_and_debounce_killed_anywhere_stay_whole() {
    let writer = Writer {
        name: "monitor CRITICAL (STATE.md note, debounce)",
        setup: || {
            let sandbox = Sandbox::new();
            gsd::write_project(&sandbox);
            sandbox.bridge(SESSION, 20, 0);
            sandbox
        },
        args: &["hook"],
        stdin: tool_use,
        watched: temp_and_planning,
        // The debounce file is written when the warning fires and again once the note is in STATE.md.
        intermediate: |key, text| key.ends_with("-warned.json") && json_where(text, |v| v["callsSinceWarn"] == 0),
        after_kill: nothing_more,
        recover: hook_again_works,
    };
    writer.check(&[]);
}

#[test]
fn the_debounce_counter_killed_anywhere_stays_whole() {
    let writer = Writer {
        name: "monitor debounce",
        setup: || {
            let sandbox = Sandbox::new();
            sandbox.bridge(SESSION, 30, 0);
            sandbox.hook(&post_tool_use(&sandbox, SESSION, None)).context_text();
            sandbox
        },
        args: &["hook"],
        stdin: tool_use,
        watched: |s| vec![s.tmp.clone()],
        intermediate: none,
        after_kill: nothing_more,
        recover: hook_again_works,
    };
    writer.check(&[]);
}

fn statusline_payload(sandbox: &Sandbox, used: u64) -> Value {
    let mut p = fixture("statusline-after-reply.json");
    p["cwd"] = json!(sandbox.project);
    p["workspace"]["current_dir"] = json!(sandbox.project);
    p["context_window"]["current_usage"]["input_tokens"] = json!(used);
    p
}

#[test]
fn the_bridge_file_killed_anywhere_stays_whole() {
    let writer = Writer {
        name: "statusline bridge",
        setup: || {
            let sandbox = Sandbox::new();
            sandbox
                .statusline(&statusline_payload(&sandbox, 60_000))
                .assert_one_line();
            sandbox
        },
        args: &["statusline"],
        stdin: |s| statusline_payload(s, 150_000).to_string().into_bytes(),
        watched: |s| vec![s.tmp.clone()],
        intermediate: none,
        after_kill: nothing_more,
        recover: |s| {
            s.statusline(&statusline_payload(s, 150_000)).assert_one_line();
            let bridge = s.read_json(&s.temp_file(SESSION, ".json"));
            assert_eq!(bridge["used_tokens"], 150_000, "{bridge}");
        },
    };
    writer.check(&[]);
}

fn subagent_stop(sandbox: &Sandbox) -> Value {
    let mut p = fixture("subagentstop.json");
    p["cwd"] = json!(sandbox.project);
    p["agent_id"] = json!(AGENT);
    p["last_assistant_message"] = json!("Added src/api.rs with the users route.");
    p
}

#[test]
fn the_agent_ledger_killed_anywhere_stays_whole() {
    let writer = Writer {
        name: "agent ledger (SubagentStop)",
        setup: || {
            let sandbox = Sandbox::new();
            git_repo(&sandbox.project, &[("src/lib.rs", "pub fn a() {}\n")]);
            let mut start = fixture("subagentstart.json");
            start["cwd"] = json!(sandbox.project);
            start["agent_id"] = json!(AGENT);
            sandbox.hook(&start).assert_hook_contract();
            sandbox.write("src/api.rs", "pub fn users() {}\n");
            sandbox
        },
        args: &["hook"],
        stdin: |s| subagent_stop(s).to_string().into_bytes(),
        watched: |s| vec![s.project.join(".baton")],
        // The stop is recorded, then the spot-check of its final message.
        intermediate: |key, text| key.ends_with(".json") && json_where(text, |v| v["status"] == "finished"),
        after_kill: nothing_more,
        recover: |s| {
            s.hook(&subagent_stop(s)).assert_hook_contract();
            let list = s.run(&["agents", "list", "--json"], b"");
            assert_eq!(list.code, Some(0), "{list:?}");
            assert!(list.stdout.contains(AGENT), "{list:?}");
        },
    };
    writer.check(&[]);
}
