//! The reply that made a tool call reaching the transcript late, or not while its hook runs (a
//! busy machine: Claude Code writes the transcript from a queue). The first call of a session,
//! with no figure known yet, waits for it; a call whose reply is not written in time is judged
//! at the next call, whose warning keeps the debounce's rhythm (calls 1, 6, 11).

use std::time::Duration;

use super::lag::{Session, head, warning};
use crate::common::HANG_LIMIT;

/// Longer than the monitor once waited without the transcript growing (250 ms): what the reply
/// line took on a loaded machine (probe/FINDINGS.md §11).
const LATE: Duration = Duration::from_millis(700);

/// A session's tool calls, numbered from 1, and the heads of the warnings given at them.
struct Calls {
    session: Session,
    made: usize,
    said: Vec<(usize, Option<String>)>,
}

impl Calls {
    fn new() -> Self {
        Self {
            session: Session::new(),
            made: 0,
            said: Vec::new(),
        }
    }

    /// `n` calls, each made by a reply at `tokens` that is in the transcript when its hook runs.
    fn in_time(mut self, n: usize, tokens: u64) -> Self {
        for _ in 0..n {
            let id = self.session.reply(tokens);
            self.hook(&id);
            self.session.result(&id);
        }
        self
    }

    /// A call made by a reply at `tokens` that reaches the transcript only after its hook ended.
    fn late(mut self, tokens: u64) -> Self {
        let (lines, id) = self.session.next_reply(tokens);
        self.hook(&id);
        self.session.append(&lines);
        self.session.result(&id);
        self
    }

    fn hook(&mut self, id: &str) {
        self.made += 1;
        if let Some(text) = self.session.tool_call(id) {
            self.said.push((self.made, Some(head(&text))));
        }
    }
}

#[test]
fn the_first_call_waits_for_its_reply_when_no_figure_is_known() {
    // `claude -p` at 70% used from its first request: the transcript holds only the prompt, and
    // the reply that made the call arrives well after the hook started, with nothing between.
    let mut session = Session::new();
    let (late, id) = session.next_reply(140_000);
    let writer = session.append_after(late, LATE);
    let out = session.tool_call_outcome(&id);
    writer.join().unwrap();
    out.assert_hook_contract();
    assert_eq!(out.context().as_deref().map(head), warning("WARNING", 70));
}

#[test]
fn the_first_call_waits_for_a_transcript_the_client_has_not_created_yet() {
    // 2.1.197's `claude -p` creates the transcript at its first append, which can come after
    // the first tool call's hook started: with nothing else known, the hook waits for the file
    // too (it once judged the call at once, and the first warning came a call late).
    let mut session = Session::new();
    session.remove_transcript();
    let (late, id) = session.next_reply(140_000);
    let writer = session.append_after(late, Duration::from_millis(300));
    let out = session.tool_call_outcome(&id);
    writer.join().unwrap();
    out.assert_hook_contract();
    assert_eq!(out.context().as_deref().map(head), warning("WARNING", 70));
}

#[test]
fn a_reply_never_written_while_the_hook_runs_ends_the_wait_and_says_nothing() {
    let mut session = Session::new();
    let (_never, id) = session.next_reply(140_000);
    let out = session.tool_call_outcome(&id);
    out.assert_hook_contract();
    assert_eq!(out.context(), None, "no figure: nothing to say yet");
    assert!(
        out.elapsed < HANG_LIMIT,
        "the wait ends well before the client's hook timeout: {:?}",
        out.elapsed
    );
    let state = session
        .sandbox
        .read_json(&session.sandbox.debounce_file(super::forecast::SESSION));
    assert_eq!(
        state["undecided"],
        serde_json::json!([id]),
        "kept for the next call: {state}"
    );
}

#[test]
fn a_warning_not_given_at_one_call_is_given_at_the_next_in_the_same_rhythm() {
    // Call 1's reply (70% used) reaches the transcript only after its hook has ended.
    let calls = Calls::new().late(140_000).in_time(11, 140_000);
    let warned = warning("WARNING", 70);
    assert_eq!(
        calls.said,
        [(2, warned.clone()), (6, warned.clone()), (11, warned)],
        "call 1's warning comes at call 2, and the next ones where they were due: 6 and 11"
    );
}

#[test]
fn a_late_escalation_is_given_at_the_next_call_and_debounced_from_its_own() {
    // Call 1 at 70% warns. Call 2's reply (80%, CRITICAL) is written after its hook ended: the
    // 70% known then is not due again, so nothing is said until call 3, which escalates; the next
    // CRITICAL is due five calls after call 2's.
    let calls = Calls::new().in_time(1, 140_000).late(160_000).in_time(6, 160_000);
    let critical = warning("CRITICAL", 80);
    assert_eq!(
        calls.said,
        [(1, warning("WARNING", 70)), (3, critical.clone()), (7, critical)]
    );
}

#[test]
fn a_crossing_written_late_warns_at_the_next_call_and_counts_from_the_crossing() {
    // 120k known (60%, no warning); call 2's own reply, at 130k (65%), is written after its hook
    // ended. Call 3 (140k) gives the WARNING owed since call 2, with the newest figure, and the
    // next one is due five calls after call 2: at call 7.
    let calls = Calls::new().in_time(1, 120_000).late(130_000).in_time(6, 140_000);
    let warned = warning("WARNING", 70);
    assert_eq!(calls.said, [(3, warned.clone()), (7, warned)]);
}

#[test]
fn calls_whose_replies_are_never_written_in_time_still_warn_five_calls_on() {
    // A stalled disk: from call 2 on, every reply (70% used, CRITICAL within one request's reach,
    // so each is waited for) reaches the transcript only after its hook ended, and each call is
    // left undecided. They count all the same: the WARNING given at call 1 is due again at 6.
    let calls = (0..5).fold(Calls::new().in_time(1, 140_000), |calls, _| calls.late(140_000));
    let warned = warning("WARNING", 70);
    assert_eq!(calls.said, [(1, warned.clone()), (6, warned)]);
}
