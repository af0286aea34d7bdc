//! What a flagged spot-check says: to the subagent (SubagentStop context) and to the
//! orchestrator (PostToolUse context of its `Agent` call).

use crate::agents::ledger::Run;
use crate::agents::verification::Verification;

/// Most refuted claims a hook lists; the rest are counted (`baton agents verify` shows all).
const MAX_LISTED: usize = 20;

/// `- reason` lines for the refuted checks, at most [`MAX_LISTED`] of them.
fn problem_lines(verification: &Verification) -> String {
    let mut lines = String::new();
    for check in verification.problems().take(MAX_LISTED) {
        lines.push_str(&format!("- {}\n", check.detail));
    }
    let more = verification.problems().count().saturating_sub(MAX_LISTED);
    if more > 0 {
        lines.push_str(&format!("- … and {more} more\n"));
    }
    lines
}

/// SubagentStop context for a flagged run, read by the subagent itself (Claude Code feeds it
/// back to the agent, which continues): what does not hold, and what to do about it.
pub fn subagent_text(verification: &Verification) -> String {
    let mut text = String::from("baton spot-check: your final report does not match the repository:\n");
    text.push_str(&problem_lines(verification));
    text.push_str(
        "If that work is missing, do it now; otherwise end with a corrected report that names only \
         the files, commits and plans you actually created, changed or completed.",
    );
    text
}

/// Context for the orchestrator after its `Agent` call returned a flagged run.
pub fn orchestrator_text(run: &Run, verification: &Verification) -> String {
    let kind = run.agent_type.as_deref().unwrap_or("subagent");
    let mut text = format!(
        "baton spot-check: the {kind} run {} reported work that the repository does not show:\n",
        run.id
    );
    text.push_str(&problem_lines(verification));
    text.push_str(&format!(
        "Do not rely on its report until this is resolved; details: `baton agents verify {}`.",
        run.id
    ));
    text
}
