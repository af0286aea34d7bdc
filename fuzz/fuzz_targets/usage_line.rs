//! The report's line skimmer (`accounting::line::UsageLine`) against a full JSON parser: on
//! every line that is a JSON object the skimmer reads the same fields as serde_json does,
//! with the same leniency (a value of the wrong type is absent, a count that is no count is
//! counted as unreadable); on a line that is JSON but no object it reads nothing. The line is
//! checked as given and as Claude Code would write it (compact, keys once); counts of
//! unreadable values only in that form, where each key is there once.

#![no_main]

use baton::accounting::line::UsageLine;
use baton::api_usage::{ApiUsage, CacheCreation};
use libfuzzer_sys::fuzz_target;
use serde_json::{Map, Value};

/// What a reader takes from one line.
#[derive(Debug, PartialEq)]
struct Fields {
    kind: Option<String>,
    is_sidechain: Option<bool>,
    request_id: Option<String>,
    timestamp: Option<String>,
    message: Option<(Option<String>, Option<String>, Option<ApiUsage>)>,
    unreadable_counts: u32,
}

fuzz_target!(|data: &[u8]| {
    let skimmed = UsageLine::parse(data).map(|line| fields_of(&line));
    let Ok(value) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let Some(object) = value.as_object() else {
        assert!(skimmed.is_none(), "JSON that is no object reads as a line");
        return;
    };
    let expected = reference(object);
    let skimmed = skimmed.expect("a JSON object is a line");
    // Escapes in keys are never written by the client and the skimmer compares keys as
    // written; the form below covers escaped values.
    if !data.contains(&b'\\') {
        assert_eq!(
            Fields {
                unreadable_counts: expected.unreadable_counts,
                ..skimmed
            },
            expected,
            "as given"
        );
    }
    let canonical = serde_json::to_vec(&value).expect("a value serialises");
    let skimmed = UsageLine::parse(&canonical).map(|line| fields_of(&line));
    assert_eq!(skimmed.as_ref(), Some(&expected), "as the client writes it");
});

fn fields_of(line: &UsageLine) -> Fields {
    let text = |t: &Option<std::borrow::Cow<str>>| t.as_deref().map(str::to_owned);
    Fields {
        kind: text(&line.kind),
        is_sidechain: line.is_sidechain,
        request_id: text(&line.request_id),
        timestamp: text(&line.timestamp),
        message: line
            .message
            .as_ref()
            .map(|m| (text(&m.id), text(&m.model), m.usage.clone())),
        unreadable_counts: line.unreadable_counts,
    }
}

/// The fields as a full parse gives them.
fn reference(line: &Map<String, Value>) -> Fields {
    let text = |map: &Map<String, Value>, key: &str| map.get(key).and_then(Value::as_str).map(str::to_owned);
    let mut unreadable = 0;
    let message = line.get("message").and_then(Value::as_object).map(|message| {
        let usage = message.get("usage").and_then(Value::as_object).map(|usage| {
            let mut read = |map: &Map<String, Value>, key: &str| match map.get(key) {
                None | Some(Value::Null) => None,
                Some(value) => {
                    let n = count(value);
                    unreadable += u32::from(n.is_none());
                    n
                }
            };
            ApiUsage {
                input_tokens: read(usage, "input_tokens"),
                output_tokens: read(usage, "output_tokens"),
                cache_creation_input_tokens: read(usage, "cache_creation_input_tokens"),
                cache_read_input_tokens: read(usage, "cache_read_input_tokens"),
                cache_creation: usage
                    .get("cache_creation")
                    .and_then(Value::as_object)
                    .map(|split| CacheCreation {
                        ephemeral_5m_input_tokens: read(split, "ephemeral_5m_input_tokens"),
                        ephemeral_1h_input_tokens: read(split, "ephemeral_1h_input_tokens"),
                    }),
            }
        });
        (text(message, "id"), text(message, "model"), usage)
    });
    Fields {
        kind: text(line, "type"),
        is_sidechain: line.get("isSidechain").and_then(Value::as_bool),
        request_id: text(line, "requestId"),
        timestamp: text(line, "timestamp"),
        message,
        unreadable_counts: unreadable,
    }
}

/// A token count: a non-negative integer, or a finite non-negative number rounded (an
/// integer beyond `u64` saturates); `None` for anything else.
fn count(value: &Value) -> Option<u64> {
    value.as_u64().or_else(|| {
        let n = value.as_f64()?;
        (n.is_finite() && n >= 0.0).then(|| n.round() as u64)
    })
}
