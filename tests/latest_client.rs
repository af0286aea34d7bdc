//! Payloads of the latest client (Claude Code 2.1.332): what it added since 2.1.197
//! (`prompt_cache` and `duration_ms`, background tasks, null usage right after a compaction)
//! is read where baton uses it and does no harm elsewhere.

use serde_json::json;

use crate::common::*;

fn status(sandbox: &Sandbox, name: &str) -> String {
    let mut payload = latest_fixture(name);
    payload["cwd"] = json!(native(&sandbox.project));
    payload["workspace"]["current_dir"] = json!(native(&sandbox.project));
    payload["workspace"]["project_dir"] = json!(native(&sandbox.project));
    payload["transcript_path"] = json!(native(sandbox.project.join("none.jsonl")));
    sandbox.statusline(&payload).assert_one_line()
}

#[test]
fn the_statusline_reads_2_1_332_payloads() {
    let sandbox = Sandbox::new().env("NO_COLOR", "1");
    // 5,000 input + 5,000 cache write + 140,000 cache read of 200k, with `prompt_cache`.
    assert_eq!(
        status(&sandbox, "statusline-after-reply-cache.json"),
        "Sonnet 4.5 │ proj │ ████████░░ 83%"
    );
    // 960k of the 1M window: 98% of the 980k before Claude Code's reserve.
    assert!(status(&sandbox, "statusline-1m-960k.json").ends_with(" 98%"));
    // Right after /compact 2.1.332 sends null usage: the line stays, with no figure.
    let after = status(&sandbox, "statusline-after-compact.json");
    assert!(
        after.starts_with("Sonnet 4.5 │ proj │ ") && after.ends_with("--"),
        "{after}"
    );
    let bridge = sandbox.read_json(
        &sandbox.temp_file(
            latest_fixture("statusline-after-reply-cache.json")["session_id"]
                .as_str()
                .unwrap(),
            ".json",
        ),
    );
    assert_eq!(bridge["used_tokens"], 150_000, "{bridge}");
}

#[test]
fn hooks_take_2_1_332_payloads_of_every_event() {
    let sandbox = Sandbox::new();
    for name in [
        "posttooluse.json",
        "posttooluse-subagent.json",
        "posttooluse-agent-background.json",
        "posttooluse-agent-foreground.json",
        "sessionstart.json",
        "sessionstart-compact.json",
        "precompact-auto.json",
        "precompact-manual.json",
        "postcompact-auto.json",
        "subagentstart.json",
        "subagentstop.json",
        "subagentstop-background.json",
        "subagentstop-stop-hook-active.json",
        "subagentstop-compaction.json",
        "stop.json",
        "sessionend.json",
    ] {
        let mut payload = latest_fixture(name);
        payload["cwd"] = json!(native(&sandbox.project));
        let out = sandbox.hook(&payload);
        out.assert_hook_contract();
        assert!(
            out.elapsed < std::time::Duration::from_secs(5),
            "{name}: {:?}",
            out.elapsed
        );
    }
}
