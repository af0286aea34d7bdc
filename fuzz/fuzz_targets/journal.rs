//! The context store's journal (`store::journal`): every line that reads as an entry reads
//! back equal from baton's own JSON of it; reading a segment's last lines from its end gives
//! what reading the whole file gives (the complete lines, the torn rest), for any count and
//! across the 64 KiB steps of the backwards read (`{"pad":N}` lines make long ones); reading
//! it from the start gives the entries in order, stops at a damaged line with an error, and
//! leaves a torn last line out; where the last finished write ends (the last line that records
//! the document) is where a reference reading of the lines says. Depth: an entry's changes
//! nested deeper (as the first byte's high bits say, up to 124 levels more) read back from
//! their line whenever the store's depth check lets them be written.

#![no_main]

use baton::store::commit::check_depth;
use baton::store::journal::{self, Entry};
use baton::store::ops::Op;
use baton_fuzz::transcript::{Lines, build};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&count, rest)) = data.split_first() else {
        return;
    };
    let count = usize::from(count % 8);
    let segment = build(rest, Lines::Raw);
    for line in segment.split(|&b| b == b'\n') {
        if let Ok(entry) = journal::parse(line) {
            let again = serde_json::to_vec(&entry).expect("an entry serialises");
            assert_eq!(journal::parse(&again).expect("baton's own line reads"), entry);
        }
    }

    let path = baton_fuzz::sandbox().io.join("journal-000000000000.jsonl");
    std::fs::write(&path, &segment).expect("segment file");

    let complete_len = segment.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let lines: Vec<&[u8]> = segment[..complete_len]
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .collect();
    let tail = journal::tail(&path, count).expect("the segment reads");
    assert_eq!(tail.complete_len, complete_len as u64);
    assert_eq!(tail.torn, (segment.len() - complete_len) as u64);
    let expected = &lines[lines.len().saturating_sub(count)..];
    assert_eq!(tail.lines, expected, "the last {count} lines");

    let mut entries: Vec<Entry> = Vec::new();
    let read = journal::read_segment(&path, |entry| {
        entries.push(entry);
        Ok(true)
    });
    let whole: Vec<&[u8]> = segment[..complete_len].split(|&b| b == b'\n').collect();
    let readable = whole[..whole.len().saturating_sub(1)]
        .iter()
        .take_while(|l| journal::parse(l).is_ok())
        .count();
    assert_eq!(entries.len(), readable, "entries read before the first damaged line");
    match read {
        Ok(torn) => {
            assert_eq!(readable, whole.len() - 1, "a damaged line read as fine");
            assert_eq!(torn, (segment.len() - complete_len) as u64);
            let mut finished = 0;
            let mut offset = 0;
            for line in &whole[..whole.len() - 1] {
                offset += line.len() + 1;
                if journal::parse(line).expect("read as fine").hash.is_some() {
                    finished = offset;
                }
            }
            assert_eq!(
                journal::finished_len(&path).expect("the segment reads"),
                finished as u64
            );
        }
        Err(e) => assert!(readable < whole.len() - 1, "an error without a damaged line: {e}"),
    }

    // Depth: the first byte's high bits nest each entry's changes that much deeper.
    let extra = usize::from(data[0] >> 3) * 4;
    for entry in entries.into_iter().take(4) {
        deeper(entry, extra);
    }
});

/// `entry` with each change's value nested `extra` lists deeper: when the store's depth
/// check lets every change through, the line it writes reads back.
fn deeper(mut entry: Entry, extra: usize) {
    for op in &mut entry.ops {
        if let Op::Set { value, .. } = op {
            for _ in 0..extra {
                *value = serde_json::Value::Array(vec![std::mem::take(value)]);
            }
        }
    }
    if entry.ops.iter().all(|op| check_depth(op).is_ok()) {
        let line = serde_json::to_vec(&entry).expect("an entry serialises");
        let back = journal::parse(&line).unwrap_or_else(|e| panic!("a line the store writes does not read back: {e}"));
        assert_eq!(back, entry);
    }
}
