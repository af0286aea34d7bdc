//! Token totals of a session: tallies per model (main chain and subagents apart,
//! long-context requests apart), and the de-duplication of API responses that the client
//! wrote as several lines.

use std::collections::{HashSet, VecDeque};
use std::hash::{BuildHasherDefault, Hash, Hasher};

use serde::Serialize;

use super::pricing::LONG_CONTEXT_THRESHOLD;
use super::tokens::TokenCounts;

/// How many recent responses stay open to absorb their streamed repeats. Repeats of one
/// response are written next to each other (a few lines apart when subagents interleave).
const OPEN_RESPONSES: usize = 64;

/// The responses of one model, in one part of the session.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Tally {
    pub requests: u64,
    /// Requests at or below [`LONG_CONTEXT_THRESHOLD`] input tokens.
    pub standard: TokenCounts,
    /// Requests above it (billed at the long-context rate where a model has one).
    pub long_context: TokenCounts,
    pub long_context_requests: u64,
}

impl Tally {
    /// Counts one response.
    pub fn add_response(&mut self, tokens: &TokenCounts) {
        self.requests = self.requests.saturating_add(1);
        if tokens.prompt() > LONG_CONTEXT_THRESHOLD {
            self.long_context_requests = self.long_context_requests.saturating_add(1);
            self.long_context.add(tokens);
        } else {
            self.standard.add(tokens);
        }
    }

    /// Adds another tally.
    pub fn add(&mut self, other: &Self) {
        self.requests = self.requests.saturating_add(other.requests);
        self.standard.add(&other.standard);
        self.long_context.add(&other.long_context);
        self.long_context_requests = self.long_context_requests.saturating_add(other.long_context_requests);
    }

    /// All tokens of both tiers.
    pub fn tokens(&self) -> TokenCounts {
        let mut all = self.standard;
        all.add(&self.long_context);
        all
    }
}

/// One model's share of a session.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ModelUsage {
    pub model: String,
    /// The main conversation.
    pub main: Tally,
    /// Subagent transcripts and sidechain lines.
    pub subagents: Tally,
}

impl ModelUsage {
    /// Main and subagents together.
    pub fn combined(&self) -> Tally {
        let mut all = self.main;
        all.add(&self.subagents);
        all
    }
}

/// The session's tallies per model, in order of first appearance.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct UsageTotals {
    pub models: Vec<ModelUsage>,
}

impl UsageTotals {
    /// The index of `model`, added on first sight (sessions use a handful of models).
    pub fn model_index(&mut self, model: &str) -> usize {
        if let Some(i) = self.models.iter().position(|m| m.model == model) {
            return i;
        }
        self.models.push(ModelUsage {
            model: model.to_owned(),
            ..ModelUsage::default()
        });
        self.models.len() - 1
    }

    fn add_response(&mut self, response: &Response) {
        let usage = &mut self.models[response.model];
        let tally = if response.subagent {
            &mut usage.subagents
        } else {
            &mut usage.main
        };
        tally.add_response(&response.tokens);
    }
}

/// One API response read from a transcript line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Response {
    /// Index into [`UsageTotals::models`].
    pub model: usize,
    pub subagent: bool,
    pub tokens: TokenCounts,
}

/// The identity of a response: `message.id` + `requestId`, hashed. A line lacking either
/// cannot be matched with certainty and counts on its own (the API has been seen to reuse
/// a message id across distinct requests).
pub fn response_key(message_id: Option<&str>, request_id: Option<&str>) -> Option<u64> {
    let (message_id, request_id) = (message_id?, request_id?);
    let mut hasher = std::hash::DefaultHasher::new();
    message_id.hash(&mut hasher);
    request_id.hash(&mut hasher);
    Some(hasher.finish())
}

/// Counts each response once. Repeats close together are merged (largest figures win);
/// a repeat of a response already counted (a resumed session copying old lines) is dropped.
/// Memory: [`OPEN_RESPONSES`] open entries plus one 8-byte key per distinct response.
#[derive(Debug, Default)]
pub struct Deduplicator {
    open: VecDeque<(u64, Response)>,
    seen: HashSet<u64, BuildHasherDefault<KeyHasher>>,
    /// Lines that repeated a response already counted or open.
    pub repeated_lines: u64,
}

