//! `baton mod`, what baton's mod (mod/baton.tsx, inside Claude Code 2.1.287+) asks, through the
//! built binary: the marker that hands a session's warnings and handoffs to the mod (and back
//! when the mod ends, is switched off, or its client is gone), warnings judged on the client's
//! exact figures with the monitor's thresholds and debounce, the handoff at a subagent's spawn,
//! and the row and band it draws. The mod itself is tested by `claude plugin test`
//! (tests/e2e/baton_mod.rs), and end to end with the real client.

mod draw;
mod largest;
mod marker;
mod spawn;
mod tool;
mod window;

use serde_json::{Value, json};

use crate::common::Sandbox;

pub const SESSION: &str = "6a1f0c3e-58b2-4c1e-9d7a-2f3b4c5d6e7f";

/// Asks `baton mod` `question` (with the session and the sandbox's project filled in); checks
/// the hook contract and returns the answer.
pub fn ask(sandbox: &Sandbox, question: Value) -> Value {
    let mut question = question;
    if question.get("session_id").is_none() {
        question["session_id"] = json!(SESSION);
    }
    if question.get("cwd").is_none() {
        question["cwd"] = json!(sandbox.project);
    }
    let out = sandbox.run(&["mod"], question.to_string().as_bytes());
    out.assert_hook_contract();
    serde_json::from_str(out.stdout.trim()).unwrap_or_else(|e| panic!("{e}: {out:?}"))
}

/// A `tool` question: a main-agent tool call whose request and the ones before it held
/// `requests` tokens of a 200k window.
pub fn tool_call(requests: &[u64]) -> Value {
    json!({"event": "tool", "tool_use_id": "toolu_01", "model": "claude-sonnet-4-5",
           "window": 200_000, "requests": requests})
}
