//! The forecast beside the statusline's bar and in the bridge file: steady, bursty, one huge
//! tool result, after a compaction, too short or shrinking, each limit Claude Code compacts at.

use serde_json::json;

use super::*;
use crate::common::*;

#[test]
fn steady_growth_is_forecast_within_one_request() {
    let sandbox = Sandbox::new();
    let mut t = Transcript::starting_at(20_000);
    t.grow_all(&[10_000; 10]);
    let path = t.write(&sandbox);
    let shown = render(&sandbox, &payload(&sandbox, &path, t.used, MODEL, 200_000));
    // claude-sonnet-4-5 is not compacted at a threshold: the limit is where its footer reads
    // 100%, 180k.
    assert_near(shown.requests_left, truth(t.used, 180_000, &[10_000]), "steady");
    assert_eq!(shown.tokens_per_request, Some(10_000));
    assert!(shown.line.ends_with("██████░░░░ 67% ≈6 left"), "{}", shown.line);
}

#[test]
fn bursty_growth_is_forecast_within_one_request() {
    // Small reads between larger ones, the same 10k a request on average.
    for pattern in [&[6_000, 14_000][..], &[8_000, 8_000, 14_000]] {
        let sandbox = Sandbox::new();
        let mut t = Transcript::starting_at(20_000);
        while t.requests < 9 {
            t.grow_all(pattern);
        }
        let path = t.write(&sandbox);
        let shown = render(&sandbox, &payload(&sandbox, &path, t.used, MODEL, 200_000));
        assert_near(
            shown.requests_left,
            truth(t.used, 180_000, pattern),
            &format!("bursty {pattern:?}"),
        );
    }
}

#[test]
fn one_60k_tool_result_does_not_set_the_rate() {
    let sandbox = Sandbox::new();
    let mut t = Transcript::starting_at(20_000);
    t.grow_all(&[8_000; 4]).grow_all(&[60_000]).grow_all(&[8_000; 3]);
    let path = t.write(&sandbox);
    let shown = render(&sandbox, &payload(&sandbox, &path, t.used, MODEL, 200_000));
    assert_eq!(shown.tokens_per_request, Some(8_000));
    assert_near(
        shown.requests_left,
        truth(t.used, 180_000, &[8_000]),
        "after a 60k result",
    );
}

#[test]
fn the_limit_follows_the_compaction_regime_and_the_1m_window() {
    let mut t = Transcript::starting_at(20_000);
    t.grow_all(&[10_000; 10]);
    // An auto-compact window makes the client compact at 167k, and its footer counts to that.
    let sandbox = Sandbox::new().env("CLAUDE_CODE_AUTO_COMPACT_WINDOW", "200000");
    let path = t.write(&sandbox);
    let shown = render(&sandbox, &payload(&sandbox, &path, t.used, MODEL, 200_000));
    assert_near(shown.requests_left, truth(t.used, 167_000, &[10_000]), "enforced");
    assert!(shown.line.contains(" 72% ≈5 left"), "120k of 167k: {}", shown.line);
    // A 1M window: the footer counts to 980k.
    let sandbox = Sandbox::new();
    let path = t.write(&sandbox);
    let shown = render(
        &sandbox,
        &payload(&sandbox, &path, t.used, "claude-sonnet-4-5[1m]", 1_000_000),
    );
    assert_near(shown.requests_left, truth(t.used, 980_000, &[10_000]), "1M");
    assert!(shown.line.ends_with(" ≈86 left"), "{}", shown.line);
}

#[test]
fn after_a_compaction_the_history_restarts() {
    let sandbox = Sandbox::new();
    let mut t = Transcript::starting_at(20_000);
    t.grow_all(&[30_000; 4]).compact(6_000);
    t.reply(12_000, 2_000);
    t.used = 12_000;
    t.grow(5_000, 2_000);
    let path = t.write(&sandbox);
    // Two requests since the compaction: too little history.
    let shown = render(&sandbox, &payload(&sandbox, &path, t.used, MODEL, 200_000));
    assert_eq!(shown.requests_left, None, "{}", shown.line);
    assert!(shown.line.ends_with(" 9%"), "{}", shown.line);
    // Two more: the rate is the new one, not the 30k of before.
    t.grow_all(&[5_000, 5_000]);
    let path = t.write(&sandbox);
    let shown = render(&sandbox, &payload(&sandbox, &path, t.used, MODEL, 200_000));
    assert_eq!(shown.tokens_per_request, Some(5_000));
    assert_near(
        shown.requests_left,
        truth(t.used, 180_000, &[5_000]),
        "after compaction",
    );
}

#[test]
fn too_little_history_or_a_shrinking_context_gives_no_forecast() {
    let sandbox = Sandbox::new();
    let mut t = Transcript::starting_at(20_000);
    t.grow(10_000, 1_000);
    let path = t.write(&sandbox);
    let shown = render(&sandbox, &payload(&sandbox, &path, t.used, MODEL, 200_000));
    assert_eq!(shown.requests_left, None, "two requests: {}", shown.line);

    // The context shrank at the last request (tool results cleared): no rate applies.
    t.grow_all(&[10_000, 10_000, 10_000]);
    t.used -= 25_000;
    t.reply(t.used, 1_000);
    let path = t.write(&sandbox);
    let shown = render(&sandbox, &payload(&sandbox, &path, t.used, MODEL, 200_000));
    assert_eq!(shown.requests_left, None, "shrank: {}", shown.line);

    // The payload is already below the transcript's last request.
    let mut t = Transcript::starting_at(20_000);
    t.grow_all(&[10_000; 5]);
    let path = t.write(&sandbox);
    let shown = render(&sandbox, &payload(&sandbox, &path, 40_000, MODEL, 200_000));
    assert_eq!(shown.requests_left, None, "shrank since: {}", shown.line);
}

