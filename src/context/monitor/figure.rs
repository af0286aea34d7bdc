//! The figure the monitor judges. The transcript's newest reply is the newest figure once it
//! holds the reply that made this tool call; until Claude Code writes that line, the newer of
//! the transcript's last reply and the statusline's bridge file (which renders only now and
//! then, so it is often a reply or more behind). The line is waited for only when the reply not
//! yet written could change what is said; when it is still not written after the wait, the
//! call is [`Sighting::Unwritten`] (judged at a later call, once it is).

use std::path::{Path, PathBuf};

use crate::config::{Config, MonitorSettings};
use crate::context::bridge::Bridge;
use crate::context::forecast::{Forecast, History};
use crate::context::transcript::{self, CallTail, Chain};
use crate::context::window::ContextUsage;
use crate::context::window::limit::Limit;
use crate::fsx;

/// The cap Claude Code puts on a Read and on an MCP tool result unless configured (2.1.332:
/// `maxTokens: 25000` for files, 25,000 for MCP).
const RESULT_CAP: u64 = 25_000;
/// What comes with a tool result in one request: the reply that asked for it, hook texts,
/// reminders.
const AROUND_A_RESULT: u64 = 5_000;

/// The most one request is taken to add to the context: a tool result at the cap Claude Code
/// puts on Read and MCP results (`CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS`,
/// `MAX_MCP_OUTPUT_TOKENS` raise it; hooks inherit the client's environment) plus what comes
/// with it. A bridge figure further ahead of the transcript is not the reply being written (it
/// predates a compaction or a rewind); a threshold further away than this is not waited for.
pub fn one_request_reach() -> u64 {
    let cap = |name| {
        let value = std::env::var(name).ok()?;
        value.trim().parse::<u64>().ok().filter(|tokens| *tokens > 0)
    };
    let configured = [
        cap("CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS"),
        cap("MAX_MCP_OUTPUT_TOKENS"),
    ];
    let largest = configured.into_iter().flatten().fold(RESULT_CAP, u64::max);
    largest.saturating_add(AROUND_A_RESULT)
}

/// A context figure and where its history is: the transcript (and chain) a forecast reads.
#[derive(Debug, Clone)]
pub struct Reading {
    pub usage: ContextUsage,
    /// The model the figure is for, when known (its window and compaction regime).
    pub model: Option<String>,
    pub transcript: Option<PathBuf>,
    pub chain: Chain,
}

/// What the monitor sees of a tool call's figure.
#[derive(Debug, Clone)]
pub enum Sighting {
    /// The figure that decides the call: that of the reply that made it (or a newer one), or an
    /// older one when that reply could not change what is said.
    Settled(Reading),
    /// The reply that made the call is not in the transcript even after the wait, and it could
    /// change what is said: only the newest figure before it is known, if any.
    Unwritten(Option<Reading>),
}

impl Reading {
    /// The figure of the reply that made the earlier call `tool_use_id`, in this reading's window
    /// (for a call judged after it ran); `None` when that reply is not in the transcript's tail.
    pub fn of_call(&self, tool_use_id: &str) -> Option<ContextUsage> {
        let tail = transcript::figure_of_call(self.transcript.as_deref()?, self.chain, tool_use_id).ok()??;
        Some(ContextUsage {
            used_tokens: tail.used_tokens,
            ..self.usage
        })
    }

    /// The forecast at this figure from the transcript's recent requests (read only when a
    /// warning is given, so the monitor's usual run reads no more than the tail's last reply).
    pub fn forecast(&self, config: &Config) -> Option<Forecast> {
        let history = History::read(self.transcript.as_deref()?, self.chain);
        // GSD's bridge names no model: the transcript's newest reply does.
        let model = self.model.as_deref().or(history.model.as_deref());
        let limit = Limit::for_session(self.usage.window, model, config);
        history.forecast(self.usage.used_tokens, self.usage.rounding_slack(), limit.tokens)
    }
}

