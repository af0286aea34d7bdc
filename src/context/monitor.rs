//! The context monitor (PostToolUse): finds the current figure (the statusline's bridge
//! file, or the transcript's tail when the bridge is missing or stale), applies the
//! thresholds and the debounce, and words an advisory warning (with the forecast) for the agent.

use std::path::{Path, PathBuf};

use crate::config::{Config, MonitorSettings};
use crate::context::debounce::{self, Level};
use crate::context::forecast::{Forecast, History};
use crate::context::transcript::Chain;
use crate::context::window::limit::Limit;
use crate::context::window::{self, ContextUsage};
use crate::context::{bridge, transcript};
use crate::fsx;
use crate::hook::payload::HookPayload;
use crate::planning::Project;
use crate::planning::config::PlanningConfig;

/// Whose context a tool call used. Inside a subagent, hooks carry the parent's
/// `session_id` and `transcript_path` plus the run's `agent_id` (seen on 2.1.197).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agent<'a> {
    /// The main agent: the statusline's bridge file, else the session's transcript.
    Main,
    /// A subagent run: only its own transcript (the bridge is the parent's figure).
    Subagent(&'a str),
}

/// Runs the monitor for one tool call; `Some(text)` is the warning to give the agent.
pub fn on_tool_use(payload: &HookPayload, now: u64) -> Option<String> {
    let session_id = payload.session_id.as_deref().filter(|id| fsx::is_safe_session_id(id))?;
    let agent = match payload.agent_id.as_deref().filter(|id| !id.is_empty()) {
        None => Agent::Main,
        Some(id) if fsx::is_safe_session_id(id) => Agent::Subagent(id),
        Some(_) => return None,
    };
    let debounce_key = match agent {
        Agent::Main => session_id.to_owned(),
        Agent::Subagent(agent_id) => debounce::subagent_key(session_id, agent_id)?,
    };
    let project = Project::find(&crate::hook::working_dir(payload.cwd.as_deref()));
    let config = Config::load(project.as_ref().map(|p| p.root.as_path()));
    let settings = config.monitor();
    if !settings.enabled
        || project
            .as_ref()
            .is_some_and(|p| !PlanningConfig::read(p).context_warnings())
    {
        return None;
    }
    let transcript_path = payload.transcript_path.as_deref();
    let tool_use_id = payload.tool_use_id.as_deref();
    let reading = match agent {
        Agent::Main => current_usage(session_id, transcript_path, tool_use_id, &config, &settings, now),
        Agent::Subagent(agent_id) => subagent_usage(transcript_path?, agent_id, tool_use_id, &config),
    }?;
    let usage = reading.usage;
    let Some(level) = level_for(usage.remaining_percent(), &settings) else {
        if let Err(e) = debounce::reset(&debounce_key) {
            crate::log::note(&format!("monitor: debounce reset failed: {e}"));
        }
        return None;
    };
    let (state, fire) = debounce::advance(&debounce_key, level, settings.debounce_calls)?;
    let planning = project.as_ref().filter(|p| p.has_planning_state());
    let advice = match (agent, planning) {
        (Agent::Subagent(_), _) => Advice::Subagent,
        (Agent::Main, Some(_)) => Advice::Planning,
        (Agent::Main, None) => Advice::Plain,
    };
    // The breadcrumb is the main agent's: a subagent's context says nothing about the session's.
    if let Some(project) = planning
        .filter(|_| agent == Agent::Main && fire && level == Level::Critical && state.critical_recorded != Some(true))
    {
        record_exhaustion(project, session_id, usage.used_percent());
    }
    fire.then(|| warning_text(level, &usage, reading.forecast(&config).as_ref(), advice))
}

/// The first CRITICAL of a session in a project with planning state notes in STATE.md
/// where the work stopped, once.
fn record_exhaustion(project: &Project, session_id: &str, used_percent: u8) {
    let recorded = crate::continuity::breadcrumb::record_context_exhaustion(project, used_percent)
        .map_err(|e| e.to_string())
        .and_then(|()| debounce::mark_critical_recorded(session_id).map_err(|e| e.to_string()));
    if let Err(e) = recorded {
        crate::log::note(&format!("monitor: recording the stop in STATE.md failed: {e}"));
    }
}

/// A context figure and where its history is: the transcript (and chain) a forecast reads.
#[derive(Debug, Clone)]
pub struct Reading {
    pub usage: ContextUsage,
    /// The model the figure is for, when known (its window and compaction regime).
    pub model: Option<String>,
    pub transcript: Option<PathBuf>,
    pub chain: Chain,
    pub figure_from: FigureFrom,
}