#[test]
fn the_forecast_can_be_switched_off() {
    let sandbox = Sandbox::new();
    sandbox.write(".baton/config.json", r#"{"statusline":{"forecast":false}}"#);
    let mut t = Transcript::starting_at(20_000);
    t.grow_all(&[10_000; 5]);
    let path = t.write(&sandbox);
    let shown = render(&sandbox, &payload(&sandbox, &path, t.used, MODEL, 200_000));
    assert_eq!(shown.requests_left, None);
    assert!(shown.line.ends_with(" 39%"), "{}", shown.line);
}

#[test]
fn a_payload_with_only_a_percentage_still_gets_the_forecast() {
    // No token counts (older clients, some providers): 70% of 200k is 140,000, while the
    // transcript's newest request holds 140,600 — the same request, rounded.
    let sandbox = Sandbox::new();
    let mut t = Transcript::starting_at(60_600);
    t.grow_all(&[10_000; 8]);
    let path = t.write(&sandbox);
    let mut p = payload(&sandbox, &path, t.used, MODEL, 200_000);
    p["context_window"]["current_usage"] = json!(null);
    p["context_window"]["used_percentage"] = json!(70);
    p["context_window"]["remaining_percentage"] = json!(30);
    let shown = render(&sandbox, &p);
    assert_near(
        shown.requests_left,
        truth(t.used, 180_000, &[10_000]),
        "percentage only",
    );
    // A percentage well below the newest request is a context that shrank: no forecast.
    p["context_window"]["used_percentage"] = json!(60);
    p["context_window"]["remaining_percentage"] = json!(40);
    let shown = render(&sandbox, &p);
    assert_eq!(shown.requests_left, None, "{}", shown.line);
}

#[test]
fn the_limit_follows_the_percentage_override_the_config_and_a_1m_model() {
    let mut t = Transcript::starting_at(10_000);
    t.grow_all(&[5_000; 10]); // 60k
    // CLAUDE_AUTOCOMPACT_PCT_OVERRIDE=50 with a 200k auto-compact window: the client
    // compacts at 90,000 (measured), so 30k to go at 5k a request.
    let sandbox = Sandbox::new()
        .env("CLAUDE_CODE_AUTO_COMPACT_WINDOW", "200k")
        .env("CLAUDE_AUTOCOMPACT_PCT_OVERRIDE", "50");
    let path = t.write(&sandbox);
    let shown = render(&sandbox, &payload(&sandbox, &path, t.used, MODEL, 200_000));
    assert_near(shown.requests_left, truth(t.used, 90_000, &[5_000]), "PCT=50");
    assert!(shown.line.contains(" 67% ≈6 left"), "60k of 90k: {}", shown.line);
    // The same window mirrored in baton's config (Claude Code's autoCompactWindow setting,
    // which hooks cannot see): 167k.
    let sandbox = Sandbox::new();
    sandbox.write(".baton/config.json", r#"{"auto_compact_window": 200000}"#);
    let path = t.write(&sandbox);
    let shown = render(&sandbox, &payload(&sandbox, &path, t.used, MODEL, 200_000));
    assert_near(shown.requests_left, truth(t.used, 167_000, &[5_000]), "config window");
    // A model with a 1M window that compacts on its own: 967k.
    let sandbox = Sandbox::new();
    let path = t.write(&sandbox);
    let shown = render(
        &sandbox,
        &payload(&sandbox, &path, t.used, "claude-opus-4-8", 1_000_000),
    );
    assert_near(shown.requests_left, truth(t.used, 967_000, &[5_000]), "opus 1M");
    assert!(shown.line.ends_with(" 6% ≈99+ left"), "{}", shown.line);
}

#[test]
fn a_lower_max_output_moves_the_limit_as_the_clients_footer_does() {
    // CLAUDE_CODE_MAX_OUTPUT_TOKENS=8000: the client reserves 8,000 rather than 20,000.
    // Measured on 2.1.332 at 170,000: "89% context used"; with a 200k auto-compact window
    // "5% until auto-compact" (it compacts at 179,000).
    let mut t = Transcript::starting_at(20_000);
    t.grow_all(&[15_000; 10]); // 170k
    let sandbox = Sandbox::new().env("CLAUDE_CODE_MAX_OUTPUT_TOKENS", "8000");
    let path = t.write(&sandbox);
    let shown = render(&sandbox, &payload(&sandbox, &path, t.used, MODEL, 200_000));
    assert!(shown.line.contains(" 89% ≈2 left"), "{}", shown.line);
    assert_near(shown.requests_left, truth(t.used, 192_000, &[15_000]), "E = 192k");
    let sandbox = sandbox.env("CLAUDE_CODE_AUTO_COMPACT_WINDOW", "200000");
    let path = t.write(&sandbox);
    let shown = render(&sandbox, &payload(&sandbox, &path, t.used, MODEL, 200_000));
    assert!(shown.line.contains(" 95% ≈1 left"), "{}", shown.line);
    assert_near(shown.requests_left, truth(t.used, 179_000, &[15_000]), "T = 179k");
}
