//! What the mod draws: a running subagent's row and the band above the prompt, in the
//! statusline's layout, widths and colours (none with `NO_COLOR`), from the exact figures.

use serde_json::{Value, json};

use super::ask;
use crate::common::*;

fn row(columns: u64) -> Value {
    json!({"event": "row", "columns": columns, "agent_type": "db-coding-agent",
           "description": "write the migration", "model": "claude-sonnet-4-5", "window": 200_000,
           "requests": [76_000, 88_000, 100_000, 112_000]})
}

#[test]
fn a_subagent_row_shows_its_context_and_requests_left_within_its_columns() {
    let sandbox = Sandbox::new().env("NO_COLOR", "1");
    let body = |columns| ask(&sandbox, row(columns))["body"].as_str().unwrap().to_owned();
    // 112k of the 180k the client counts toward: 62%; 68k left at 12k a request: 6.
    assert_eq!(
        body(120),
        "db-coding-agent │ write the migration │ ██████░░░░ 62% ≈6 left"
    );
    assert_eq!(body(45), "db-coding-agent │ ██████░░░░ 62% ≈6 left");
    for columns in 14..100 {
        let text = body(columns);
        assert!(text.chars().count() <= columns as usize, "{columns}: {text}");
    }
    let coloured = Sandbox::new();
    let text = ask(&coloured, row(120))["body"].as_str().unwrap().to_owned();
    assert!(
        text.contains("\x1b[33m██████░░░░ 62%\x1b[0m"),
        "yellow from 50%: {text:?}"
    );
    assert_eq!(plain(&text), body(120));
}

#[test]
fn the_band_puts_the_forecast_in_words_and_styles_its_runs() {
    let sandbox = Sandbox::new();
    let band = ask(
        &sandbox,
        json!({"event": "band", "columns": 150, "model": "claude-sonnet-4-5", "window": 200_000,
               "requests": [110_000, 120_000, 130_000, 140_000, 150_000]}),
    );
    let spans = band["spans"].as_array().unwrap();
    let text: String = spans.iter().map(|s| s["text"].as_str().unwrap()).collect();
    assert_eq!(
        text,
        "context │ ████████░░ 83% At the recent rate (about 10k tokens per request), about 3 more \
         requests fit before compaction."
    );
    assert!(
        spans
            .iter()
            .any(|s| s["text"] == "████████░░ 83%" && s["color"] == "red"),
        "{band}"
    );
    assert!(
        spans.iter().all(|s| !s["text"].as_str().unwrap().contains('\x1b')),
        "no escapes: {band}"
    );

    sandbox.write(".baton/config.json", r#"{"mod": {"band": false, "rows": false}}"#);
    assert_eq!(
        ask(
            &sandbox,
            json!({"event": "band", "columns": 150, "requests": [150_000]})
        ),
        json!({})
    );
    assert_eq!(ask(&sandbox, row(120)), json!({}));
    assert_eq!(
        ask(&sandbox, json!({"event": "start"})),
        json!({"enabled": true, "rows": false, "band": false})
    );
}
