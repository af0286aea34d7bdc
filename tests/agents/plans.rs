//! `baton agents waves` and `baton agents payload` on a GSD planning tree.

use serde_json::{Value, json};

use super::planning_tree;
use crate::common::Sandbox;

#[test]
fn waves_report_overlaps_same_wave_dependencies_and_cycles() {
    let sandbox = Sandbox::new();
    planning_tree(&sandbox);
    let out = sandbox.run(&["agents", "waves"], b"");
    assert_eq!(out.code, Some(1), "{out:?}");
    assert_eq!(
        out.stdout,
        "Phase 3 (api): 6 plans in 2 waves\n  wave 1: 03-01, 03-02\n  wave 2: 03-03, 03-04\n  Problems:\n\
         \x20 - dependency cycle: 03-05 → 03-06 → 03-05\n\
         \x20 - 03-05 cannot be scheduled: it has no `wave:` and is in or behind a cycle\n\
         \x20 - 03-06 cannot be scheduled: it has no `wave:` and is in or behind a cycle\n\
         \x20 - wave 2: 03-03 depends on 03-04, which runs in the same wave\n\
         \x20 - wave 1: 03-01 and 03-02 both modify src/api/users.ts\n"
    );
    assert!(out.stderr.contains("5 problems make these waves unsafe"), "{out:?}");

    let json = sandbox.run(&["agents", "waves", "3", "--json"], b"");
    let v: Value = serde_json::from_str(&json.stdout).unwrap();
    let problems = v["phases"][0]["problems"].as_array().unwrap();
    assert!(
        problems.contains(
            &json!({"kind": "same_file", "wave": 1, "plans": ["03-01", "03-02"], "file": "src/api/users.ts"})
        )
    );
    assert!(problems.contains(&json!({"kind": "cycle", "plans": ["03-05", "03-06", "03-05"]})));

    let clean = sandbox.run(&["agents", "waves", "2"], b"");
    assert_eq!(
        (clean.code, clean.stdout.as_str()),
        (Some(0), "Phase 2 (data): 1 plan in 1 wave\n  wave 1: 02-01\n")
    );
    let missing = sandbox.run(&["agents", "waves", "9"], b"");
    assert_eq!(missing.code, Some(2));
    assert!(
        missing.stderr.contains("no phase '9'; the phases are: 2, 3"),
        "{missing:?}"
    );
}

#[test]
fn payload_lists_what_the_agent_must_read_with_sizes() {
    let sandbox = Sandbox::new();
    planning_tree(&sandbox);
    let out = sandbox.run(&["agents", "payload", "03-04"], b"");
    assert_eq!(out.code, Some(0), "{out:?}");
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert!(
        lines[0].starts_with("Read these files before starting plan 03-04 (paths relative to "),
        "{}",
        out.stdout
    );
    assert_eq!(
        &lines[1..7],
        [
            "- .planning/STATE.md (state, 144 B)",
            "- .planning/ROADMAP.md (roadmap, 79 B)",
            "- .planning/phases/03-api/03-CONTEXT.md (context, 18 B)",
            "- .planning/phases/03-api/03-RESEARCH.md (research, 2.6 KB)",
            "- .planning/phases/03-api/03-04-PLAN.md (plan, 152 B)",
            "- .planning/phases/03-api/03-01-SUMMARY.md (summary of 03-01, 16 B)",
        ]
    );
    assert_eq!(lines[7], "Total: 3.0 KB (~778 tokens)", "{}", out.stdout);

    // 03-03 waits for 03-04, which has no SUMMARY: the payload is printed, the exit says wait.
    let out = sandbox.run(&["agents", "payload", "3-3", "--json"], b"");
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(
        out.stderr
            .contains("plan 03-03 depends on 03-04, which has no SUMMARY yet: run it first"),
        "{out:?}"
    );
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["waiting_on"], json!(["03-04"]));
    assert_eq!(v["missing"][0]["path"], ".planning/phases/03-api/03-04-SUMMARY.md");
    let total: u64 = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["bytes"].as_u64().unwrap())
        .sum();
    assert_eq!(v["total_bytes"], total);

    let unknown = sandbox.run(&["agents", "payload", "07-01"], b"");
    assert_eq!(unknown.code, Some(2));
    assert!(
        unknown.stderr.contains("no plan '07-01'; the plans are: 02-01, 03-01"),
        "{unknown:?}"
    );
}