/// Where the monitor's figure came from, which decides how it stands against the transcript.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FigureFrom {
    /// The transcript's tail, once it held the reply that made this tool call.
    Transcript,
    /// The statusline's bridge file, which may not be up to the reply that made this tool
    /// call (`tool_use_id`, when known) yet: the transcript holds a newer figure then.
    Bridge { tool_use_id: Option<String> },
}

impl Reading {
    /// The forecast at this figure from the transcript's recent requests (read only when a
    /// warning is given, so the monitor's usual run reads no more than before). A bridge figure
    /// can be a reply behind the transcript when tools are quick: the transcript is given the
    /// time to hold the reply that made this tool call, and its newer figure counts.
    pub fn forecast(&self, config: &Config) -> Option<Forecast> {
        let path = self.transcript.as_deref()?;
        let slack = match &self.figure_from {
            FigureFrom::Bridge { tool_use_id } => {
                if let Some(id) = tool_use_id {
                    transcript::wait_for_tool_use(path, id, transcript::WRITE_LAG_LIMIT);
                }
                u64::MAX
            }
            FigureFrom::Transcript => self.usage.rounding_slack(),
        };
        let history = History::read(path, self.chain);
        // GSD's bridge names no model: the transcript's newest reply does.
        let model = self.model.as_deref().or(history.model.as_deref());
        let limit = Limit::for_session(self.usage.window, model, config);
        history.forecast(self.usage.used_tokens, slack, limit.tokens)
    }
}

/// The figure for this session: the bridge file when fresh, else the transcript's tail once
/// it holds the reply that made this tool call (`tool_use_id`).
pub fn current_usage(
    session_id: &str,
    transcript_path: Option<&str>,
    tool_use_id: Option<&str>,
    config: &Config,
    settings: &MonitorSettings,
    now: u64,
) -> Option<Reading> {
    let bridge = bridge::read(session_id);
    let transcript = transcript_path.map(PathBuf::from);
    if let Some(b) = &bridge
        && b.age_seconds(now).is_some_and(|age| age <= settings.stale_seconds)
        && let Some(usage) = b.usage(config.context_window_size())
    {
        return Some(Reading {
            usage,
            model: b.model_id.clone(),
            transcript,
            chain: Chain::Main,
            figure_from: FigureFrom::Bridge {
                tool_use_id: tool_use_id.map(str::to_owned),
            },
        });
    }
    let path = transcript.as_deref()?;
    if let Some(id) = tool_use_id {
        transcript::wait_for_tool_use(path, id, transcript::WRITE_LAG_LIMIT);
    }
    let tail = transcript::last_context_usage(path, Chain::Main).ok()??;
    // A stale bridge still knows the window and model Claude Code reported for this session.
    let known = bridge.as_ref();
    let known_model = known.and_then(|b| b.model_id.clone());
    let usage = tail.usage(
        known.and_then(|b| b.context_window_size),
        known_model.as_deref(),
        config.context_window_size(),
    );
    Some(Reading {
        usage,
        model: known_model.or(tail.model),
        transcript,
        chain: Chain::Main,
        figure_from: FigureFrom::Transcript,
    })
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
/// parent's bridge describes another context).
fn subagent_usage(
    parent_transcript: &str,
    agent_id: &str,
    tool_use_id: Option<&str>,
    config: &Config,
) -> Option<Reading> {
    let path = subagent_transcript(Path::new(parent_transcript), agent_id)?;
    if let Some(id) = tool_use_id {
        transcript::wait_for_tool_use(&path, id, transcript::WRITE_LAG_LIMIT);
    }
    let tail = transcript::last_context_usage(&path, Chain::Subagent).ok()??;
    Some(Reading {
        usage: tail.usage(None, None, config.context_window_size()),
        model: tail.model,
        transcript: Some(path),
        chain: Chain::Subagent,
        figure_from: FigureFrom::Transcript,
    })
}

/// The level for a remaining percentage, `None` above the warning threshold.
pub fn level_for(remaining: u8, settings: &MonitorSettings) -> Option<Level> {
    if remaining <= settings.critical_remaining {
        Some(Level::Critical)
    } else if remaining <= settings.warning_remaining {
        Some(Level::Warning)
    } else {
        None
    }
}

/// Which advice follows the figures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Advice {
    /// The main agent, no planning state.
    Plain,
    /// The main agent in a project with `.planning/` state: pausing is an option.
    Planning,
    /// A subagent: it cannot talk to the user, so it reports back to its orchestrator.
    Subagent,
}

