//! History: every write is a journal entry with its writer and change; `log`, `show --at`,
//! `diff`, `rollback` (a new version, history intact) and `compact --keep N` (every kept
//! version still readable); the journal grows with the changes, not with the document.

use serde_json::{Value, json};

use super::{ctx, ctx_in, document, example_store, get, head_segment, journal_dir, log, ok};
use crate::common::Sandbox;

#[test]
fn log_show_at_diff_and_rollback() {
    let sandbox = Sandbox::new()
        .env("BATON_AGENT", "analyst")
        .env("CLAUDE_CODE_SESSION_ID", "fc61ec7d-0dfe-4ee4-950f-740b3bafe0b9");
    let head = crate::common::git_repo(&sandbox.project, &[("README.md", "# task app\n")]);
    example_store(&sandbox);
    let mut versions: Vec<Value> = vec![Value::Null, document(&sandbox)];
    let writes: [&[&str]; 4] = [
        &["agent", "pm", "--status", "completed", "--as", "pm"],
        &["set", "current_step", "4"],
        &[
            "output",
            "pm",
            "prd",
            "--file",
            "docs/prd.md",
            "--data",
            r#"{"epics": 3}"#,
            "--quality",
            "9",
            "--as",
            "pm",
        ],
        &["delete", "global_context.project_constraints.team_size"],
    ];
    for args in writes {
        ok(&sandbox, args);
        versions.push(document(&sandbox));
    }
    assert_eq!(
        get(&sandbox, &["context_version"]),
        json!("1.0.6"),
        "it advanced on every write"
    );

    let entries = log(&sandbox);
    let summary: Vec<(u64, &str, &str)> = entries
        .iter()
        .map(|e| {
            (
                e["v"].as_u64().unwrap(),
                e["by"].as_str().unwrap(),
                e["cmd"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            (1, "analyst", "init"),
            (2, "pm", "agent pm --status completed"),
            (3, "analyst", "set current_step"),
            (4, "pm", "output pm prd"),
            (5, "analyst", "delete global_context.project_constraints.team_size"),
        ]
    );
    // Provenance: time, the session the writer ran in, the git HEAD.
    for e in &entries {
        assert!(e["at"].as_str().unwrap().ends_with('Z'), "{e}");
        assert_eq!(e["session"], "fc61ec7d-0dfe-4ee4-950f-740b3bafe0b9");
        assert_eq!(e["head"], head.as_str());
    }
    // The journal holds the change, not the document.
    assert_eq!(
        entries[2]["ops"],
        json!([{"op": "set", "path": "/current_step", "value": 4},
               {"op": "set", "path": "/context_version", "value": "1.0.4"}])
    );
    let text = ok(&sandbox, &["log", "-n", "2"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines[0].starts_with("v4 ")
            && lines[0].contains(&format!(
                "pm       {}  output pm prd: set agents.pm.outputs.prd = {{",
                &head[..7]
            )),
        "{text}"
    );
    assert!(
        lines[1].contains("analyst") && lines[1].ends_with("delete global_context.project_constraints.team_size"),
        "{text}"
    );

    for (v, expected) in versions.iter().enumerate().skip(1) {
        let at: Value = serde_json::from_str(&ok(&sandbox, &["show", "--at", &v.to_string(), "--json"])).unwrap();
        assert_eq!(&at, expected, "show --at {v}");
    }
    assert_eq!(get(&sandbox, &["agents.pm.status", "--at", "1"]), json!("in_progress"));

    let diff = ok(&sandbox, &["diff", "1", "3"]);
    assert_eq!(
        diff,
        "~ current_step: 3 → 4\n~ context_version: \"1.0.2\" → \"1.0.4\"\n~ agents.pm.status: \"in_progress\" → \"completed\"\n"
    );
    let diff: Value = serde_json::from_str(&ok(&sandbox, &["diff", "3", "5", "--json"])).unwrap();
    let changes: Vec<(&str, &str)> = diff
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["path"].as_str().unwrap(), c["change"].as_str().unwrap()))
        .collect();
    assert_eq!(
        changes,
        [
            ("/context_version", "changed"),
            ("/agents/pm/outputs", "added"),
            ("/global_context/project_constraints/team_size", "removed")
        ]
    );
    assert_eq!(ok(&sandbox, &["diff", "5"]), "No differences.\n");

    // Rollback writes version 6 equal to version 2 (context_version moves on); nothing is lost.
    let out = ok(&sandbox, &["rollback", "2", "--as", "lead"]);
    assert_eq!(out, "Version 6: rollback 2\n");
    let mut expected = versions[2].clone();
    expected["context_version"] = json!("1.0.7");
    assert_eq!(document(&sandbox), expected);
    assert_eq!(
        ok(&sandbox, &["diff", "2", "6"]),
        "~ context_version: \"1.0.3\" → \"1.0.7\"\n"
    );
    assert_eq!(log(&sandbox).len(), 6);
    let at4: Value = serde_json::from_str(&ok(&sandbox, &["show", "--at", "4", "--json"])).unwrap();
    assert_eq!(at4, versions[4], "history is never rewritten");
    assert_eq!(log(&sandbox)[5]["by"], "lead");
    ok(&sandbox, &["validate"]);
}

#[test]
fn compact_keeps_every_kept_version_readable() {
    let sandbox = Sandbox::new();
    example_store(&sandbox);
    // 3,000 versions (one per line), in one process: several segments and snapshots.
    let lines: String = (1..=3000)
        .map(|i| {
            format!(
                "{}\n",
                json!({"set": format!("global_context.counters.c{}", i % 50), "value": i})
            )
        })
        .collect();
    let out = ctx_in(&sandbox, &["batch", "--stdin", "--as", "loader"], lines.as_bytes());
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (Some(0), "Wrote versions 2 to 3001.\n"),
        "{out:?}"
    );
    let snapshots = || {
        std::fs::read_dir(journal_dir(&sandbox))
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with("snapshot-"))
            .count()
    };
    assert!(snapshots() >= 2, "a store of 3,000 versions has snapshots");
    let kept: Vec<(u64, Value)> = [2901, 2950, 3001]
        .iter()
        .map(|v| {
            (
                *v,
                serde_json::from_str(&ok(&sandbox, &["show", "--at", &v.to_string(), "--json"])).unwrap(),
            )
        })
        .collect();
    let before = dir_size(&sandbox);

    let out = ok(&sandbox, &["compact", "--keep", "100"]);
    assert!(out.starts_with("Kept versions 2901 to 3001 (was 1 to 3001)"), "{out}");
    assert!(dir_size(&sandbox) < before / 2, "{} → {}", before, dir_size(&sandbox));
    for (v, doc) in &kept {
        let now: Value = serde_json::from_str(&ok(&sandbox, &["show", "--at", &v.to_string(), "--json"])).unwrap();
        assert_eq!(&now, doc, "version {v} after compaction");
    }
    let out = ctx(&sandbox, &["show", "--at", "2900"]);
    assert_eq!(out.code, Some(1));
    assert!(
        out.stderr
            .contains("version 2900 was compacted away: history starts at version 2901"),
        "{}",
        out.stderr
    );
    let entries = log(&sandbox);
    assert_eq!((entries.len(), entries[0]["v"].as_u64()), (100, Some(2902)));
    assert!(ok(&sandbox, &["log", "-n", "1000"]).starts_with("(history before version 2901 was compacted)\n"));
    ok(&sandbox, &["validate"]);

    // Writing goes on; compacting again, into the newest segment, keeps it working.
    ok(&sandbox, &["set", "agents.pm.status", "completed"]);
    let out = ok(&sandbox, &["compact", "--keep", "3"]);
    assert!(out.starts_with("Kept versions 2999 to 3002"), "{out}");
    assert_eq!(
        get(&sandbox, &["global_context.counters.c0", "--at", "3000"]),
        json!(2950)
    );
    assert_eq!(log(&sandbox).len(), 3);
    ok(&sandbox, &["validate"]);
    assert_eq!(
        ok(&sandbox, &["compact", "--keep", "5"]),
        "Nothing to compact: history starts at version 2999 (newest 3002).\n"
    );
}