/// The main agent's figure for the tool call `tool_use_id`: the transcript's tail once it holds
/// the reply that made the call, else the newer of the tail's and a fresh bridge file's (see
/// [`sight`] for the wait), `bridge` being the session's bridge file as the call found it.
/// `None` when nothing is known and nothing can be waited for.
pub fn current_usage(
    bridge: Option<&Bridge>,
    transcript_path: Option<&str>,
    tool_use_id: Option<&str>,
    config: &Config,
    settings: &MonitorSettings,
    now: u64,
    worth_waiting: impl Fn(&ContextUsage) -> bool,
) -> Option<Sighting> {
    let figures = Figures {
        fresh: bridge.filter(|b| b.age_seconds(now).is_some_and(|age| age <= settings.stale_seconds)),
        // Even a stale bridge knows the window and model Claude Code reported for the session.
        known: bridge,
        configured: config.context_window_size(),
        transcript: transcript_path.map(PathBuf::from),
    };
    let Some(path) = figures.transcript.as_deref() else {
        return figures.newest(&CallTail::default()).map(Sighting::Settled);
    };
    sight(
        path,
        Chain::Main,
        tool_use_id.unwrap_or_default(),
        |tail| figures.newest(tail),
        worth_waiting,
    )
}

/// The figure for the call `id` from the transcript at `path` (`reading_of` turns its tail into
/// a reading). When the reply that made the call is not written yet and `worth_waiting` says it
/// could change what is said at the figure known so far (or nothing is known), that line is
/// waited for (at most [`transcript::WRITE_LAG_LIMIT`]); still missing, the call is
/// [`Sighting::Unwritten`]. A transcript that cannot be read settles on what else is known.
fn sight(
    path: &Path,
    chain: Chain,
    id: &str,
    reading_of: impl Fn(&CallTail) -> Option<Reading>,
    worth_waiting: impl Fn(&ContextUsage) -> bool,
) -> Option<Sighting> {
    let tail = match transcript::tail_for_call(path, chain, id) {
        Ok(tail) => tail,
        Err(e) => {
            // A transcript that cannot be read (not a file) will not say more by waiting; one
            // not created yet will, when nothing else is known (the session's first call).
            let known = reading_of(&CallTail::default());
            let created = e.kind() == std::io::ErrorKind::NotFound
                && known.is_none()
                && transcript::is_tool_use_id(id)
                && transcript::wait_for_file(path, transcript::WRITE_IDLE_LIMIT);
            match created.then(|| transcript::tail_for_call(path, chain, id)) {
                Some(Ok(tail)) => tail,
                _ => return known.map(Sighting::Settled),
            }
        }
    };
    let reading = reading_of(&tail);
    let unwritten = !tail.holds_call && transcript::is_tool_use_id(id);
    if !unwritten || reading.as_ref().is_some_and(|r| !worth_waiting(&r.usage)) {
        return reading.map(Sighting::Settled);
    }
    let started = std::time::Instant::now();
    let written = transcript::wait_for_tool_use(path, id, transcript::WRITE_LAG_LIMIT);
    crate::log::note(&format!(
        "monitor: waited {} ms for the reply that made {id}: {}",
        started.elapsed().as_millis(),
        if written { "written" } else { "not written" }
    ));
    let tail = transcript::tail_for_call(path, chain, id).unwrap_or_default();
    let reading = reading_of(&tail);
    if tail.holds_call {
        reading.map(Sighting::Settled)
    } else {
        Some(Sighting::Unwritten(reading))
    }
}

/// What the main agent's figure is chosen from.
struct Figures<'a> {
    /// The bridge file, when younger than the monitor's staleness limit.
    fresh: Option<&'a Bridge>,
    /// The bridge file, however old.
    known: Option<&'a Bridge>,
    configured: Option<u64>,
    transcript: Option<PathBuf>,
}

