//! The JSON a hook prints: `{"hookSpecificOutput":{"hookEventName":…,"additionalContext":…}}`.

use serde_json::json;

use super::fit::{self, Section};

/// Claude Code's cap on `additionalContext`, in UTF-16 code units, inclusive (measured on
/// 2.1.197 and 2.1.332 for SessionStart, PostToolUse and SubagentStart): a longer text is
/// replaced by a 2 KB preview and a file path. Callers with parts of unequal weight fit
/// their text first with [`fit::fit`].
pub const MAX_CONTEXT_UNITS: usize = 10_000;

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
/// does not accept additional context. A text over the cap loses whole lines from its end,
/// and says so.
pub fn additional_context(event: &str, text: &str) -> Option<String> {
    if !ACCEPTS_CONTEXT.contains(&event) {
        return None;
    }
    let text = if fit::utf16_len(text) <= MAX_CONTEXT_UNITS {
        text.to_owned()
    } else {
        fit::fit(&[Section::new("this text", 0, text.to_owned())], MAX_CONTEXT_UNITS, "")
    };
    Some(json!({"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn context_of(out: &str) -> String {
        let v: serde_json::Value = serde_json::from_str(out).unwrap();
        v["hookSpecificOutput"]["additionalContext"]
            .as_str()
            .unwrap()
            .to_owned()
    }

    #[test]
    fn names_the_event_and_caps_the_text_in_utf16_units() {
        let out = additional_context("PostToolUse", &"😀 step\n".repeat(3_000)).unwrap();
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["hookSpecificOutput"]["hookEventName"], "PostToolUse");
        let text = context_of(&out);
        assert!(fit::utf16_len(&text) <= MAX_CONTEXT_UNITS, "{}", fit::utf16_len(&text));
        assert!(text.ends_with("of 3000 lines).]\n"), "{}", &text[text.len() - 200..]);
        assert!(additional_context("PreCompact", "x").is_none());
    }

    #[test]
    fn a_text_at_the_cap_is_left_whole() {
        let at_cap = "😀".repeat(MAX_CONTEXT_UNITS / 2);
        assert_eq!(
            context_of(&additional_context("SessionStart", &at_cap).unwrap()),
            at_cap
        );
    }
}