#[test]
fn the_journal_grows_with_the_change_not_with_the_document() {
    let sandbox = Sandbox::new();
    example_store(&sandbox);
    let big: String = "x".repeat(2 * 1024 * 1024);
    let value = sandbox.write("big.txt", &big);
    ok(
        &sandbox,
        &["set", "global_context.big", "--file", value.to_str().unwrap()],
    );
    let grown = |f: &dyn Fn()| {
        let segment = head_segment(&sandbox);
        let before = std::fs::metadata(&segment).map_or(0, |m| m.len());
        let files_before = dir_size(&sandbox);
        f();
        (
            std::fs::metadata(&segment)
                .map_or(0, |m| m.len())
                .saturating_sub(before),
            dir_size(&sandbox) - files_before,
        )
    };
    let (segment, all) = grown(&|| {
        ok(&sandbox, &["set", "agents.pm.status", "completed"]);
    });
    assert!(
        segment < 400 && all < 400,
        "one small change on a 2 MB document added {segment} bytes to the journal"
    );
    assert!(
        std::fs::metadata(sandbox.project.join(".baton/context.json"))
            .unwrap()
            .len()
            > 2 * 1024 * 1024
    );
}

fn dir_size(sandbox: &Sandbox) -> u64 {
    std::fs::read_dir(journal_dir(sandbox))
        .unwrap()
        .flatten()
        .map(|e| e.metadata().unwrap().len())
        .sum()
}

/// Found by fuzzing (fuzz/fuzz_targets/store_path.rs): JSON numbers were read to the nearest
/// float only roughly, so `set x 1e96` stored `9.999999999999999e95`, and a document's
/// number could change between the document file and the journal's replay of it.
#[test]
fn numbers_are_stored_as_given() {
    let sandbox = Sandbox::new();
    example_store(&sandbox);
    for number in ["1e96", "4.444444444444445e106", "0.30000000000000004"] {
        let exact: f64 = number.parse().unwrap();
        ok(&sandbox, &["set", "x", number]);
        assert_eq!(get(&sandbox, &["x"]).as_f64(), Some(exact), "{number}");
        let journal = std::fs::read_to_string(head_segment(&sandbox)).unwrap();
        let last: Value = serde_json::from_str(journal.lines().last().unwrap()).unwrap();
        assert_eq!(last["ops"][0]["value"].as_f64(), Some(exact), "{number} in the journal");
    }
    let report = ok(&sandbox, &["validate"]);
    assert!(report.contains("OK: the document matches the journal"), "{report}");
}
