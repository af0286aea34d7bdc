//! The transcript tail reader (`context::transcript::last_context_usage`) against a reference
//! that parses the whole (small) transcript: for every input, on both chains, the figure read
//! from the tail is the one the whole file states. `{"pad":N}` lines push earlier lines past
//! the reader's 64 KiB first window.

#![no_main]

use baton::context::transcript::{Chain, TailUsage, last_context_usage};
use baton_fuzz::transcript::{Lines, build};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let sandbox = baton_fuzz::sandbox();
    let transcript = build(data, Lines::AsTheClientWrites);
    let path = sandbox.io.join("transcript.jsonl");
    std::fs::write(&path, &transcript).expect("transcript file");
    for chain in [Chain::Main, Chain::Subagent] {
        let read = last_context_usage(&path, chain).expect("a regular file reads");
        let expected = whole_file(&transcript, chain);
        assert_eq!(
            read,
            expected,
            "{chain:?} chain of a {}-byte transcript",
            transcript.len()
        );
    }
});

/// The reference: the last line of the whole file that states the context size.
fn whole_file(transcript: &[u8], chain: Chain) -> Option<TailUsage> {
    transcript
        .split(|&b| b == b'\n')
        .rev()
        .filter_map(|line| serde_json::from_slice::<Value>(line).ok())
        .find_map(|line| stated_usage(&line, chain))
}

/// What one line states, by the documented rule: a `system` line of subtype
/// `compact_boundary` states its `compactMetadata.postTokens`; an `assistant` reply states the
/// input, cache-write and cache-read tokens of its `message.usage`, unless it is an API error,
/// synthetic, or (on the main chain) a sidechain's. A value of the wrong type is absent.
fn stated_usage(line: &Value, chain: Chain) -> Option<TailUsage> {
    match line.get("type")?.as_str()? {
        "system" if line.get("subtype").and_then(Value::as_str) == Some("compact_boundary") => {
            let post = line.get("compactMetadata")?.as_object()?.get("postTokens")?.as_f64()?;
            (post.is_finite() && post >= 0.0).then(|| TailUsage {
                used_tokens: post.round() as u64,
                model: None,
                after_compaction: true,
            })
        }
        "assistant" => {
            let flag = |key: &str| line.get(key).and_then(Value::as_bool) == Some(true);
            if (chain == Chain::Main && flag("isSidechain")) || flag("isApiErrorMessage") {
                return None;
            }
            let message = line.get("message")?.as_object()?;
            let model = message.get("model").and_then(Value::as_str);
            if model == Some("<synthetic>") {
                return None;
            }
            let usage = message.get("usage")?.as_object()?;
            // A count that is there (not null) but is no count sets the whole usage aside.
            let mut present = Vec::new();
            for key in ["input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"] {
                match usage.get(key) {
                    None | Some(Value::Null) => {}
                    Some(value) => present.push(count(value)?),
                }
            }
            if present.is_empty() {
                return None;
            }
            Some(TailUsage {
                used_tokens: present.iter().fold(0u64, |sum, n| sum.saturating_add(*n)),
                model: model.map(str::to_owned),
                after_compaction: false,
            })
        }
        _ => None,
    }
}

/// A token count: a non-negative integer, or a finite non-negative number rounded; `None`
/// for anything else.
fn count(value: &Value) -> Option<u64> {
    value.as_u64().or_else(|| {
        let n = value.as_f64()?;
        (n.is_finite() && n >= 0.0).then(|| n.round() as u64)
    })
}
