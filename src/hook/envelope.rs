//! The JSON a hook prints: `{"hookSpecificOutput":{"hookEventName":…,"additionalContext":…}}`.

use serde_json::json;

/// Claude Code caps hook strings at this many characters.
pub const MAX_CONTEXT_CHARS: usize = 10_000;

/// Events whose output may carry `additionalContext` (PROTOCOL.md §2).
const ACCEPTS_CONTEXT: &[&str] = &[
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "SubagentStart",
    "Stop",
    "SubagentStop",
];

/// The output that adds `text` to the model's context for `event`; `None` when the event
/// does not accept additional context.
pub fn additional_context(event: &str, text: &str) -> Option<String> {
    if !ACCEPTS_CONTEXT.contains(&event) {
        return None;
    }
    let text: String = text.chars().take(MAX_CONTEXT_CHARS).collect();
    Some(json!({"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_the_event_and_caps_the_text() {
        let out = additional_context("PostToolUse", &"é".repeat(20_000)).unwrap();
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["hookSpecificOutput"]["hookEventName"], "PostToolUse");
        assert_eq!(
            v["hookSpecificOutput"]["additionalContext"]
                .as_str()
                .unwrap()
                .chars()
                .count(),
            MAX_CONTEXT_CHARS
        );
        assert!(additional_context("PreCompact", "x").is_none());
    }
}
