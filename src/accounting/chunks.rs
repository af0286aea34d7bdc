//! Reads a transcript as chunks of whole lines on a read-ahead thread, which also picks the
//! lines worth parsing, so reading and searching overlap the parsing of the previous chunk.
//! Buffers are recycled: memory stays at a few chunks (or the longest line, up to a cap)
//! whatever the size of the file.

use std::io::{self, Read};
use std::ops::Range;
use std::sync::mpsc::{self, Receiver, SyncSender};

use memchr::{memchr, memrchr};

/// Bytes read at a time; small enough to stay in cache while the lines are scanned.
pub const CHUNK_BYTES: usize = 1 << 18;
/// The longest line kept whole; a longer one is dropped (and counted) without buffering the
/// rest. Usage lines are far shorter: only a reply carrying a huge tool input comes near it.
pub const MAX_LINE_BYTES: usize = 16 << 20;
/// Chunks read ahead of the scan.
const READ_AHEAD: usize = 2;

/// What reading the transcript saw.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct ReadStats {
    pub bytes: u64,
    /// Lines longer than [`MAX_LINE_BYTES`], dropped unread.
    pub overlong_lines: u64,
}

/// A chunk of whole lines and the ranges of the lines picked in it.
struct Chunk {
    buf: Vec<u8>,
    len: usize,
    picks: Vec<Range<usize>>,
}

/// Reads successive chunks of whole lines, in order (only the last chunk may end without a
/// newline: a transcript being written, or cut off). On the reader thread `pick` adds the
/// ranges of the lines worth parsing; on this thread `scan` gets each chunk and its picks.
pub fn for_each_chunk<R, P, S>(reader: R, pick: P, scan: S) -> io::Result<ReadStats>
where
    R: Read + Send,
    P: FnMut(&[u8], &mut Vec<Range<usize>>) + Send,
    S: FnMut(&[u8], &[Range<usize>]),
{
    for_each_chunk_capped(reader, MAX_LINE_BYTES, pick, scan)
}

/// [`for_each_chunk`] with its own cap on the longest line kept whole.
pub fn for_each_chunk_capped<R, P, S>(reader: R, max_line: usize, pick: P, mut scan: S) -> io::Result<ReadStats>
where
    R: Read + Send,
    P: FnMut(&[u8], &mut Vec<Range<usize>>) + Send,
    S: FnMut(&[u8], &[Range<usize>]),
{
    let (full_tx, full_rx) = mpsc::sync_channel::<Chunk>(READ_AHEAD);
    let (free_tx, free_rx) = mpsc::channel::<Chunk>();
    std::thread::scope(|scope| {
        let reading = scope.spawn(move || read_chunks(reader, max_line, pick, &full_tx, &free_rx));
        for chunk in full_rx.iter() {
            scan(&chunk.buf[..chunk.len], &chunk.picks);
            let _ = free_tx.send(chunk);
        }
        reading
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("the transcript reader stopped")))
    })
}

