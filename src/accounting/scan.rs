//! Streams transcripts for their API usage without holding them in memory: chunks of whole
//! lines, in which a vectorised substring search picks the lines saying `"usage"` and
//! `"assistant"` (on the read-ahead thread); only those are parsed (on this one).

use std::io::{self, Read};
use std::ops::Range;
use std::path::Path;

use memchr::{memchr, memmem, memrchr};
use serde::Serialize;

use super::chunks::for_each_chunk;
use super::line::UsageLine;
use super::tokens::TokenCounts;
use super::totals::{Deduplicator, Response, UsageTotals, response_key};
use crate::clock::timestamp_millis;

/// The key whose value is a line's time.
const TIMESTAMP_KEY: &[u8] = b"\"timestamp\":\"";

/// What the scan saw, besides the usage itself.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ScanStats {
    /// Transcript files read (main and subagents).
    pub transcripts: usize,
    pub subagent_transcripts: usize,
    pub bytes: u64,
    /// Assistant lines with usage that were counted or merged.
    pub usage_lines: u64,
    /// Lines that repeated a response already counted (streaming, resumed sessions).
    pub repeated_lines: u64,
    /// Lines that looked like usage lines but could not be read (malformed, truncated,
    /// binary junk), and lines too long to keep.
    pub skipped_lines: u64,
    /// Assistant lines left out because a token count could not be read (a string, a
    /// negative number) or could not be true (above [`super::tokens::MAX_TOKENS_PER_RESPONSE`]).
    pub rejected_lines: u64,
    /// Unix ms of the first and last timestamp seen (after `--since`).
    pub first_ms: Option<i64>,
    pub last_ms: Option<i64>,
}

/// A usage scan over the transcripts of one session.
pub struct UsageScan {
    timestamp: memmem::Finder<'static>,
    since_ms: Option<i64>,
    totals: UsageTotals,
    dedup: Deduplicator,
    stats: ScanStats,
}

impl UsageScan {
    /// A scan counting only lines stamped at or after `since_ms` (all when `None`).
    pub fn new(since_ms: Option<i64>) -> Self {
        Self {
            timestamp: memmem::Finder::new(TIMESTAMP_KEY),
            since_ms,
            totals: UsageTotals::default(),
            dedup: Deduplicator::default(),
            stats: ScanStats::default(),
        }
    }

    /// Scans one transcript file; `subagent` marks a subagent's own transcript.
    pub fn scan_file(&mut self, path: &Path, subagent: bool) -> io::Result<()> {
        let file = crate::fsx::open_regular(path)?;
        self.stats.transcripts += 1;
        self.stats.subagent_transcripts += usize::from(subagent);
        self.scan_reader(file, subagent)
    }

    /// Scans a transcript from any reader, one chunk of whole lines at a time: the reader
    /// thread finds the candidate lines, this one parses them.
    pub fn scan_reader(&mut self, reader: impl Read + Send, subagent: bool) -> io::Result<()> {
        let mut want_start = true;
        let usage = memmem::Finder::new(b"\"usage\"");
        let assistant = memmem::Finder::new(b"\"assistant\"");
        let read = for_each_chunk(
            reader,
            |chunk, picks| usage_lines(&usage, &assistant, chunk, picks),
            |chunk, picks| {
                if want_start {
                    want_start = !self.note_first_timestamp(chunk);
                }
                for line in picks {
                    self.scan_line(&chunk[line.clone()], subagent);
                }
            },
        )?;
        self.stats.bytes += read.bytes;
        self.stats.skipped_lines += read.overlong_lines;
        Ok(())
    }

    /// The session's start: the first `"timestamp"` of a transcript. True once found.
    fn note_first_timestamp(&mut self, chunk: &[u8]) -> bool {
        let Some(at) = self.timestamp.find(chunk) else {
            return false;
        };
        let value = &chunk[at + TIMESTAMP_KEY.len()..];
        let Some(end) = memchr(b'"', &value[..value.len().min(64)]) else {
            return false;
        };
        if let Some(ms) = std::str::from_utf8(&value[..end]).ok().and_then(timestamp_millis) {
            self.note_time(ms);
        }
        true
    }

