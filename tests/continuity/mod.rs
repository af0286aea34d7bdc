//! Session continuity through the built binary: progress, pause and resume on a realistic
//! GSD project (and broken ones), and the hooks that carry the brief across /clear and
//! compaction.

use serde_json::{Value, json};

use crate::common::gsd::{self, STATE_MD};
use crate::common::*;

fn project() -> Sandbox {
    let sandbox = Sandbox::new();
    gsd::write_project(&sandbox);
    sandbox
}

fn ok(out: &Outcome) -> &str {
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(out.stderr.is_empty(), "{out:?}");
    &out.stdout
}

fn json_of(out: &Outcome) -> Value {
    serde_json::from_str(ok(out)).unwrap_or_else(|e| panic!("not JSON ({e}): {}", out.stdout))
}

fn read(sandbox: &Sandbox, relative: &str) -> String {
    std::fs::read_to_string(sandbox.project.join(relative)).unwrap()
}

#[test]
fn progress_gives_position_next_command_and_one_completion_figure() {
    let sandbox = project();
    let text = sandbox.run(&["progress"], b"");
    let text = ok(&text);
    assert!(
        text.contains("Milestone v1.1 Checkout: 8% (0 of 4 phases, 1 of 4 plans)"),
        "{text}"
    );
    assert!(
        text.contains("Overall: 38% (2 of 6 phases, 4 of 7 plans done)"),
        "{text}"
    );
    assert!(
        text.contains("Position: phase 3 of 6 (Cart), plan 03-02 next (1 of 3 done); status executing"),
        "{text}"
    );
    assert!(
        text.contains("Last done: 2026-11-28 — Completed 03-01-PLAN.md"),
        "the body's line says more than the frontmatter's date: {text}"
    );
    assert!(text.contains("Next: /gsd:execute-phase 3"), "{text}");
    assert!(
        text.contains("- Payment provider sandbox account not approved yet"),
        "{text}"
    );

    let v = json_of(&sandbox.run(&["progress", "--json"], b""));
    assert_eq!(v["progress"]["percent"], 38);
    assert_eq!(v["progress"]["completed_plans"], 4);
    assert_eq!(v["progress"]["total_plans"], 7);
    assert_eq!(v["milestone_progress"]["total_phases"], 4);
    assert_eq!(v["position"]["phase"], "3");
    assert_eq!(v["position"]["plan"], "03-02");
    assert_eq!(v["next_action"]["command"], "/gsd:execute-phase 3");
    assert_eq!(v["blockers"][0], "Payment provider sandbox account not approved yet");
}

