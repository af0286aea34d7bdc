//! `baton progress` on realistic, broken and large GSD projects.

use super::{json_of, ok, project};
use crate::common::*;

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
    assert!(text.contains("Next: /gsd-execute-phase 3"), "{text}");
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
    assert_eq!(v["next_action"]["command"], "/gsd-execute-phase 3");
    assert_eq!(v["blockers"][0], "Payment provider sandbox account not approved yet");
}

#[test]
fn progress_without_planning_says_what_to_do() {
    let sandbox = Sandbox::new();
    let out = sandbox.run(&["progress"], b"");
    assert_eq!(out.code, Some(1));
    assert!(
        out.stderr.contains("no .planning/ directory") && out.stderr.contains("/gsd-new-project"),
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
        assert_eq!(v["next_action"]["command"], "/gsd-execute-phase 3", "{state:?}");
    }
    // A roadmap that is not markdown at all: the phase directories still count.
    let sandbox = project();
    sandbox.write(".planning/ROADMAP.md", "\u{feff}<<<garbage>>>");
    let v = json_of(&sandbox.run(&["progress", "--json"], b""));
    assert_eq!(v["progress"]["total_phases"], 5);
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
    assert_eq!(v["next_action"]["command"], "/gsd-execute-phase 51");
    assert_eq!(v["position"]["plan"], "051-06");
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

/// Phase 1 executed (two plans, two summaries, no verification report); phase 2's roadmap
/// entry lists plan 02-01, whose PLAN file is not written yet; phase 2's directory exists
/// when `phase_2_dir`. STATE.md as gsd-core's tools leave it, and gsd-core's `state.json` when
/// `core`.
fn roadmap_lists_a_plan_before_its_file(core: bool, phase_2_dir: bool) -> Sandbox {
    let sandbox = Sandbox::new();
    sandbox.write(
        ".planning/ROADMAP.md",
        "# Roadmap: Shop\n\n## Phases\n\n- [ ] **Phase 1: Setup** - scaffolding\n- [ ] **Phase 2: Cart** - \
         cart\n\n## Phase Details\n\n### Phase 1: Setup\n**Plans**: 2 plans\n\nPlans:\n- [ ] 01-01: Scaffold\n\
         - [ ] 01-02: CI\n\n### Phase 2: Cart\n**Plans**: 1 plan\n\nPlans:\n- [ ] 02-01: Cart model\n",
    );
    let version = if core { "\"1.0\"" } else { "1.0" };
    sandbox.write(
        ".planning/STATE.md",
        &format!(
            "---\ngsd_state_version: {version}\nstatus: executing\n---\n\n# Project State\n\n## Current Position\n\n\
             Phase: 1 of 2 (Setup)\nPlan: 2 of 2 in current phase\nStatus: Executing\n"
        ),
    );
    if core {
        sandbox.write(".planning/state.json", "{}");
    }
    for plan in ["01", "02"] {
        sandbox.write(&format!(".planning/phases/01-setup/01-{plan}-PLAN.md"), "# Plan\n");
        sandbox.write(
            &format!(".planning/phases/01-setup/01-{plan}-SUMMARY.md"),
            "# Summary\n",
        );
    }
    if phase_2_dir {
        std::fs::create_dir_all(sandbox.project.join(".planning/phases/02-cart")).unwrap();
    }
    sandbox
}

#[test]
fn gsd_core_counts_plan_files_and_gsd_1_counts_the_roadmaps_plan_list_too() {
    for phase_2_dir in [false, true] {
        // gsd-core: phase 2 has no plan yet, so phase 1, executed and not verified, is next.
        let core = roadmap_lists_a_plan_before_its_file(true, phase_2_dir);
        let v = json_of(&core.run(&["progress", "--json"], b""));
        assert_eq!(v["next_action"]["command"], "/gsd-execute-phase 1", "{v:#}");
        assert!(
            v["next_action"]["reason"].as_str().unwrap().contains("not verified"),
            "{v:#}"
        );
        assert_eq!(v["progress"]["total_plans"], 2, "{v:#}");

        // GSD 1.42.3: phase 1 is done once its plans are summarised, and the roadmap's 02-01
        // is phase 2's plan to execute.
        let classic = roadmap_lists_a_plan_before_its_file(false, phase_2_dir);
        let v = json_of(&classic.run(&["progress", "--json"], b""));
        assert_eq!(v["next_action"]["command"], "/gsd-execute-phase 2", "{v:#}");
        assert_eq!(
            v["next_action"]["reason"], "0 of 1 plan of phase 2 done; 02-01 is next",
            "{v:#}"
        );
        assert_eq!(v["progress"]["total_plans"], 3, "{v:#}");
    }
}