/// The read-ahead thread: fills buffers, cuts them after their last newline, carries the
/// incomplete line over to the next buffer (growing it for a long line).
fn read_chunks<R: Read>(
    mut reader: R,
    max_line: usize,
    mut pick: impl FnMut(&[u8], &mut Vec<Range<usize>>),
    full: &SyncSender<Chunk>,
    free: &Receiver<Chunk>,
) -> io::Result<ReadStats> {
    let mut stats = ReadStats::default();
    let mut carry: Vec<u8> = Vec::new();
    let mut discarding = false;
    let mut send = |buf: Vec<u8>, len: usize, mut picks: Vec<Range<usize>>| {
        picks.clear();
        pick(&buf[..len], &mut picks);
        full.send(Chunk { buf, len, picks }).is_ok()
    };
    loop {
        let recycled = free.try_recv().unwrap_or(Chunk {
            buf: Vec::new(),
            len: 0,
            picks: Vec::new(),
        });
        let (mut buf, picks) = (recycled.buf, recycled.picks);
        let wanted = CHUNK_BYTES.max(carry.len() * 2);
        // A buffer grown for one long line goes back to the usual size once the line is done.
        if buf.len() > wanted * 2 {
            buf = Vec::new();
        }
        if buf.len() < wanted {
            buf.resize(wanted, 0);
        }
        buf[..carry.len()].copy_from_slice(&carry);
        let mut filled = carry.len();
        carry.clear();
        carry.shrink_to(CHUNK_BYTES);
        let mut at_end = false;
        while filled < buf.len() {
            let n = match reader.read(&mut buf[filled..]) {
                Ok(0) => {
                    at_end = true;
                    break;
                }
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            stats.bytes += n as u64;
            if !discarding {
                filled += n;
            } else if let Some(i) = memchr(b'\n', &buf[filled..filled + n]) {
                // The overlong line ends here; keep what follows it.
                buf.copy_within(filled + i + 1..filled + n, filled);
                filled += n - (i + 1);
                discarding = false;
            }
        }
        if at_end {
            if filled > 0 {
                send(buf, filled, picks);
            }
            return Ok(stats);
        }
        match memrchr(b'\n', &buf[..filled]) {
            Some(i) => {
                carry.extend_from_slice(&buf[i + 1..filled]);
                if !send(buf, i + 1, picks) {
                    return Ok(stats);
                }
            }
            None if filled < max_line => carry.extend_from_slice(&buf[..filled]),
            None => {
                stats.overlong_lines += 1;
                discarding = true;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that returns at most `step` bytes per read.
    struct Trickle<'a>(&'a [u8], usize);

    impl Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let n = self.0.len().min(self.1).min(out.len());
            out[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    fn whole_chunk(chunk: &[u8], picks: &mut Vec<Range<usize>>) {
        picks.push(0..chunk.len());
    }

    fn chunks(text: &[u8], step: usize) -> (Vec<Vec<u8>>, ReadStats) {
        let mut got = Vec::new();
        let stats = for_each_chunk(Trickle(text, step), whole_chunk, |c, picks| {
            assert_eq!(picks, std::slice::from_ref(&(0..c.len())));
            got.push(c.to_vec());
        })
        .unwrap();
        (got, stats)
    }

    #[test]
    fn every_chunk_ends_at_a_line_end_and_nothing_is_lost() {
        let line = "x".repeat(1000);
        let text: String = (0..3000).map(|i| format!("{i}{line}\n")).collect::<String>() + "tail";
        for step in [7, 4096, 1 << 20] {
            let (got, stats) = chunks(text.as_bytes(), step);
            assert!(got.len() > 2, "step {step}");
            for chunk in &got[..got.len() - 1] {
                assert_eq!(chunk.last(), Some(&b'\n'));
            }
            assert_eq!(got.concat(), text.as_bytes());
            assert_eq!(
                stats,
                ReadStats {
                    bytes: text.len() as u64,
                    overlong_lines: 0
                }
            );
        }
    }

    #[test]
    fn a_line_longer_than_a_chunk_arrives_whole() {
        let text = format!("a\n{}\nb\n", "y".repeat(CHUNK_BYTES * 3 + 5));
        let (got, _) = chunks(text.as_bytes(), 1 << 16);
        assert_eq!(got.concat(), text.as_bytes());
        assert!(got.iter().any(|c| c.len() > CHUNK_BYTES * 3));
    }

    #[test]
    fn a_line_over_the_cap_is_dropped_and_counted() {
        let text = format!(
            "a\n{}\nb\n{}",
            "y".repeat(CHUNK_BYTES * 3 + 5),
            "z".repeat(CHUNK_BYTES * 2)
        );
        let mut got = Vec::new();
        let stats = for_each_chunk_capped(Trickle(text.as_bytes(), 1 << 16), CHUNK_BYTES, whole_chunk, |c, _| {
            got.push(c.to_vec())
        })
        .unwrap();
        assert_eq!(got.concat(), b"a\nb\n");
        assert_eq!(
            stats,
            ReadStats {
                bytes: text.len() as u64,
                overlong_lines: 2
            }
        );
    }
}
