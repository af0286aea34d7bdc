//! Waiting for the reply that made a tool call to reach the transcript: Claude Code can start
//! the PostToolUse hook before it writes that line.

use std::io;
use std::path::Path;
use std::time::{Duration, Instant};

use super::{FIRST_WINDOW, MAX_TAIL_BYTES};

/// How long the monitor waits at most for the reply that made a tool call to reach the
/// transcript. Claude Code queues transcript lines and appends them 100 ms after the first is
/// queued (`FLUSH_INTERVAL_MS` in 2.1.197 and 2.1.332); on a loaded machine the append lands
/// later still (seen up to 333 ms after the hook started, probe/FINDINGS.md §11). Far inside
/// the 10 s Claude Code gives baton's hooks, and a line later than this is not lost: the call
/// is judged at the next one.
pub const WRITE_LAG_LIMIT: Duration = Duration::from_secs(3);

/// The wait also ends once the transcript has not grown for this long: a stalled client or
/// disk leaves the file idle for hundreds of milliseconds before the line comes (the 250 ms
/// this once was cut the wait short under load), and an id that never appears costs no
/// more than this.
pub const WRITE_IDLE_LIMIT: Duration = Duration::from_millis(1500);

/// Waits until the transcript mentions `tool_use_id`, for at most `limit` and for at most
/// [`WRITE_IDLE_LIMIT`] without the file growing; returns whether it did. The tail is searched
/// again only when the file has grown (a cheap `fstat` every 5 ms otherwise): the last 64 KiB
/// first, the last 8 MiB when a large tool result follows the reply. Ids that do not look like
/// tool ids are not waited for.
pub fn wait_for_tool_use(path: &Path, tool_use_id: &str, limit: Duration) -> bool {
    wait_for_tool_use_idle(path, tool_use_id, limit, WRITE_IDLE_LIMIT)
}

/// Waits until a file is at `path`, for at most `limit` (a `stat` every 5 ms); returns whether
/// one is. Claude Code creates a session's transcript at its first append, which can come
/// after the first tool call's PostToolUse hook started (2.1.197's `claude -p`).
pub fn wait_for_file(path: &Path, limit: Duration) -> bool {
    let deadline = Instant::now() + limit;
    loop {
        match std::fs::symlink_metadata(path) {
            Ok(_) => return true,
            Err(e) if e.kind() != io::ErrorKind::NotFound => return false,
            Err(_) => {}
        }
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Whether `id` looks like a tool call's id (`toolu_…`: letters, digits, `_`, `-`): only such
/// ids are searched for and waited for.
pub fn is_tool_use_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 128 && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

fn wait_for_tool_use_idle(path: &Path, tool_use_id: &str, limit: Duration, idle_limit: Duration) -> bool {
    if !is_tool_use_id(tool_use_id) {
        return false;
    }
    let Ok(file) = crate::fsx::open_regular(path) else {
        return false;
    };
    let started = Instant::now();
    let deadline = started + limit;
    let mut grew_at = started;
    let mut searched_size = None;
    loop {
        let Ok(size) = file.metadata().map(|m| m.len()) else {
            return false;
        };
        if searched_size != Some(size) {
            if searched_size.is_some() {
                grew_at = Instant::now();
            }
            searched_size = Some(size);
            match tail_mentions(&file, size, tool_use_id.as_bytes()) {
                Ok(true) => return true,
                Ok(false) => {}
                Err(_) => return false,
            }
        }
        let now = Instant::now();
        if now >= deadline || now.duration_since(grew_at) >= idle_limit {
            return false;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn tail_mentions(file: &std::fs::File, size: u64, needle: &[u8]) -> io::Result<bool> {
    for window in [FIRST_WINDOW, MAX_TAIL_BYTES] {
        let start = size.saturating_sub(window);
        let buf = super::read_range(file, start, size - start)?;
        if memchr::memmem::find(&buf, needle).is_some() {
            return Ok(true);
        }
        if start == 0 {
            break;
        }
    }
    Ok(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn assistant(tokens: u64, extra: &str) -> String {
        format!(
            r#"{{"type":"assistant","isSidechain":false,{extra}"message":{{"id":"m","model":"claude-sonnet-4-5","usage":{{"input_tokens":{tokens}}}}}}}"#
        )
    }

    #[test]
    fn waits_for_a_late_reply_line_but_not_forever() {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        writeln!(f, "{}", assistant(1000, "")).unwrap();
        let path = f.path().to_path_buf();
        let writer = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            writeln!(
                f,
                r#"{{"type":"assistant","message":{{"content":[{{"type":"tool_use","id":"toolu_late"}}]}}}}"#
            )
            .unwrap();
            f
        });
        assert!(wait_for_tool_use(&path, "toolu_late", Duration::from_secs(5)));
        let _f = writer.join().unwrap();
        let started = Instant::now();
        assert!(!wait_for_tool_use(&path, "toolu_never", Duration::from_millis(30)));
        assert!(started.elapsed() < Duration::from_secs(2));
        assert!(!wait_for_tool_use(&path, "../../bad id", Duration::from_secs(5)));
    }

    #[test]
    fn stops_waiting_once_the_file_stops_growing() {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        writeln!(f, "{}", assistant(1000, "")).unwrap();
        let started = Instant::now();
        assert!(!wait_for_tool_use(f.path(), "toolu_never", Duration::from_secs(30)));
        let waited = started.elapsed();
        assert!(
            waited >= WRITE_IDLE_LIMIT && waited < Duration::from_secs(5),
            "an idle file ends the wait after {WRITE_IDLE_LIMIT:?}, not the limit: {waited:?}"
        );

        // A file that keeps growing is waited for, until the line or the limit.
        let path = f.path().to_path_buf();
        let writer = std::thread::spawn(move || {
            for _ in 0..6 {
                std::thread::sleep(Duration::from_millis(40));
                writeln!(f, r#"{{"type":"progress"}}"#).unwrap();
            }
            writeln!(f, r#"{{"type":"assistant","note":"toolu_slow"}}"#).unwrap();
            f
        });
        assert!(
            wait_for_tool_use_idle(&path, "toolu_slow", Duration::from_secs(5), Duration::from_millis(150)),
            "growth keeps the wait alive past the idle limit"
        );
        let _f = writer.join().unwrap();
    }

    #[test]
    fn finds_the_reply_behind_a_large_tool_result_at_once() {
        let big = format!(
            r#"{{"type":"user","message":{{"content":[{{"tool_use_id":"toolu_big","content":"{}"}}]}}}}"#,
            "y".repeat(300_000)
        );
        let lines = vec![
            assistant(1000, "").replace(r#""id":"m""#, r#""id":"m","note":"toolu_big""#),
            big,
        ];
        let mut f = tempfile::NamedTempFile::new().unwrap();
        for l in &lines {
            writeln!(f, "{l}").unwrap();
        }
        let started = Instant::now();
        assert!(wait_for_tool_use(f.path(), "toolu_big", Duration::from_secs(5)));
        assert!(
            started.elapsed() < Duration::from_secs(1),
            "found without waiting out the limit"
        );
    }
}