/// The advisory text: it informs and suggests, never orders the agent to stop or save.
pub fn warning_text(level: Level, usage: &ContextUsage, forecast: Option<&Forecast>, advice: Advice) -> String {
    let head = match level {
        Level::Warning => "CONTEXT WARNING",
        Level::Critical => "CONTEXT CRITICAL",
    };
    let mut figures = format!(
        "{head}: Usage at {}%. Remaining: {}%. ({} of {} tokens in use.)",
        usage.used_percent(),
        usage.remaining_percent(),
        window::short_tokens(usage.used_tokens),
        window::short_tokens(usage.window),
    );
    if let Some(forecast) = forecast {
        figures.push(' ');
        figures.push_str(&forecast.sentence());
    }
    let advice = match (level, advice) {
        (Level::Warning, Advice::Planning) => {
            "Context is getting limited. It is a good moment to finish the current plan step rather than \
             start new complex work; if you are not between plan steps, letting the user know gives them \
             time to prepare a pause (/gsd:pause-work or `baton pause`)."
        }
        (Level::Warning, Advice::Plain) => {
            "Context is getting limited. Avoiding unnecessary exploration and new complex work keeps the \
             remaining context for the task at hand."
        }
        (Level::Warning, Advice::Subagent) => {
            "This subagent's context is getting limited. It is a good moment to finish the current step \
             rather than start new work, and to report back to the orchestrator what is done and what \
             remains."
        }
        (Level::Critical, Advice::Planning) => {
            "Context is nearly exhausted. The project's position is already tracked in .planning/STATE.md, \
             so no handoff files are needed now. Please let the user know, so they can pause the work at \
             the next natural stopping point (/gsd:pause-work or `baton pause`)."
        }
        (Level::Critical, Advice::Plain) => {
            "Context is nearly exhausted. Please let the user know that context is low and ask how they \
             would like to proceed; saving state or writing handoff files is their call."
        }
        (Level::Critical, Advice::Subagent) => {
            "This subagent's context is nearly exhausted. Please wrap up the current step and report back \
             to the orchestrator with what is done, what remains and where it stands, so it can hand the \
             rest to a fresh agent."
        }
    };
    format!("{figures} {advice}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> MonitorSettings {
        Config::default().monitor()
    }

    #[test]
    fn thresholds_are_inclusive() {
        let s = settings();
        assert_eq!(level_for(36, &s), None);
        assert_eq!(level_for(35, &s), Some(Level::Warning));
        assert_eq!(level_for(26, &s), Some(Level::Warning));
        assert_eq!(level_for(25, &s), Some(Level::Critical));
    }

    #[test]
    fn texts_start_with_gsds_prefix_and_stay_advisory() {
        let usage = ContextUsage::stated(140_000, 200_000);
        for level in [Level::Warning, Level::Critical] {
            for advice in [Advice::Plain, Advice::Planning, Advice::Subagent] {
                let text = warning_text(level, &usage, None, advice);
                assert!(
                    text.starts_with("CONTEXT ") && text.contains(": Usage at 70%. Remaining: 30%."),
                    "{text}"
                );
                assert!(text.contains("140k of 200k tokens"), "{text}");
                for imperative in ["STOP", "NOW", "immediately", "must", "Do NOT", "save state"] {
                    assert!(!text.contains(imperative), "{imperative:?} in {text}");
                }
                assert_eq!(text.contains("pause"), advice == Advice::Planning, "{text}");
                assert_eq!(text.contains("orchestrator"), advice == Advice::Subagent, "{text}");
                if advice == Advice::Subagent {
                    assert!(!text.contains("user"), "a subagent cannot talk to the user: {text}");
                }
            }
        }
    }

    #[test]
    fn the_forecast_follows_the_figures_in_advisory_words() {
        let usage = ContextUsage::stated(140_000, 200_000);
        let forecast = Forecast {
            tokens_per_request: 10_000,
            requests_left: 3,
        };
        let text = warning_text(Level::Warning, &usage, Some(&forecast), Advice::Plain);
        assert!(
            text.contains(
                "(140k of 200k tokens in use.) At the recent rate (about 10k tokens per request), \
                 about 3 more requests fit before compaction. Context is getting limited."
            ),
            "{text}"
        );
    }

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
