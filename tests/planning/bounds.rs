//! Hostile STATE.md, ROADMAP.md and phase directories: the statusline and the hooks finish in
//! a bounded time and leave out only the GSD segment; `progress` and `resume` say which file
//! is past which bound. (Before: a 100 KB STATE.md nested 50,000 levels deep took 15 s, a
//! ROADMAP.md of 50,000 phases 17 s.)

use std::time::Duration;

use super::{GSD_LINE, PLAIN_LINE, after_reply, gsd_project};
use crate::common::*;

/// A hang guard: renders take milliseconds, these files took 15 s before.
const BOUND: Duration = Duration::from_secs(2);

#[track_caller]
fn statusline_line(sandbox: &Sandbox) -> String {
    let out = sandbox.statusline(&after_reply(sandbox));
    assert!(out.elapsed < BOUND, "the statusline took {:?}", out.elapsed);
    out.assert_one_line()
}

/// Runs a command that must refuse the project's files, naming `file` and the bound.
#[track_caller]
fn refused(sandbox: &Sandbox, args: &[&str], file: &str, bound: &str) {
    let out = sandbox.run(args, b"");
    assert!(out.elapsed < BOUND, "{args:?} took {:?}", out.elapsed);
    assert_eq!(out.code, Some(1), "{args:?}: {out:?}");
    assert!(
        out.stderr.contains(file) && out.stderr.contains(bound),
        "{args:?} must name {file} and the bound ({bound}): {}",
        out.stderr
    );
}

/// A STATE.md whose frontmatter is `frontmatter`, with a readable body.
fn state_with(frontmatter: &str) -> String {
    format!("---\nstatus: executing\n{frontmatter}\n---\n\n## Current Position\n\nPhase: 3 of 6 (Cart)\n")
}

