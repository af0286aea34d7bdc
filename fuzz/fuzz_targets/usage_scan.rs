//! The report's usage scan (`accounting::scan::UsageScan`) over a transcript made from the
//! input: the result does not depend on how the reader delivers the bytes (all at once, or a
//! few at a time across the 256 KiB chunk edges that `{"pad":N}` lines reach); every line
//! is accounted for as the documented rule says (a line naming `"usage"` and `"assistant"`
//! is counted, rejected, or skipped as unreadable); the per-model rows hold exactly the
//! responses counted; and `--since` only ever leaves lines out.

#![no_main]

use std::io::{self, Read};

use baton::accounting::line::UsageLine;
use baton::accounting::scan::{ScanStats, UsageScan};
use baton::accounting::tokens::TokenCounts;
use baton::accounting::totals::UsageTotals;
use baton_fuzz::transcript::{Lines, build};
use libfuzzer_sys::fuzz_target;

/// A reader that returns at most `step` bytes per read.
struct Trickle<'a> {
    rest: &'a [u8],
    step: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let n = self.rest.len().min(self.step).min(out.len());
        out[..n].copy_from_slice(&self.rest[..n]);
        self.rest = &self.rest[n..];
        Ok(n)
    }
}

fn scan(reader: impl Read + Send, since_ms: Option<i64>) -> (UsageTotals, ScanStats) {
    let mut scan = UsageScan::new(since_ms);
    scan.scan_reader(reader, false).expect("reading memory cannot fail");
    scan.finish()
}

fuzz_target!(|data: &[u8]| {
    let transcript = build(data, Lines::Raw);
    let (totals, stats) = scan(&transcript[..], None);

    let step = 1 + (baton_fuzz::fnv(data) % 8192) as usize;
    let trickled = scan(
        Trickle {
            rest: &transcript,
            step,
        },
        None,
    );
    assert_eq!(trickled, (totals.clone(), stats.clone()), "read {step} bytes at a time");

    let expected = line_by_line(&transcript);
    assert_eq!(
        (stats.usage_lines, stats.rejected_lines, stats.skipped_lines),
        expected,
        "(counted, rejected, skipped) lines"
    );
    assert_eq!(stats.bytes, transcript.len() as u64);

    let requests: u64 = totals.models.iter().map(|m| m.combined().requests).sum();
    assert_eq!(
        requests,
        stats.usage_lines - stats.repeated_lines,
        "one request per distinct response"
    );
    for model in &totals.models {
        for tally in [model.main, model.subagents] {
            assert!(tally.long_context_requests <= tally.requests);
            if tally.requests == 0 {
                assert_eq!(tally.tokens(), TokenCounts::default(), "tokens without a request");
            }
        }
    }

    // Leaving out what came before a time only leaves lines out.
    let since = stats
        .first_ms
        .zip(stats.last_ms)
        .map(|(first, last)| first + (last - first) / 2);
    if let Some(since) = since {
        let (_, later) = scan(&transcript[..], Some(since));
        assert!(later.usage_lines <= stats.usage_lines && later.rejected_lines <= stats.rejected_lines);
        if let Some(first) = later.first_ms {
            assert!(first >= since, "a time before --since was kept");
        }
    }
});

/// (counted, rejected, skipped) by reading each line on its own: a line naming `"usage"`
/// and `"assistant"` that is no JSON object is skipped; an assistant line with a usage and a
/// model other than `<synthetic>` is rejected when a count is unreadable or implausible,
/// else counted.
fn line_by_line(transcript: &[u8]) -> (u64, u64, u64) {
    let names = |line: &[u8], word: &[u8]| line.windows(word.len()).any(|w| w == word);
    let (mut counted, mut rejected, mut skipped) = (0, 0, 0);
    for line in transcript.split(|&b| b == b'\n') {
        if !names(line, b"\"usage\"") || !names(line, b"\"assistant\"") {
            continue;
        }
        let Some(parsed) = UsageLine::parse(line) else {
            skipped += 1;
            continue;
        };
        let Some(message) = parsed.message.filter(|_| parsed.kind.as_deref() == Some("assistant")) else {
            continue;
        };
        let Some(usage) = message.usage else { continue };
        if message.model.as_deref() == Some("<synthetic>") {
            continue;
        }
        if parsed.unreadable_counts > 0 || !TokenCounts::from(&usage).is_plausible() {
            rejected += 1;
        } else {
            counted += 1;
        }
    }
    (counted, rejected, skipped)
}
