//! The statusline's optional segments through the built binary, on Claude Code 2.1.332's
//! payloads: session cost and duration, usage limits (`rate_limits`, sent to subscription
//! logins; its shape is the one the client documents for statusline commands), the prompt
//! cache (`prompt_cache`), with and without those fields, on narrow terminals, with colours
//! and `NO_COLOR`, and with hostile values in every new field.

use serde_json::{Value, json};

use crate::common::*;

const EVERY_SEGMENT: &str = r#"{"statusline":{"segments":
    ["model","task","dir","context","limits","cost","duration","cache","compactions"]}}"#;

/// The 2.1.332 capture after a reply that read 140k from a warm cache (75% of 200k).
fn after_reply(sandbox: &Sandbox) -> Value {
    sandbox.statusline_payload_in_project(fixture_of("2.1.332", "statusline-after-reply-cache.json"))
}

/// The same, for a subscription login: usage limits, and a cache that expires in 200 s.
fn subscribed(sandbox: &Sandbox) -> Value {
    let now = now();
    let mut p = after_reply(sandbox);
    p["rate_limits"] = json!({"five_hour": {"used_percentage": 42, "resets_at": now + 80 * 60 + 30},
                              "seven_day": {"used_percentage": 12.4, "resets_at": now + 3 * 86_400 + 4 * 3600 + 30}});
    p["prompt_cache"]["expires_at"] = json!(now + 200);
    p
}

fn line(sandbox: &Sandbox, payload: &Value) -> String {
    plain(&sandbox.statusline(payload).assert_one_line())
}

#[test]
fn the_default_line_is_todays() {
    let sandbox = Sandbox::new();
    assert_eq!(
        line(&sandbox, &subscribed(&sandbox)),
        "Sonnet 4.5 │ proj │ ████████░░ 83%"
    );
}

#[test]
fn every_segment_in_the_configured_order() {
    let sandbox = Sandbox::new();
    sandbox.write(".baton/config.json", EVERY_SEGMENT);
    assert_eq!(
        line(&sandbox, &subscribed(&sandbox)),
        "Sonnet 4.5 │ proj │ ████████░░ 83% │ 5h 42% ↻1h20m · 7d 12% ↻3d4h │ $0.29 │ 10s │ cache 3m"
    );
    sandbox.write(
        ".baton/config.json",
        r#"{"statusline":{"segments":["cache","cost","context"]}}"#,
    );
    assert_eq!(
        line(&sandbox, &subscribed(&sandbox)),
        "cache 3m │ $0.29 │ ████████░░ 83%"
    );
}

#[test]
fn without_rate_limits_and_prompt_cache_those_segments_are_left_out() {
    let sandbox = Sandbox::new();
    sandbox.write(".baton/config.json", EVERY_SEGMENT);
    // An API-key login on 2.1.332: no rate_limits; 2.1.197 sends no prompt_cache either.
    let mut older = fixture("statusline-after-reply.json");
    older["cwd"] = json!(native(&sandbox.project));
    older["workspace"]["current_dir"] = json!(native(&sandbox.project));
    older["transcript_path"] = json!(native(sandbox.project.join("missing.jsonl")));
    assert_eq!(
        line(&sandbox, &older),
        "Sonnet 4.5 │ proj │ ████████░░ 83% │ $0.90 │ 13s"
    );
    // Session start: cost at zero, no cache yet.
    let mut start = fixture_of("2.1.332", "statusline-session-start.json");
    start["cwd"] = json!(native(&sandbox.project));
    start["workspace"]["current_dir"] = json!(native(&sandbox.project));
    start["transcript_path"] = json!(native(sandbox.project.join("missing.jsonl")));
    let shown = line(&sandbox, &start);
    assert!(shown.contains("░░░░░░░░░░ -- │ $0.00"), "{shown}");
    assert!(!shown.contains("cache") && !shown.contains("5h"), "{shown}");
}

#[test]
fn a_cold_cache_says_so_and_caching_never_seen_says_nothing() {
    let sandbox = Sandbox::new();
    sandbox.write(
        ".baton/config.json",
        r#"{"statusline":{"segments":["context","cache"]}}"#,
    );
    let mut expired = subscribed(&sandbox);
    expired["prompt_cache"]["expires_at"] = json!(now() - 5);
    assert_eq!(line(&sandbox, &expired), "████████░░ 83% │ cache cold");
    // The first reply's payload: warm false, caching not observed (no cache tokens reported).
    let mut first = fixture_of("2.1.332", "statusline.json");
    first["cwd"] = json!(native(&sandbox.project));
    first["workspace"]["current_dir"] = json!(native(&sandbox.project));
    assert_eq!(line(&sandbox, &first), "████████░░ 83%");
}