impl Deduplicator {
    /// Takes one response line; `key` from [`response_key`].
    pub fn add(&mut self, key: Option<u64>, response: Response, totals: &mut UsageTotals) {
        let Some(key) = key else {
            totals.add_response(&response);
            return;
        };
        if let Some((_, open)) = self.open.iter_mut().rev().find(|(k, _)| *k == key) {
            open.tokens.absorb(&response.tokens);
            self.repeated_lines += 1;
            return;
        }
        if !self.seen.insert(key) {
            self.repeated_lines += 1;
            return;
        }
        if self.open.len() == OPEN_RESPONSES
            && let Some((_, oldest)) = self.open.pop_front()
        {
            totals.add_response(&oldest);
        }
        self.open.push_back((key, response));
    }

    /// Counts the responses still open; call once at the end.
    pub fn finish(&mut self, totals: &mut UsageTotals) {
        for (_, response) in self.open.drain(..) {
            totals.add_response(&response);
        }
    }
}

/// The keys are hashes already: the set uses them as they are.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(input: u64, output: u64) -> TokenCounts {
        TokenCounts {
            input,
            output,
            cache_read: 1000,
            ..TokenCounts::default()
        }
    }

    fn run(lines: &[(Option<(&str, &str)>, TokenCounts)]) -> (UsageTotals, u64) {
        let mut totals = UsageTotals::default();
        let model = totals.model_index("claude-sonnet-4-5");
        let mut dedup = Deduplicator::default();
        for (ids, tokens) in lines {
            let key = ids.and_then(|(m, r)| response_key(Some(m), Some(r)));
            dedup.add(
                key,
                Response {
                    model,
                    subagent: false,
                    tokens: *tokens,
                },
                &mut totals,
            );
        }
        dedup.finish(&mut totals);
        (totals, dedup.repeated_lines)
    }

    #[test]
    fn streamed_repeats_count_once_with_their_final_output() {
        let (totals, repeated) = run(&[
            (Some(("msg_1", "req_1")), tokens(10, 1)),
            (Some(("msg_1", "req_1")), tokens(10, 7)),
            (Some(("msg_1", "req_1")), tokens(10, 250)),
            (Some(("msg_2", "req_2")), tokens(20, 5)),
        ]);
        let tally = totals.models[0].main;
        assert_eq!(tally.requests, 2);
        assert_eq!(
            tally.standard,
            TokenCounts {
                input: 30,
                output: 255,
                cache_read: 2000,
                ..Default::default()
            }
        );
        assert_eq!(repeated, 2);
    }

    #[test]
    fn the_same_message_id_with_another_request_id_is_another_response() {
        let (totals, repeated) = run(&[
            (Some(("msg_1", "req_1")), tokens(10, 1)),
            (Some(("msg_1", "req_2")), tokens(10, 1)),
            (None, tokens(10, 1)),
            (None, tokens(10, 1)),
        ]);
        assert_eq!((totals.models[0].main.requests, repeated), (4, 0));
    }

    #[test]
    fn a_far_repeat_is_dropped_after_its_response_was_counted() {
        let mut lines = vec![(Some(("msg_0", "req_0")), tokens(10, 3))];
        let ids: Vec<String> = (1..200).map(|i| format!("msg_{i}")).collect();
        for id in &ids {
            lines.push((Some((id.as_str(), "r")), tokens(1, 1)));
        }
        // A resumed session repeats the first response far later, even with other figures.
        lines.push((Some(("msg_0", "req_0")), tokens(99, 99)));
        let (totals, repeated) = run(&lines);
        let tally = totals.models[0].main;
        assert_eq!((tally.requests, repeated), (200, 1));
        assert_eq!(tally.standard.input, 10 + 199);
    }

    #[test]
    fn requests_above_the_threshold_are_tallied_apart() {
        let mut tally = Tally::default();
        let long = TokenCounts {
            input: 10,
            cache_read: LONG_CONTEXT_THRESHOLD,
            ..Default::default()
        };
        let exact = TokenCounts {
            cache_read: LONG_CONTEXT_THRESHOLD,
            ..Default::default()
        };
        tally.add_response(&long);
        tally.add_response(&exact);
        assert_eq!((tally.requests, tally.long_context_requests), (2, 1));
        assert_eq!(tally.long_context, long);
        assert_eq!(tally.tokens().prompt(), 2 * LONG_CONTEXT_THRESHOLD + 10);
    }
}