#[test]
fn nested_or_aliased_yaml_in_state_md_is_refused_before_the_parser() {
    let mut laughs = String::from("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
    for (name, previous) in ["b", "c", "d", "e", "f", "g", "h", "i"]
        .iter()
        .zip(["a", "b", "c", "d", "e", "f", "g", "h"])
    {
        laughs.push_str(&format!(
            "{name}: &{name} [{}]\n",
            vec![format!("*{previous}"); 9].join(",")
        ));
    }
    laughs.push_str("progress: *i");
    let cases = [
        (
            "50,000 nested lists, 100 KB",
            format!("progress: {}{}", "[".repeat(50_000), "]".repeat(50_000)),
            "bytes",
        ),
        (
            "8,000 nested maps, 32 KB",
            format!("progress: {}{}", "{a: ".repeat(8_000), "}".repeat(8_000)),
            "flow collections",
        ),
        ("an alias bomb", laughs, "anchor"),
    ];
    for (what, frontmatter, bound) in cases {
        let sandbox = gsd_project();
        sandbox.write(".planning/STATE.md", &state_with(&frontmatter));
        assert_eq!(statusline_line(&sandbox), PLAIN_LINE, "{what}: only the segment goes");
        refused(&sandbox, &["progress"], "STATE.md", bound);
        refused(&sandbox, &["resume"], "STATE.md", bound);

        // The hooks that read STATE.md stay within the contract and the bound.
        sandbox.write(
            ".planning/HANDOFF.json",
            r#"{"version":"1.0","phase":"3","next_action":"x"}"#,
        );
        for source in ["startup", "compact"] {
            let out = sandbox.hook(&session_start(&sandbox, "s-1", source));
            out.assert_hook_contract();
            assert!(out.elapsed < BOUND, "{what}: SessionStart took {:?}", out.elapsed);
        }
        sandbox.bridge("s-1", 20, 0);
        let out = sandbox.hook(&post_tool_use(&sandbox, "s-1", None));
        assert!(
            out.context_text().starts_with("CONTEXT CRITICAL"),
            "{what}: the warning stays"
        );
        assert!(out.elapsed < BOUND, "{what}: the monitor took {:?}", out.elapsed);
    }
}

#[test]
fn a_roadmap_of_fifty_thousand_phases_is_refused_quickly() {
    let sandbox = gsd_project();
    let mut roadmap = String::from("# Roadmap\n\n## v1.1 Checkout\n\n");
    for phase in 1..=50_000 {
        roadmap.push_str(&format!("- [ ] **Phase {phase}: Phase {phase}** - work\n"));
    }
    sandbox.write(".planning/ROADMAP.md", &roadmap);
    assert_eq!(statusline_line(&sandbox), PLAIN_LINE);
    refused(&sandbox, &["progress"], "ROADMAP.md", "2000 phases");
}

#[test]
fn a_roadmap_at_the_bounds_is_read() {
    let sandbox = gsd_project();
    let mut roadmap = String::from("# Roadmap\n\n## v1.1 Checkout\n\n");
    for phase in 1..=2_000 {
        roadmap.push_str(&format!(
            "- [{}] **Phase {phase}: P{phase}**\n",
            if phase <= 1_000 { "x" } else { " " }
        ));
    }
    for phase in 1..=2_000 {
        roadmap.push_str(&format!("\n### Phase {phase}: P{phase}\n\nPlans:\n"));
        for plan in 1..=10 {
            roadmap.push_str(&format!("- [ ] {phase:04}-{plan:02}: plan\n"));
        }
    }
    sandbox.write(".planning/ROADMAP.md", &roadmap);
    assert_eq!(
        statusline_line(&sandbox),
        "Sonnet 4.5 │ v1.1 Checkout 50% · Phase 3/6 Cart · executing │ proj │ ████████░░ 83%",
        "1,000 of the milestone's 2,000 phases are checked"
    );
    let out = sandbox.run(&["progress", "--json"], b"");
    assert!(out.elapsed < BOUND, "progress took {:?}", out.elapsed);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(
        v["progress"]["total_phases"], 2_001,
        "and phase 3.1's directory: {}",
        out.stderr
    );
    assert_eq!(v["progress"]["total_plans"], 20_001);
}

#[test]
fn oversized_state_md_and_phase_directories_are_refused() {
    let sandbox = gsd_project();
    let mut big = crate::common::gsd::STATE_MD.to_owned();
    while big.len() <= 4 * 1024 * 1024 {
        big.push_str("- an old note that should have been archived long ago, kept in STATE.md\n");
    }
    sandbox.write(".planning/STATE.md", &big);
    assert_eq!(statusline_line(&sandbox), PLAIN_LINE);
    refused(&sandbox, &["progress"], "STATE.md", "4096 KiB");

    let sandbox = gsd_project();
    let crowded = sandbox.project.join(".planning/phases/05-receipts");
    std::fs::create_dir_all(&crowded).unwrap();
    for n in 0..20_000 {
        std::fs::File::create(crowded.join(format!("note-{n}.md"))).unwrap();
    }
    assert_eq!(statusline_line(&sandbox), PLAIN_LINE);
    refused(&sandbox, &["progress"], "phases", "20000 entries");
    std::fs::remove_dir_all(&crowded).unwrap();
    assert_eq!(
        statusline_line(&sandbox),
        GSD_LINE,
        "back within the bound, the segment is back"
    );
}

#[test]
fn a_fifo_planted_as_the_continue_here_page_does_not_stall_precompact() {
    let sandbox = gsd_project();
    let page = sandbox.project.join(".planning/phases/03-cart/.continue-here.md");
    let made = std::process::Command::new("mkfifo").arg(&page).status().unwrap();
    assert!(made.success(), "mkfifo");
    let mut pre = session_start(&sandbox, "s-1", "compact");
    pre["hook_event_name"] = serde_json::json!("PreCompact");
    pre["trigger"] = serde_json::json!("auto");
    let out = sandbox.hook(&pre);
    out.assert_hook_contract();
    assert!(out.elapsed < BOUND, "PreCompact took {:?}", out.elapsed);
    let written = std::fs::read_to_string(&page).expect("baton's page replaced the FIFO");
    assert!(written.contains("generator: baton"), "{written}");
    let archived: Vec<String> = std::fs::read_dir(sandbox.project.join(".planning/handoffs"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("continue-here-03-cart"))
        .collect();
    assert_eq!(
        archived.len(),
        1,
        "the planted page is archived, not overwritten: {archived:?}"
    );
}