#[test]
fn progress_without_planning_says_what_to_do() {
    let sandbox = Sandbox::new();
    let out = sandbox.run(&["progress"], b"");
    assert_eq!(out.code, Some(1));
    assert!(
        out.stderr.contains("no .planning/ directory") && out.stderr.contains("/gsd:new-project"),
        "{}",
        out.stderr
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn progress_survives_broken_state_files() {
    for state in [
        "---\nmilestone: [unclosed\nstatus: executing\n---\nPhase: 3 of 6 (Cart)\n",
        "# Project State\r\n\r\nPhase: 3 of 6 (Cart)\r\nStatus: In progress\r\n",
        "---\n",
        "\u{0}\u{1}binary",
    ] {
        let sandbox = project();
        sandbox.write(".planning/STATE.md", state);
        let v = json_of(&sandbox.run(&["progress", "--json"], b""));
        assert_eq!(v["progress"]["percent"], 38, "{state:?}");
        assert_eq!(v["next_action"]["command"], "/gsd:execute-phase 3", "{state:?}");
    }
    // A roadmap that is not markdown at all: the phase directories still count.
    let sandbox = project();
    sandbox.write(".planning/ROADMAP.md", "\u{feff}<<<garbage>>>");
    let v = json_of(&sandbox.run(&["progress", "--json"], b""));
    assert_eq!(v["progress"]["total_phases"], 5);
}

#[test]
fn pause_writes_the_handoff_and_changes_only_batons_lines_in_state() {
    let sandbox = project();
    gsd::git_init(&sandbox);
    sandbox.write("src/cart.rs", "// work in progress\n");
    let out = sandbox.run(
        &[
            "pause",
            "--note",
            "Cart API half done: POST /cart works, DELETE does not",
            "--blocker",
            "human_action: sandbox account for the payment provider",
            "--human-action",
            "Approve the provider sandbox account",
            "--decision",
            "Quantities are integers",
            "--next",
            "Finish DELETE /cart/:id",
        ],
        b"",
    );
    let text = ok(&out);
    assert!(text.contains("Paused: Phase 3 (Cart), plan 03-02."), "{text}");

    let h: Value = serde_json::from_str(&read(&sandbox, ".planning/HANDOFF.json")).unwrap();
    assert_eq!(h["version"], "1.0");
    assert_eq!(h["status"], "paused");
    assert_eq!(h["generator"], "baton");
    assert_eq!(h["phase"], "3");
    assert_eq!(h["phase_name"], "Cart");
    assert_eq!(h["phase_dir"], ".planning/phases/03-cart");
    assert_eq!(h["plan"], "03-02");
    assert_eq!(h["completed_tasks"][0]["id"], "03-01");
    assert_eq!(h["remaining_tasks"][0]["status"], "in_progress");
    assert_eq!(
        h["blockers"][0]["description"],
        "Payment provider sandbox account not approved yet"
    );
    assert_eq!(h["blockers"][1]["type"], "human_action");
    assert_eq!(
        h["human_actions_pending"][0]["action"],
        "Approve the provider sandbox account"
    );
    assert_eq!(h["decisions"][0]["decision"], "Quantities are integers");
    assert_eq!(h["uncommitted_files"], json!(["src/cart.rs"]));
    assert_eq!(h["next_action"], "Finish DELETE /cart/:id");
    assert_eq!(
        h["context_notes"],
        "Cart API half done: POST /cart works, DELETE does not"
    );
    assert!(chrono::DateTime::parse_from_rfc3339(h["timestamp"].as_str().unwrap()).is_ok());

    let page = read(&sandbox, ".planning/phases/03-cart/.continue-here.md");
    assert!(
        page.starts_with("---\nphase: \"3\"\ntask: \"2\"\ntotal_tasks: \"3\"\nstatus: paused\n"),
        "{page}"
    );
    for section in [
        "## Current state",
        "## Completed work",
        "## Remaining work",
        "## Decisions",
        "## Blockers",
        "## Next action",
    ] {
        assert!(page.contains(section), "{section} missing:\n{page}");
    }

    // Every byte of STATE.md outside the fields baton owns is unchanged.
    let after = read(&sandbox, ".planning/STATE.md");
    let owned = [
        "stopped_at:",
        "paused_at:",
        "Last session:",
        "Stopped at:",
        "Resume file:",
    ];
    let foreign = |t: &str| -> Vec<String> {
        t.split_inclusive('\n')
            .filter(|l| !owned.iter().any(|o| l.starts_with(o)))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(foreign(&after), foreign(STATE_MD));
    assert!(after.contains("paused_at: \""), "{after}");
    assert!(after.contains("\nStopped at: Phase 3 (Cart), plan 03-02\n"), "{after}");
    assert!(
        after.contains("\nResume file: .planning/phases/03-cart/.continue-here.md\n"),
        "{after}"
    );
}

#[test]
fn pause_keeps_crlf_and_a_state_without_frontmatter() {
    let sandbox = project();
    let crlf = "# Project State\r\n\r\nPhase: 3 of 6 (Cart)\r\n\r\n## Session Continuity\r\n\r\nLast session: x\r\n";
    sandbox.write(".planning/STATE.md", crlf);
    ok(&sandbox.run(&["pause"], b""));
    let after = read(&sandbox, ".planning/STATE.md");
    assert!(
        after.starts_with(
            "# Project State\r\n\r\nPhase: 3 of 6 (Cart)\r\n\r\n## Session Continuity\r\n\r\nLast session: "
        ),
        "{after:?}"
    );
    assert!(
        !after.replace("\r\n", "").contains('\n'),
        "only CRLF line endings: {after:?}"
    );
    assert!(!after.contains("---"), "no frontmatter was invented: {after:?}");
}

#[test]
fn pause_takes_a_structured_handoff_and_refuses_an_invalid_one() {
    let sandbox = project();
    let structured = json!({"task": 2, "total_tasks": 4, "next_action": "Write the DELETE handler",
        "remaining_tasks": [{"id": 2, "name": "DELETE /cart/:id", "status": "in_progress"}],
        "blockers": [{"description": "Flaky CI", "type": "external", "workaround": "re-run"}]});
    ok(&sandbox.run(&["pause", "--json-in"], structured.to_string().as_bytes()));
    let h: Value = serde_json::from_str(&read(&sandbox, ".planning/HANDOFF.json")).unwrap();
    assert_eq!((h["task"].as_str(), h["total_tasks"].as_str()), (Some("2"), Some("4")));
    assert_eq!(h["remaining_tasks"][0]["name"], "DELETE /cart/:id");
    assert_eq!(
        h["blockers"],
        json!([{"description": "Flaky CI", "type": "external", "workaround": "re-run"}])
    );
    assert_eq!(h["phase"], "3", "computed fields stay when not given");

    let fresh = project();
    let bad = json!({"blockers": [{"description": "x", "type": "urgent"}], "human_actions_pending": [{"context": "no action"}]});
    let out = fresh.run(&["pause", "--json-in"], bad.to_string().as_bytes());
    assert_eq!(out.code, Some(1));
    assert!(
        out.stderr
            .contains("blockers[0].type must be one of technical, human_action, external"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("human_actions_pending[0] has no action"),
        "{}",
        out.stderr
    );
    assert!(!fresh.project.join(".planning/HANDOFF.json").exists());
    assert_eq!(read(&fresh, ".planning/STATE.md"), STATE_MD);
    let out = fresh.run(&["pause", "--json-in"], b"{truncated");
    assert_eq!(out.code, Some(1));
    assert!(out.stderr.contains("stdin is not JSON"), "{}", out.stderr);
}

#[test]
fn resume_puts_blockers_and_human_actions_first_then_archives() {
    let sandbox = project();
    gsd::git_init(&sandbox);
    sandbox.write("src/cart.rs", "// wip\n");
    sandbox.write("src/old.rs", "// wip\n");
    ok(&sandbox.run(
        &[
            "pause",
            "--human-action",
            "Approve the sandbox account",
            "--note",
            "DELETE next",
        ],
        b"",
    ));
    // After the pause: one file committed, another newly changed.
    std::fs::remove_file(sandbox.project.join("src/old.rs")).unwrap();
    sandbox.write("src/new.rs", "// new\n");

    let out = sandbox.run(&["resume"], b"");
    let text = ok(&out);
    let blockers = text.find("BLOCKERS:").expect("blockers section");
    let actions = text.find("HUMAN ACTIONS PENDING:").expect("human actions section");
    let position = text.find("Position:").expect("position");
    assert!(blockers < position && actions < position, "{text}");
    assert!(text.contains("Approve the sandbox account (blocking)"), "{text}");
    assert!(text.contains("Position: Phase 3 (Cart), plan 03-02"), "{text}");
    assert!(text.contains("In progress: Plan 03-02"), "{text}");
    assert!(
        text.contains("src/old.rs: uncommitted at the pause, clean now"),
        "{text}"
    );
    assert!(text.contains("src/new.rs: uncommitted now, not at the pause"), "{text}");
    assert!(
        !text.contains("HANDOFF.json: uncommitted"),
        "baton's own files are not reported: {text}"
    );
    assert!(!sandbox.project.join(".planning/HANDOFF.json").exists());
    let archived: Vec<String> = std::fs::read_dir(sandbox.project.join(".planning/handoffs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(archived.len(), 2, "{archived:?}");
    assert!(
        !read(&sandbox, ".planning/STATE.md").contains("paused_at: \""),
        "the pause is over"
    );

    // With the handoff archived, resume falls back to the state files and says so.
    let text = sandbox.run(&["resume", "--json"], b"");
    let v = json_of(&text);
    assert_eq!(v["source"], "state");
    assert_eq!(v["fallback_reason"], "there is no .planning/HANDOFF.json");
}

#[test]
fn a_truncated_handoff_falls_back_to_the_state_files_and_is_kept() {
    let sandbox = project();
    let truncated =
        "{\"version\":\"1.0\",\"timestamp\":\"2026-11-30T10:00:00Z\",\"phase\":\"3\",\"blockers\":[{\"descr";
    sandbox.write(".planning/HANDOFF.json", truncated);
    let text = sandbox.run(&["resume"], b"");
    let text = ok(&text);
    assert!(
        text.starts_with("Resuming from the state files, because the handoff could not be used:"),
        "{text}"
    );
    assert!(text.contains("HANDOFF.json: not a readable handoff"), "{text}");
    assert!(
        text.contains("- [technical] Payment provider sandbox account not approved yet"),
        "{text}"
    );
    assert_eq!(
        read(&sandbox, ".planning/HANDOFF.json"),
        truncated,
        "the user's file is kept as it was"
    );
}

#[test]
fn resume_with_nothing_to_resume_says_what_to_do() {
    let sandbox = Sandbox::new();
    let out = sandbox.run(&["resume"], b"");
    assert_eq!(out.code, Some(1));
    assert!(
        out.stderr.contains("nothing to resume") && out.stderr.contains("baton pause"),
        "{}",
        out.stderr
    );
}

fn session_start_context(sandbox: &Sandbox, source: &str) -> Option<String> {
    let out = sandbox.hook(&session_start(sandbox, "s-1", source));
    out.assert_hook_contract();
    let text = out.stdout.trim();
    if text.is_empty() {
        return None;
    }
    let v: Value = serde_json::from_str(text).unwrap();
    assert_eq!(v["hookSpecificOutput"]["hookEventName"], "SessionStart");
    Some(
        v["hookSpecificOutput"]["additionalContext"]
            .as_str()
            .unwrap()
            .to_owned(),
    )
}

#[test]
fn session_start_injects_the_brief_for_every_source() {
    let sandbox = project();
    assert_eq!(
        session_start_context(&sandbox, "startup"),
        None,
        "nothing paused, nothing said"
    );
    ok(&sandbox.run(
        &[
            "pause",
            "--blocker",
            "human_action: need the API key",
            "--human-action",
            "Create the API key",
        ],
        b"",
    ));
    for source in ["startup", "resume", "clear", "compact"] {
        let text = session_start_context(&sandbox, source).unwrap_or_else(|| panic!("no brief at {source}"));
        let blocker = text.find("need the API key").unwrap();
        let action = text.find("Create the API key (blocking)").unwrap();
        let position = text.find("Position:").unwrap();
        assert!(blocker < position && action < position, "{text}");
    }
    assert!(
        sandbox.project.join(".planning/HANDOFF.json").exists(),
        "a person's handoff waits for `baton resume`"
    );
}

#[test]
fn pre_compact_leaves_a_breadcrumb_that_the_next_session_start_delivers_once() {
    let sandbox = project();
    let mut pre = session_start(&sandbox, "s-1", "compact");
    pre["hook_event_name"] = json!("PreCompact");
    pre["trigger"] = json!("auto");
    let out = sandbox.hook(&pre);
    out.assert_hook_contract();
    assert_eq!(out.stdout, "");
    let h: Value = serde_json::from_str(&read(&sandbox, ".planning/HANDOFF.json")).unwrap();
    assert_eq!(h["trigger"], "pre-compact");
    assert!(
        !read(&sandbox, ".planning/STATE.md").contains("paused_at:"),
        "a breadcrumb is not a pause"
    );

    let text = session_start_context(&sandbox, "compact").expect("the breadcrumb is delivered after compaction");
    assert!(text.contains("Position: Phase 3 (Cart), plan 03-02"), "{text}");
    assert!(
        !sandbox.project.join(".planning/HANDOFF.json").exists(),
        "delivered once, then archived"
    );
    assert_eq!(session_start_context(&sandbox, "startup"), None);

    // A person's handoff is never overwritten by a breadcrumb.
    ok(&sandbox.run(&["pause", "--note", "mine"], b""));
    sandbox.hook(&pre).assert_hook_contract();
    let h: Value = serde_json::from_str(&read(&sandbox, ".planning/HANDOFF.json")).unwrap();
    assert_eq!(
        (h["trigger"].as_str(), h["context_notes"].as_str()),
        (Some("manual"), Some("mine"))
    );
}

#[test]
fn the_first_critical_records_where_work_stopped_once() {
    let sandbox = project();
    let session = "critical-session";
    sandbox.bridge(session, 30, 0);
    assert!(
        sandbox
            .hook(&post_tool_use(&sandbox, session, None))
            .context_text()
            .starts_with("CONTEXT WARNING")
    );
    assert_eq!(
        read(&sandbox, ".planning/STATE.md"),
        STATE_MD,
        "a warning records nothing"
    );
    sandbox.bridge(session, 20, 0);
    assert!(
        sandbox
            .hook(&post_tool_use(&sandbox, session, None))
            .context_text()
            .starts_with("CONTEXT CRITICAL")
    );
    let today = chrono::Utc::now().format("%Y-%m-%d").to_string();
    let note = format!("context exhaustion at 80% ({today})");
    let after = read(&sandbox, ".planning/STATE.md");
    assert!(after.contains(&format!("stopped_at: \"{note}\"\n")), "{after}");
    assert!(after.contains(&format!("\nStopped at: {note}\n")), "{after}");
    // Later criticals do not rewrite it.
    sandbox.write(".planning/STATE.md", STATE_MD);
    for _ in 0..6 {
        sandbox
            .hook(&post_tool_use(&sandbox, session, None))
            .assert_hook_contract();
    }
    assert_eq!(read(&sandbox, ".planning/STATE.md"), STATE_MD);
}

#[test]
fn slash_commands_shell_out_to_baton_with_the_users_arguments() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("commands");
    for (file, command) in [
        ("pause-work.md", "pause"),
        ("resume-work.md", "resume"),
        ("progress.md", "progress"),
    ] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        assert!(text.starts_with("---\ndescription: "), "{file}");
        assert!(text.contains("allowed-tools: Bash(baton:*)"), "{file}");
        assert!(text.contains(&format!("!`baton {command} $ARGUMENTS`")), "{file}");
    }
}

#[test]
fn progress_on_two_hundred_phases_and_two_thousand_plans() {
    let sandbox = Sandbox::new();
    let mut roadmap = String::from("# Roadmap\n\n## v1.0\n\n");
    for phase in 1..=200 {
        roadmap.push_str(&format!("- [ ] **Phase {phase}: Phase number {phase}**\n"));
        let dir = format!(".planning/phases/{phase:03}-p{phase}");
        for plan in 1..=10 {
            sandbox.write(&format!("{dir}/{phase:03}-{plan:02}-PLAN.md"), "x");
            if phase <= 50 || (phase == 51 && plan <= 5) {
                sandbox.write(&format!("{dir}/{phase:03}-{plan:02}-SUMMARY.md"), "x");
            }
        }
    }
    sandbox.write(".planning/ROADMAP.md", &roadmap);
    let v = json_of(&sandbox.run(&["progress", "--json"], b""));
    assert_eq!(v["progress"]["total_phases"], 200);
    assert_eq!(v["progress"]["total_plans"], 2000);
    assert_eq!(v["progress"]["completed_plans"], 505);
    assert_eq!(v["progress"]["percent"], 25); // (50 + 0.5) / 200 = 25.25%
    assert_eq!(v["next_action"]["command"], "/gsd:execute-phase 51");
    assert_eq!(v["position"]["plan"], "051-06");
}

/// Runs baton in `dir` (below the sandbox's project) with the sandbox's environment.
fn run_in(sandbox: &Sandbox, dir: &std::path::Path, args: &[&str]) -> Outcome {
    let started = std::time::Instant::now();
    let out = sandbox
        .command(args)
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    Outcome {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        elapsed: started.elapsed(),
    }
}

fn archived(sandbox: &Sandbox) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(sandbox.project.join(".planning/handoffs"))
        .map(|d| {
            d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// A handoff as GSD writes it: fields baton does not know, numeric ids, nulls, a task as text.
const GSD_HANDOFF: &str = r#"{"version":"1.0","timestamp":"2026-11-29T18:00:00Z","phase":3,"phase_name":"Cart","plan":2,
 "task":1,"total_tasks":3,"status":"paused","git_branch":"feat/cart","session_id":"gsd-1","resume_command":"/gsd:resume-work",
 "completed_tasks":[{"id":1,"name":"Model","status":"done","commit":"abc1234","files":["src/cart.rs"]}],
 "remaining_tasks":["Wire the DELETE route",{"id":3,"name":"UI","status":"pending","progress":"0%"}],
 "blockers":[{"description":"Staging is down","type":"external","workaround":null}],
 "human_actions_pending":[{"action":"Rotate the API key","context":"leaked","blocking":null}],
 "decisions":[{"decision":"Carts expire after 30 days","rationale":"storage","phase":3}],
 "uncommitted_files":null,"next_action":"Finish the DELETE route","context_notes":null}"#;

#[test]
fn a_gsd_handoff_is_read_despite_nulls_and_text_tasks() {
    let sandbox = project();
    sandbox.write(".planning/HANDOFF.json", GSD_HANDOFF);
    let v = json_of(&sandbox.run(&["resume", "--json", "--keep"], b""));
    assert_eq!(v["source"], "handoff", "{v}");
    assert_eq!(v["in_progress"], "Wire the DELETE route");
    assert_eq!(v["human_actions"][0], "Rotate the API key — leaked");
}

#[test]
fn pause_over_a_handoff_archives_it_and_carries_its_lists_forward() {
    let sandbox = project();
    sandbox.write(".planning/HANDOFF.json", GSD_HANDOFF);
    let text = sandbox.run(&["pause", "--note", "second"], b"");
    assert!(
        ok(&text).contains("Archived what was there before: .planning/handoffs/HANDOFF-"),
        "{text:?}"
    );
    let names = archived(&sandbox);
    assert_eq!(names.len(), 1, "{names:?}");
    assert_eq!(
        read(&sandbox, &format!(".planning/handoffs/{}", names[0])),
        GSD_HANDOFF,
        "the old handoff is kept byte for byte"
    );
    let h: Value = serde_json::from_str(&read(&sandbox, ".planning/HANDOFF.json")).unwrap();
    let blockers: Vec<&str> = h["blockers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["description"].as_str().unwrap())
        .collect();
    assert_eq!(
        blockers,
        ["Payment provider sandbox account not approved yet", "Staging is down"]
    );
    assert_eq!(h["human_actions_pending"][0]["action"], "Rotate the API key");
    assert_eq!(h["decisions"][0]["decision"], "Carts expire after 30 days");
    assert_eq!(h["context_notes"], "second");

    // Again within the same second: a second archive, nothing overwritten, nothing doubled.
    ok(&sandbox.run(&["pause"], b""));
    ok(&sandbox.run(&["pause"], b""));
    let names = archived(&sandbox);
    assert_eq!(
        names.iter().filter(|n| n.starts_with("HANDOFF-")).count(),
        3,
        "{names:?}"
    );
    let h: Value = serde_json::from_str(&read(&sandbox, ".planning/HANDOFF.json")).unwrap();
    assert_eq!(h["blockers"].as_array().unwrap().len(), 2, "{h}");
    assert_eq!(h["human_actions_pending"].as_array().unwrap().len(), 1, "{h}");

    // Lists given on stdin replace what came before.
    let given = json!({"blockers": [], "human_actions_pending": []});
    ok(&sandbox.run(&["pause", "--json-in"], given.to_string().as_bytes()));
    let h: Value = serde_json::from_str(&read(&sandbox, ".planning/HANDOFF.json")).unwrap();
    assert_eq!(
        (h["blockers"].clone(), h["human_actions_pending"].clone()),
        (json!([]), json!([]))
    );
    assert_eq!(h["decisions"][0]["decision"], "Carts expire after 30 days");
}

#[test]
fn fields_baton_does_not_know_are_kept_and_numeric_ids_stay_numbers() {
    let sandbox = project();
    let given = json!({"git_branch": "feat/cart", "resume_command": "/gsd:resume-work",
        "remaining_tasks": [{"id": 7, "name": "Routes", "status": "in_progress", "files": ["src/routes.rs"]}],
        "blockers": [{"description": "Flaky CI", "type": "external", "owner": "ops"}]});
    ok(&sandbox.run(&["pause", "--json-in"], given.to_string().as_bytes()));
    let h: Value = serde_json::from_str(&read(&sandbox, ".planning/HANDOFF.json")).unwrap();
    assert_eq!(h["git_branch"], "feat/cart");
    assert_eq!(h["resume_command"], "/gsd:resume-work");
    assert_eq!(h["remaining_tasks"][0]["id"], 7);
    assert_eq!(h["remaining_tasks"][0]["files"], json!(["src/routes.rs"]));
    assert_eq!(h["blockers"][0]["owner"], "ops");
}

#[test]
fn a_continue_here_baton_did_not_write_is_archived_not_overwritten() {
    let sandbox = project();
    let mine = "# Notes the agent left\n\nThe DELETE route needs a soft delete.\n";
    sandbox.write(".planning/phases/03-cart/.continue-here.md", mine);
    ok(&sandbox.run(&["pause"], b""));
    let names = archived(&sandbox);
    assert_eq!(names.len(), 1, "{names:?}");
    assert!(names[0].starts_with("continue-here-03-cart-"), "{names:?}");
    assert_eq!(read(&sandbox, &format!(".planning/handoffs/{}", names[0])), mine);
    let page = read(&sandbox, ".planning/phases/03-cart/.continue-here.md");
    assert!(page.contains("\ngenerator: baton\n"), "{page}");

    // The PreCompact breadcrumb replaces baton's own page without archiving it again.
    std::fs::remove_file(sandbox.project.join(".planning/HANDOFF.json")).unwrap();
    let mut pre = session_start(&sandbox, "s-1", "compact");
    pre["hook_event_name"] = json!("PreCompact");
    sandbox.hook(&pre).assert_hook_contract();
    assert_eq!(archived(&sandbox).len(), 1);
    // … but an agent's page, even then.
    sandbox.write(".planning/phases/03-cart/.continue-here.md", mine);
    sandbox.hook(&pre).assert_hook_contract();
    let names = archived(&sandbox);
    assert_eq!(
        names.iter().filter(|n| n.starts_with("continue-here-")).count(),
        2,
        "{names:?}"
    );
}

#[test]
fn an_unclosed_frontmatter_never_gets_batons_fields_in_the_body() {
    let sandbox = project();
    let state = "---\nstatus: executing\n\n# Project State\n\n```yaml\n---\nkey: value\n```\n\n\
                 ## Session Continuity\n\nStopped at: x\n";
    sandbox.write(".planning/STATE.md", state);
    ok(&sandbox.run(&["pause"], b""));
    let after = read(&sandbox, ".planning/STATE.md");
    assert!(after.contains("```yaml\n---\nkey: value\n```\n"), "{after}");
    assert!(!after.contains("paused_at"), "{after}");

    let bom = format!("\u{feff}{STATE_MD}");
    sandbox.write(".planning/STATE.md", &bom);
    ok(&sandbox.run(&["pause"], b""));
    let after = read(&sandbox, ".planning/STATE.md");
    assert!(after.starts_with("\u{feff}---\n"), "the BOM stays");
    let frontmatter = after.split("\n---\n").next().unwrap();
    assert!(frontmatter.contains("\npaused_at: \""), "{after}");
}

#[test]
fn a_state_that_is_not_utf8_is_left_alone_and_the_handoff_is_still_saved() {
    let sandbox = project();
    let bytes = b"---\nstatus: executing\n---\n\n## Session Continuity\n\nStopped at: caf\xe9\n".to_vec();
    std::fs::write(sandbox.project.join(".planning/STATE.md"), &bytes).unwrap();
    let out = sandbox.run(&["pause"], b"");
    let text = ok(&out);
    assert!(text.contains("Wrote .planning/HANDOFF.json"), "{text}");
    assert!(
        text.contains("Warning: the handoff was saved, but STATE.md was not updated") && text.contains("not UTF-8"),
        "{text}"
    );
    assert_eq!(
        std::fs::read(sandbox.project.join(".planning/STATE.md")).unwrap(),
        bytes
    );
}

#[test]
fn resuming_from_the_state_files_ends_the_pause() {
    let sandbox = project();
    let paused = STATE_MD
        .replace(
            "status: executing\n",
            "status: executing\npaused_at: \"2026-11-29T18:00:00Z\"\n",
        )
        .replace(
            "Resume file: None",
            "Resume file: .planning/phases/03-cart/.continue-here.md",
        );
    sandbox.write(".planning/STATE.md", &paused);
    assert!(
        session_start_context(&sandbox, "startup").is_some(),
        "paused work is announced"
    );
    let v = json_of(&sandbox.run(&["resume", "--json"], b""));
    assert_eq!(v["source"], "state");
    let after = read(&sandbox, ".planning/STATE.md");
    assert!(after.contains("\npaused_at: null\n"), "{after}");
    assert!(after.contains("\nResume file: None\n"), "{after}");
    assert_eq!(session_start_context(&sandbox, "startup"), None, "not paused forever");

    // After a resume from a handoff too, the archived page is no longer the resume file.
    ok(&sandbox.run(&["pause"], b""));
    assert!(read(&sandbox, ".planning/STATE.md").contains("Resume file: .planning/phases/03-cart/.continue-here.md"));
    ok(&sandbox.run(&["resume"], b""));
    assert!(read(&sandbox, ".planning/STATE.md").contains("\nResume file: None\n"));
}

#[test]
fn pause_outside_a_gsd_project_says_where_and_invents_no_gsd_step() {
    let sandbox = Sandbox::new();
    let out = sandbox.run(&["pause", "--note", "halfway"], b"");
    let text = ok(&out);
    assert!(text.starts_with("Paused in "), "{text}");
    assert!(!text.contains("Paused: Paused") && !text.contains("/gsd:"), "{text}");
    let h: Value = serde_json::from_str(&read(&sandbox, ".planning/HANDOFF.json")).unwrap();
    assert_eq!(h["next_action"], Value::Null);
}

#[test]
fn a_breadcrumb_is_consumed_only_by_the_session_that_wrote_it() {
    let sandbox = project();
    let mut pre = session_start(&sandbox, "s-1", "compact");
    pre["hook_event_name"] = json!("PreCompact");
    sandbox.hook(&pre).assert_hook_contract();
    let h: Value = serde_json::from_str(&read(&sandbox, ".planning/HANDOFF.json")).unwrap();
    assert_eq!(h["session_id"], "s-1");

    let other = sandbox.hook(&session_start(&sandbox, "s-2", "startup"));
    other.assert_hook_contract();
    assert!(other.stdout.contains("Position: Phase 3 (Cart)"), "{other:?}");
    assert!(
        sandbox.project.join(".planning/HANDOFF.json").exists(),
        "another session leaves the breadcrumb"
    );
    assert!(session_start_context(&sandbox, "compact").is_some());
    assert!(
        !sandbox.project.join(".planning/HANDOFF.json").exists(),
        "its own session consumes it"
    );
}

#[test]
fn phases_listed_only_in_the_roadmaps_progress_table_count() {
    let sandbox = Sandbox::new();
    sandbox.write(
        ".planning/ROADMAP.md",
        "# Roadmap\n\n## Progress\n\n| Phase | Plans Complete | Status | Completed |\n|---|---|---|---|\n\
         | 1. Setup | 1/1 | Complete | 2026-11-05 |\n| 2. Cart | 0/2 | In progress | - |\n",
    );
    let v = json_of(&sandbox.run(&["progress", "--json"], b""));
    assert_eq!(v["progress"]["total_phases"], 2, "{v}");
    assert_eq!(v["progress"]["completed_phases"], 1);
    assert_eq!(v["progress"]["percent"], 50);
    assert_eq!(v["position"]["phase_name"], "Cart");
}

#[test]
fn pause_marks_plans_done_by_the_progress_definition() {
    let sandbox = project();
    // A SUMMARY named without zero padding still finishes plan 03-02.
    sandbox.write(".planning/phases/03-cart/3-2-SUMMARY.md", "done\n");
    ok(&sandbox.run(&["pause"], b""));
    let h: Value = serde_json::from_str(&read(&sandbox, ".planning/HANDOFF.json")).unwrap();
    let done: Vec<&str> = h["completed_tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap())
        .collect();
    assert_eq!(done, ["03-01", "03-02"], "{h}");
    assert_eq!(h["remaining_tasks"][0]["id"], "03-03");
    assert_eq!(h["remaining_tasks"][0]["status"], "in_progress");
}

#[test]
fn in_a_monorepo_uncommitted_files_are_project_relative() {
    let sandbox = Sandbox::new();
    let repo = &sandbox.project;
    git_repo(repo, &[("README.md", "monorepo\n")]);
    let shop = repo.join("apps/shop");
    std::fs::create_dir_all(&shop).unwrap();
    for (path, text) in [
        (".planning/STATE.md", STATE_MD),
        (".planning/ROADMAP.md", gsd::ROADMAP_MD),
    ] {
        sandbox.write(&format!("apps/shop/{path}"), text);
    }
    sandbox.write("apps/shop/.planning/phases/03-cart/03-01-PLAN.md", "x\n");
    git(repo, &["add", "-A"]);
    git(repo, &["commit", "-qm", "shop"]);
    sandbox.write("apps/shop/src/cart.rs", "// wip\n");
    sandbox.write("apps/other/x.rs", "// not ours\n");
    ok(&run_in(&sandbox, &shop, &["pause"]));
    let h: Value =
        serde_json::from_str(&std::fs::read_to_string(shop.join(".planning/HANDOFF.json")).unwrap()).unwrap();
    assert_eq!(h["uncommitted_files"], json!(["src/cart.rs"]), "{h}");

    let out = run_in(&sandbox, &shop, &["resume"]);
    let text = ok(&out);
    assert!(
        text.contains("Uncommitted files as at the pause: src/cart.rs"),
        "{text}"
    );
    assert!(!text.contains("changed since the pause"), "{text}");
}
