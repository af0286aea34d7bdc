//! PostCompact (Claude Code ≥ 2.1.76) through the built binary, on 2.1.332's captured
//! payloads: it prints nothing (the client rejects additionalContext there), resets the
//! monitor's debounce and drops the bridge figures like SessionStart `compact`, and the
//! compaction is counted once for the statusline's `compactions` segment.

use serde_json::{Value, json};

use crate::common::*;

const SESSION: &str = "b1242354-f64a-4b73-8244-b1d6ee5189c9";

fn event(sandbox: &Sandbox, name: &str) -> Value {
    let mut p = fixture_of("2.1.332", name);
    p["session_id"] = json!(SESSION);
    p["cwd"] = json!(native(&sandbox.project));
    p
}

fn warn_at(sandbox: &Sandbox, remaining: u32) -> Option<String> {
    sandbox.bridge(SESSION, remaining, 0);
    sandbox.hook(&post_tool_use(sandbox, SESSION, None)).context()
}

/// The statusline of `SESSION` with the compactions segment on.
fn statusline(sandbox: &Sandbox) -> String {
    sandbox.write(
        ".baton/config.json",
        r#"{"statusline":{"segments":["context","compactions"]}}"#,
    );
    let mut p = fixture_of("2.1.332", "statusline-after-compact.json");
    p["session_id"] = json!(SESSION);
    p["cwd"] = json!(native(&sandbox.project));
    p["workspace"]["current_dir"] = json!(native(&sandbox.project));
    p["transcript_path"] = json!(native(sandbox.project.join("missing.jsonl")));
    plain(&sandbox.statusline(&p).assert_one_line())
}

#[test]
fn post_compact_prints_nothing_and_resets_the_monitor() {
    for fixture in ["postcompact-auto.json", "postcompact-manual.json"] {
        let sandbox = Sandbox::new();
        assert!(warn_at(&sandbox, 30).is_some());
        assert_eq!(warn_at(&sandbox, 30), None, "debounced");
        let out = sandbox.hook(&event(&sandbox, fixture));
        out.assert_hook_contract();
        assert_eq!(out.stdout, "", "{fixture}: nothing for the client to reject or show");
        assert!(
            !sandbox.temp_file(SESSION, ".json").exists(),
            "the old figures are gone"
        );
        assert!(
            warn_at(&sandbox, 30).is_some(),
            "{fixture}: the next crossing warns at once"
        );
    }
}

#[test]
fn each_compaction_counts_once_whichever_of_its_events_fire() {
    let sandbox = Sandbox::new();
    assert_eq!(statusline(&sandbox), "░░░░░░░░░░ --", "none yet");
    // The order every compaction was seen in: SessionStart `compact`, then PostCompact.
    for name in ["sessionstart-compact.json", "postcompact-auto.json"] {
        sandbox.hook(&event(&sandbox, name)).assert_hook_contract();
    }
    assert_eq!(statusline(&sandbox), "░░░░░░░░░░ -- │ 1 compaction");
    // A settings file without PostCompact: SessionStart alone counts.
    sandbox
        .hook(&event(&sandbox, "sessionstart-compact.json"))
        .assert_hook_contract();
    assert_eq!(statusline(&sandbox), "░░░░░░░░░░ -- │ 2 compactions");
    // /clear starts another session: its count starts at zero.
    let other = statusline(&Sandbox::new());
    assert_eq!(other, "░░░░░░░░░░ --");
}

#[test]
fn concurrent_compaction_hooks_lose_no_count() {
    let sandbox = Sandbox::new();
    let payload = event(&sandbox, "sessionstart-compact.json").to_string();
    for out in sandbox.hooks_released_together(16, payload.as_bytes()) {
        assert_eq!(out.status.code(), Some(0));
        assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    assert_eq!(statusline(&sandbox), "░░░░░░░░░░ -- │ 16 compactions");
    // In baton's private directory, where no one else can plant a file at its name.
    let private = sandbox.tmp.join(&crate::common::os::private_dir_names()[0]);
    let state = sandbox.read_json(&private.join(format!("session-{SESSION}-compactions.json")));
    assert_eq!(state["generator"], "baton", "swept like baton's other files");
}
