//! `baton pause`: the handoff and `.continue-here.md` it writes, the lines of STATE.md it
//! changes (and the ones it leaves alone), what it archives and carries forward.

use serde_json::{Value, json};

use super::{GSD_HANDOFF, ok, project, read};
use crate::common::gsd::{self, STATE_MD};
use crate::common::*;

/// The names in `.planning/handoffs/`, sorted.
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