impl Figures<'_> {
    /// The newest figure: the tail's when it holds this call's reply or follows a compaction
    /// (a bridge may predate it); else the bridge's when it is ahead of the tail by more than
    /// its rounding and by no more than one request; else the tail's; else the bridge's.
    fn newest(&self, tail: &CallTail) -> Option<Reading> {
        let known_model = self.known.and_then(|b| b.model_id.as_deref());
        let from_tail = tail.usage.as_ref().map(|t| {
            let usage = t.usage(
                self.known.and_then(|b| b.context_window_size),
                known_model,
                self.configured,
            );
            let model = known_model.map(str::to_owned).or_else(|| t.model.clone());
            (usage, model, t.after_compaction)
        });
        // A percentage-only bridge is read in the window the tail's figure is in (GSD's names none).
        let window = from_tail.as_ref().map(|(usage, ..)| usage.window).or(self.configured);
        let from_bridge = self.fresh.and_then(|b| Some((b.usage(window)?, b.model_id.clone())));
        let (usage, model) = match (from_tail, from_bridge) {
            (Some((tail_usage, tail_model, after_compaction)), Some(bridge)) => {
                let (bridge_usage, _) = &bridge;
                let slack = bridge_usage.rounding_slack();
                let ahead = bridge_usage.used_tokens > tail_usage.used_tokens.saturating_add(slack)
                    && bridge_usage.used_tokens
                        <= tail_usage
                            .used_tokens
                            .saturating_add(one_request_reach())
                            .saturating_add(slack);
                if ahead && !tail.holds_call && !after_compaction {
                    bridge
                } else {
                    (tail_usage, tail_model)
                }
            }
            (Some((usage, model, _)), None) => (usage, model),
            (None, Some(bridge)) => bridge,
            (None, None) => return None,
        };
        Some(Reading {
            usage,
            model,
            transcript: self.transcript.clone(),
            chain: Chain::Main,
        })
    }
}

/// A subagent's transcript: `<transcript_path without .jsonl>/subagents/agent-<agent_id>.jsonl`
/// next to the parent's (`<dir>/<session>.jsonl`); `None` when the parent's path is not a
/// `.jsonl` file or `agent_id` is unsafe.
pub fn subagent_transcript(parent_transcript: &Path, agent_id: &str) -> Option<PathBuf> {
    if !fsx::is_safe_session_id(agent_id) || parent_transcript.extension()? != "jsonl" {
        return None;
    }
    let session_dir = parent_transcript.with_extension("");
    Some(session_dir.join("subagents").join(format!("agent-{agent_id}.jsonl")))
}

/// The figure for a subagent run, from its own transcript only (its model's window: the
/// parent's bridge describes another context), waited for as the main agent's ([`sight`]).
pub fn subagent_usage(
    parent_transcript: &str,
    agent_id: &str,
    tool_use_id: Option<&str>,
    config: &Config,
    worth_waiting: impl Fn(&ContextUsage) -> bool,
) -> Option<Sighting> {
    let path = subagent_transcript(Path::new(parent_transcript), agent_id)?;
    let reading_of = |tail: &CallTail| {
        let figure = tail.usage.as_ref()?;
        Some(Reading {
            usage: figure.usage(None, None, config.context_window_size()),
            model: figure.model.clone(),
            transcript: Some(path.clone()),
            chain: Chain::Subagent,
        })
    };
    sight(
        &path,
        Chain::Subagent,
        tool_use_id.unwrap_or_default(),
        reading_of,
        worth_waiting,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_subagents_transcript_sits_beside_the_parents() {
        let parent = Path::new("/h/.claude/projects/-p/0711.jsonl");
        assert_eq!(
            subagent_transcript(parent, "ab81ffb4535095a29").unwrap(),
            Path::new("/h/.claude/projects/-p/0711/subagents/agent-ab81ffb4535095a29.jsonl")
        );
        assert_eq!(subagent_transcript(parent, "../x"), None);
        assert_eq!(subagent_transcript(Path::new("/h/0711"), "a1"), None);
    }
}