    fn note_time(&mut self, ms: i64) {
        if self.since_ms.is_some_and(|since| ms < since) {
            return;
        }
        self.stats.first_ms = Some(self.stats.first_ms.map_or(ms, |t| t.min(ms)));
        self.stats.last_ms = Some(self.stats.last_ms.map_or(ms, |t| t.max(ms)));
    }

    fn scan_line(&mut self, line: &[u8], subagent: bool) {
        let Some(parsed) = UsageLine::parse(line) else {
            self.stats.skipped_lines += 1;
            return;
        };
        if parsed.kind.as_deref() != Some("assistant") {
            return;
        }
        let Some(message) = parsed.message else { return };
        let Some(usage) = message.usage else { return };
        let model = message.model.as_deref().unwrap_or("(no model)");
        if model == "<synthetic>" {
            return;
        }
        let ms = parsed.timestamp.as_deref().and_then(timestamp_millis);
        if let (Some(since), Some(ms)) = (self.since_ms, ms)
            && ms < since
        {
            return;
        }
        if let Some(ms) = ms {
            self.note_time(ms);
        }
        let tokens = TokenCounts::from(&usage);
        if parsed.unreadable_counts > 0 || !tokens.is_plausible() {
            self.stats.rejected_lines += 1;
            return;
        }
        self.stats.usage_lines += 1;
        let response = Response {
            model: self.totals.model_index(model),
            subagent: subagent || parsed.is_sidechain == Some(true),
            tokens,
        };
        let key = response_key(message.id.as_deref(), parsed.request_id.as_deref());
        self.dedup.add(key, response, &mut self.totals);
    }

    /// The totals and what the scan saw.
    pub fn finish(mut self) -> (UsageTotals, ScanStats) {
        self.dedup.finish(&mut self.totals);
        self.stats.repeated_lines = self.dedup.repeated_lines;
        (self.totals, self.stats)
    }
}

