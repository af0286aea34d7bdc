//! `baton mod` on any question: the input's first JSON object is the question (its `cwd`
//! confined to the sandbox's project, whose files come from its `"fuzz"` scene). The answer is
//! always exactly one JSON object on one line; nothing reaches stdout or stderr; nothing is
//! written outside HOME, TMPDIR and the project; a warning is non-empty text; a row's body is
//! one line of printable text and SGR escapes, and it and the band's runs (printable, no
//! escapes) fit the columns asked for (the meter alone may not).

#![no_main]

use baton::words::width;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let sandbox = baton_fuzz::sandbox();
    let Some(scene) = baton_fuzz::scene::set(sandbox, data) else {
        return;
    };
    let mut question: Value = serde_json::from_slice(&scene.payload).unwrap_or(Value::Null);
    if let Some(cwd) = question.get("cwd").and_then(Value::as_str) {
        question["cwd"] = Value::from(sandbox.confine(cwd, &sandbox.project()));
    }
    let bytes = if question.is_null() {
        scene.payload.clone()
    } else {
        question.to_string().into_bytes()
    };
    let (answer, written) = baton_fuzz::captured(|| baton::client_mod::respond(&bytes, baton_fuzz::NOW));
    assert!(
        written.stdout.is_empty() && written.stderr.is_empty(),
        "baton mod wrote by itself: {written:?}"
    );
    let escaped = sandbox.unexpected_entries();
    assert!(
        escaped.is_empty(),
        "written outside HOME, TMPDIR and the project: {escaped:?}"
    );
    assert!(!answer.contains('\n'), "more than one line: {answer:?}");
    let answer: Value = serde_json::from_str(&answer).expect("the answer is JSON");
    assert!(answer.is_object(), "the answer is an object: {answer}");

    let columns = question.get("columns").and_then(Value::as_u64).map(|c| c as usize);
    if let Some(context) = answer.get("context").filter(|c| !c.is_null()) {
        assert!(
            context.as_str().is_some_and(|c| !c.trim().is_empty()),
            "an empty warning: {answer}"
        );
    }
    if let Some(body) = answer.get("body") {
        let body = body.as_str().expect("a row's body is text");
        let plain = without_sgr(body);
        assert!(!plain.chars().any(char::is_control), "control characters in {body:?}");
        if let Some(columns) = columns.filter(|c| *c > 0) {
            let cells = width::cells(&plain);
            assert!(
                cells <= columns.max(baton_fuzz::METER_CELLS),
                "{cells} cells in {columns} columns: {body:?}"
            );
        }
    }
    if let Some(spans) = answer.get("spans") {
        let text: String = spans
            .as_array()
            .expect("the band is a list of runs")
            .iter()
            .map(|run| run["text"].as_str().expect("a run's text").to_owned())
            .collect();
        assert!(
            !text.chars().any(char::is_control),
            "control characters in the band {text:?}"
        );
        let columns = columns.unwrap_or(80);
        let cells = width::cells(&text);
        assert!(
            cells <= columns.max(baton_fuzz::METER_CELLS),
            "{cells} cells in {columns} columns: {text:?}"
        );
    }
});

/// `text` without its SGR escape sequences (`ESC [ … m`).
fn without_sgr(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            assert_eq!(chars.next(), Some('['), "an escape that is not SGR in {text:?}");
            for c in chars.by_ref() {
                if c == 'm' {
                    break;
                }
                assert!(c.is_ascii_digit() || c == ';', "an escape that is not SGR in {text:?}");
            }
        } else {
            out.push(c);
        }
    }
    out
}