#[test]
fn narrow_terminals_drop_the_new_segments_first_and_keep_the_bar() {
    let sandbox = Sandbox::new();
    sandbox.write(".baton/config.json", EVERY_SEGMENT);
    let payload = subscribed(&sandbox);
    let at = |cols: usize| {
        let out = sandbox.run_env(&["statusline"], &payload, &[("COLUMNS", &cols.to_string())]);
        plain(&out.assert_one_line())
    };
    assert_eq!(
        at(80),
        "Sonnet 4.5 │ proj │ ████████░░ 83% │ 5h 42% ↻1h20m · 7d 12% ↻3d4h │ $0.29 │ 10s"
    );
    assert_eq!(
        at(76),
        "Sonnet 4.5 │ proj │ ████████░░ 83% │ 5h 42% ↻1h20m · 7d 12% ↻3d4h │ $0.29"
    );
    assert_eq!(at(40), "Sonnet 4.5 │ proj │ ████████░░ 83%");
    assert_eq!(at(10), "████████░░ 83%");
    for cols in 14..120 {
        let shown = at(cols);
        assert!(shown.chars().count() <= cols, "{cols}: {shown}");
        assert!(shown.contains("████████░░ 83%"), "{cols}: {shown}");
    }
}

#[test]
fn colours_unless_no_color() {
    let sandbox = Sandbox::new();
    sandbox.write(".baton/config.json", EVERY_SEGMENT);
    let payload = subscribed(&sandbox);
    let coloured = sandbox.statusline(&payload).assert_one_line();
    assert!(
        coloured.contains("\x1b[32m5h 42%"),
        "limits coloured by level: {coloured:?}"
    );
    let out = sandbox.run_env(&["statusline"], &payload, &[("NO_COLOR", "1")]);
    let bare = out.assert_one_line();
    assert!(!bare.contains('\x1b'), "{bare:?}");
    assert_eq!(bare, plain(&coloured));
}

#[test]
fn hostile_values_in_the_new_fields_never_blank_the_line() {
    let sandbox = Sandbox::new();
    sandbox.write(".baton/config.json", EVERY_SEGMENT);
    let hostile: [(&str, Value); 10] = [
        ("rate_limits", json!("lots")),
        (
            "rate_limits",
            json!({"five_hour": {"used_percentage": "42", "resets_at": -1}, "seven_day": null}),
        ),
        (
            "rate_limits",
            json!({"five_hour": {"used_percentage": 1e308, "resets_at": 1e308}, "seven_day": [1, 2]}),
        ),
        (
            "rate_limits",
            json!({"five_hour": {"used_percentage": 250, "resets_at": now() + 60}, "seven_day": {"used_percentage": -5}}),
        ),
        ("prompt_cache", json!([1, 2])),
        (
            "prompt_cache",
            json!({"warm": 1, "caching_observed": "true", "expires_at": "soon"}),
        ),
        (
            "prompt_cache",
            json!({"warm": true, "caching_observed": true, "expires_at": 1e308}),
        ),
        ("cost", json!({"total_cost_usd": -3, "total_duration_ms": 1e308})),
        (
            "cost",
            json!({"total_cost_usd": "\u{1b}[31m$999", "total_duration_ms": {"ms": 1}}),
        ),
        ("cost", json!(null)),
    ];
    for (field, value) in hostile {
        let mut payload = subscribed(&sandbox);
        payload[field] = value.clone();
        let out = sandbox.statusline(&payload);
        let shown = plain(&out.assert_one_line());
        assert!(shown.contains("████████░░ 83%"), "{field}={value}: {shown}");
        assert!(
            !shown.contains("$999") && !shown.contains("e308") && !shown.contains("-") && !shown.contains("250"),
            "{field}={value}: {shown}"
        );
        assert!(
            !out.stdout.contains("\x1b[31m$"),
            "{field}={value}: no escape from a payload string"
        );
    }
}

#[test]
fn a_bad_config_keeps_the_line_and_doctor_names_what_it_skipped() {
    let sandbox = Sandbox::new();
    let config = sandbox.project.join(".baton/config.json");
    // Not JSON: the whole file is ignored, the default line stays.
    sandbox.write(".baton/config.json", r#"{"statusline": {"segments": ["cost",}"#);
    assert_eq!(
        line(&sandbox, &subscribed(&sandbox)),
        "Sonnet 4.5 │ proj │ ████████░░ 83%"
    );
    let doctor = sandbox.run(&["doctor"], b"");
    let said = format!("FIX  baton's config {} is not JSON", native(&config));
    assert!(doctor.stdout.contains(&said), "{}", doctor.stdout);

    // Typos: each skipped name or value falls back to its default; the rest is read.
    sandbox.write(
        ".baton/config.json",
        r#"{"statusline": {"segments": ["costs", "context", "cache"], "percent": "Raw"}}"#,
    );
    assert_eq!(line(&sandbox, &subscribed(&sandbox)), "████████░░ 83% │ cache 3m");
    let doctor = sandbox.run(&["doctor"], b"");
    assert!(
        doctor.stdout.contains(&format!(
            "FIX  baton's config {}: ignored (its default used) `statusline.segments[0]`: \"costs\"; \
             `statusline.percent`: \"Raw\"",
            native(&config)
        )) && doctor.stdout.contains(
            "the segments are model, task, dir, context, cost, duration, limits, cache, compactions, largest"
        ),
        "{}",
        doctor.stdout
    );

    sandbox.write(".baton/config.json", EVERY_SEGMENT);
    let doctor = sandbox.run(&["doctor"], b"");
    let said = format!("ok   baton's config {} reads cleanly", native(&config));
    assert!(doctor.stdout.contains(&said), "{}", doctor.stdout);
}
