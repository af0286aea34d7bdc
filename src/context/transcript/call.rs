//! The reply that made a tool call: whether the transcript holds it yet (Claude Code can run
//! PostToolUse before it writes that line), and its figure once it does.

use std::io;
use std::ops::ControlFlow;
use std::path::Path;

use super::{Chain, LineFigure, MAX_TAIL_BYTES, TailUsage, figure_in_line, is_tool_use_id, scan_figure, scan_tail};

/// The tail's figure ([`super::last_context_usage`]) and whether the transcript already holds
/// the reply that made a tool call.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CallTail {
    pub usage: Option<TailUsage>,
    /// The lines from the end back to the figure's mention the call's `tool_use_id`: its reply
    /// is written, and as no later reply of the chain comes before the call's result, the
    /// figure is that reply's.
    pub holds_call: bool,
}

/// [`super::last_context_usage`] for the tool call `tool_use_id`, noting whether the transcript
/// holds the reply that made it yet. An id that does not look like a tool id is never found.
pub fn tail_for_call(path: &Path, chain: Chain, tool_use_id: &str) -> io::Result<CallTail> {
    let finder = is_tool_use_id(tool_use_id).then(|| memchr::memmem::Finder::new(tool_use_id.as_bytes()));
    let (usage, holds_call) = scan_figure(path, chain, finder.as_ref())?;
    Ok(CallTail { usage, holds_call })
}

/// The figure of the reply of `chain` that made the tool call `tool_use_id` (the newest reply
/// line mentioning the id, within the tail's last [`MAX_TAIL_BYTES`]), for a call judged after
/// it ran. `None` when that reply is not written, lies further back, or precedes a compaction
/// (its context is gone); also for an id that does not look like a tool id.
pub fn figure_of_call(path: &Path, chain: Chain, tool_use_id: &str) -> io::Result<Option<TailUsage>> {
    if !is_tool_use_id(tool_use_id) {
        return Ok(None);
    }
    let finder = memchr::memmem::Finder::new(tool_use_id.as_bytes());
    let mut found = None;
    scan_tail(path, MAX_TAIL_BYTES, |line| match figure_in_line(line, chain) {
        Some(LineFigure::Boundary { .. }) => ControlFlow::Break(()),
        Some(LineFigure::Reply { tokens, model, .. }) if finder.find(line).is_some() => {
            found = Some(TailUsage {
                used_tokens: tokens,
                model,
                after_compaction: false,
            });
            ControlFlow::Break(())
        }
        _ => ControlFlow::Continue(()),
    })?;
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn assistant(tokens: u64, extra: &str) -> String {
        format!(
            r#"{{"type":"assistant","isSidechain":false,{extra}"message":{{"id":"m","model":"claude-sonnet-4-5","usage":{{"input_tokens":{tokens},"cache_creation_input_tokens":10,"cache_read_input_tokens":5,"output_tokens":7}}}}}}"#
        )
    }

    fn write(lines: &[String]) -> tempfile::NamedTempFile {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        for l in lines {
            writeln!(f, "{l}").unwrap();
        }
        f
    }

    fn call(n: u64) -> String {
        assistant(n, "").replace(r#""id":"m""#, &format!(r#""id":"m{n}","note":"toolu_{n}""#))
    }

    fn result(n: u64) -> String {
        format!(r#"{{"type":"user","message":{{"content":[{{"tool_use_id":"toolu_{n}"}}]}}}}"#)
    }

    #[test]
    fn knows_whether_the_reply_that_made_a_tool_call_is_written() {
        let f = write(&[call(1000), result(1000), call(2000)]);
        let tail = tail_for_call(f.path(), Chain::Main, "toolu_2000").unwrap();
        assert_eq!((tail.usage.unwrap().used_tokens, tail.holds_call), (2015, true));
        // Its reply not written yet: the newest is the reply before, whose result follows it.
        let f = write(&[call(1000), result(1000)]);
        let tail = tail_for_call(f.path(), Chain::Main, "toolu_2000").unwrap();
        assert_eq!((tail.usage.unwrap().used_tokens, tail.holds_call), (1015, false));
        // The call's result after its reply: written. A mention older than the newest reply is
        // another call's; a non-id is never searched for.
        let tail = tail_for_call(f.path(), Chain::Main, "toolu_1000").unwrap();
        assert!(tail.holds_call);
        let f = write(&[result(9), call(1000)]);
        assert!(!tail_for_call(f.path(), Chain::Main, "toolu_9").unwrap().holds_call);
        assert!(!tail_for_call(f.path(), Chain::Main, "").unwrap().holds_call);
        assert!(!tail_for_call(f.path(), Chain::Main, r#"m1000","#).unwrap().holds_call);
    }

    #[test]
    fn an_earlier_calls_figure_is_that_of_the_reply_that_made_it() {
        let f = write(&[call(1000), result(1000), call(2000), result(2000), call(3000)]);
        let of = |id: &str| {
            figure_of_call(f.path(), Chain::Main, id)
                .unwrap()
                .map(|t| t.used_tokens)
        };
        assert_eq!(of("toolu_2000"), Some(2015), "not the newest reply's");
        assert_eq!(of("toolu_1000"), Some(1015));
        assert_eq!(of("toolu_4000"), None, "not written");
        assert_eq!(of(r#"m2000","#), None, "not a tool id");

        // Before a compaction its context is gone; a sidechain reply is another context.
        let boundary = r#"{"type":"system","subtype":"compact_boundary","compactMetadata":{"postTokens":6000}}"#;
        let f = write(&[call(1000), result(1000), boundary.into(), call(7000)]);
        assert_eq!(figure_of_call(f.path(), Chain::Main, "toolu_1000").unwrap(), None);
        let side = call(5000).replace(r#""isSidechain":false"#, r#""isSidechain":true"#);
        let f = write(&[side]);
        assert_eq!(figure_of_call(f.path(), Chain::Main, "toolu_5000").unwrap(), None);
        let own = figure_of_call(f.path(), Chain::Subagent, "toolu_5000").unwrap();
        assert_eq!(own.map(|t| t.used_tokens), Some(5015));
    }
}
