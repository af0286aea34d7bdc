//! What one run of the binary did, and the checks every hook run must pass.

use std::time::Duration;

use serde_json::Value;

/// What one run of baton did.
#[derive(Debug)]
pub struct Outcome {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
}

impl Outcome {
    /// The hook contract: exit 0, empty stderr, stdout empty or exactly one JSON object.
    #[track_caller]
    pub fn assert_hook_contract(&self) -> &Self {
        assert_eq!(self.code, Some(0), "exit code; {self:?}");
        assert!(self.stderr.is_empty(), "stderr must stay empty; {self:?}");
        let out = self.stdout.trim();
        if !out.is_empty() {
            let v: Value =
                serde_json::from_str(out).unwrap_or_else(|e| panic!("stdout is not one JSON object ({e}): {out}"));
            assert!(v.is_object(), "stdout must be an object: {out}");
        }
        self
    }

    /// The statusline contract: exit 0, empty stderr, exactly one non-blank line.
    #[track_caller]
    pub fn assert_one_line(&self) -> String {
        assert_eq!(self.code, Some(0), "exit code; {self:?}");
        assert!(self.stderr.is_empty(), "stderr must stay empty; {self:?}");
        let lines: Vec<&str> = self.stdout.lines().collect();
        assert_eq!(lines.len(), 1, "one line expected; {self:?}");
        assert!(!lines[0].trim().is_empty(), "the line must not be blank");
        lines[0].to_owned()
    }

    /// The additionalContext the hook gave the model; fails when there is none.
    #[track_caller]
    pub fn context_text(&self) -> String {
        self.context()
            .unwrap_or_else(|| panic!("expected additionalContext; {self:?}"))
    }

    /// The additionalContext the hook gave the model, if any.
    #[track_caller]
    pub fn context(&self) -> Option<String> {
        self.assert_hook_contract();
        let out = self.stdout.trim();
        if out.is_empty() {
            return None;
        }
        let v: Value = serde_json::from_str(out).unwrap();
        assert_eq!(v["hookSpecificOutput"]["hookEventName"], "PostToolUse", "{out}");
        Some(
            v["hookSpecificOutput"]["additionalContext"]
                .as_str()
                .expect("additionalContext")
                .to_owned(),
        )
    }
}

/// Strips ANSI escape sequences.
pub fn plain(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}