/// The lines of `chunk` that can carry usage: they say `"usage"` and `"assistant"`. Jumps
/// from one `"usage"` to the next; every other byte is looked at once.
fn usage_lines(usage: &memmem::Finder, assistant: &memmem::Finder, chunk: &[u8], picks: &mut Vec<Range<usize>>) {
    let mut pos = 0;
    while pos < chunk.len() {
        let Some(hit) = usage.find(&chunk[pos..]) else { break };
        let hit = pos + hit;
        let start = memrchr(b'\n', &chunk[pos..hit]).map_or(pos, |i| pos + i + 1);
        let end = memchr(b'\n', &chunk[hit..]).map_or(chunk.len(), |i| hit + i);
        if assistant.find(&chunk[start..end]).is_some() {
            picks.push(start..end);
        }
        pos = end + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assistant(id: &str, request: &str, model: &str, input: u64, output: u64) -> String {
        format!(
            r#"{{"isSidechain":false,"message":{{"id":"{id}","role":"assistant","model":"{model}","content":[],"usage":{{"input_tokens":{input},"output_tokens":{output}}}}},"requestId":"{request}","type":"assistant","timestamp":"2026-11-30T00:10:41.140Z"}}"#
        )
    }

    fn scan(text: &[u8]) -> (UsageTotals, ScanStats) {
        let mut scan = UsageScan::new(None);
        scan.scan_reader(text, false).unwrap();
        scan.finish()
    }

    /// The first model's main-chain requests, input and output tokens.
    fn main_requests_input_output(totals: &crate::accounting::totals::UsageTotals) -> (u64, u64, u64) {
        let tally = totals.models[0].main;
        (tally.requests, tally.standard.input, tally.standard.output)
    }

    #[test]
    fn counts_usage_across_chunk_edges_and_skips_junk() {
        let mut text = String::new();
        text.push_str(
            r#"{"type":"user","timestamp":"2026-11-30T00:00:00.000Z","message":{"content":"usage assistant"}}"#,
        );
        text.push('\n');
        text.push_str(&assistant("m1", "r1", "claude-opus-4-5", 10, 1));
        text.push('\n');
        text.push_str(&assistant("m1", "r1", "claude-opus-4-5", 10, 9));
        text.push_str("\n\n{\"type\":\"assistant\",\"usage\" \u{1}\u{2} junk\n");
        text.push_str(&assistant("m2", "r2", "<synthetic>", 99, 99));
        text.push('\n');
        let cut = assistant("m3", "r3", "claude-haiku-4-5", 5, 5);
        text.push_str(&cut[..cut.len() - 30]);
        {
            let (totals, stats) = scan(text.as_bytes());
            assert_eq!(totals.models.len(), 1);
            assert_eq!(main_requests_input_output(&totals), (1, 10, 9));
            assert_eq!(
                (stats.usage_lines, stats.repeated_lines, stats.skipped_lines),
                (2, 1, 2)
            );
            assert_eq!(stats.first_ms, timestamp_millis("2026-11-30T00:00:00.000Z"));
            assert_eq!(stats.last_ms, timestamp_millis("2026-11-30T00:10:41.140Z"));
        }
    }

    #[test]
    fn lines_with_unreadable_or_impossible_counts_are_left_out_and_counted() {
        let text = [
            assistant("m1", "r1", "claude-opus-4-5", 10, 1),
            assistant("m2", "r2", "claude-opus-4-5", u64::MAX, 1),
            assistant("m3", "r3", "claude-opus-4-5", 10, 1).replace("\"input_tokens\":10", "\"input_tokens\":\"10\""),
            assistant("m4", "r4", "claude-opus-4-5", 10, 1).replace("\"output_tokens\":1", "\"output_tokens\":-1"),
            assistant("m5", "r5", "claude-opus-4-5", 10, 1).replace("\"output_tokens\":1", "\"output_tokens\":null"),
            assistant("m6", "r6", "claude-opus-4-5", 10, 1).replace("\"input_tokens\":10", "\"input_tokens\":1e400"),
        ]
        .join("\n");
        let (totals, stats) = scan(text.as_bytes());
        assert_eq!(main_requests_input_output(&totals), (2, 20, 1));
        assert_eq!(
            (stats.usage_lines, stats.rejected_lines, stats.skipped_lines),
            (2, 4, 0)
        );
    }

    #[test]
    fn a_line_longer_than_the_buffer_is_still_read() {
        use super::super::chunks::CHUNK_BYTES;
        let big = "x".repeat(CHUNK_BYTES * 3);
        let line = assistant("m1", "r1", "claude-opus-4-5", 10, 1)
            .replace("\"content\":[]", &format!("\"content\":[\"{big}\"]"));
        let text = format!("{line}\n{}\n", assistant("m2", "r2", "claude-opus-4-5", 1, 1));
        let (totals, stats) = scan(text.as_bytes());
        assert_eq!((totals.models[0].main.requests, stats.skipped_lines), (2, 0));
    }

    #[test]
    fn since_drops_earlier_lines() {
        let text = format!(
            "{}\n{}\n",
            assistant("m1", "r1", "claude-opus-4-5", 10, 1).replace("00:10:41", "00:00:01"),
            assistant("m2", "r2", "claude-opus-4-5", 20, 2)
        );
        let mut scan = UsageScan::new(timestamp_millis("2026-11-30T00:05:00Z"));
        scan.scan_reader(text.as_bytes(), false).unwrap();
        let (totals, stats) = scan.finish();
        assert_eq!(totals.models[0].main.standard.input, 20);
        assert_eq!(stats.first_ms, timestamp_millis("2026-11-30T00:10:41.140Z"));
    }
}
