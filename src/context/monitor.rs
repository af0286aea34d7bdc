//! The context monitor (PostToolUse): finds the current figure (`figure`: the transcript's
//! newest reply, or the statusline's bridge file while the transcript lags), applies the
//! thresholds and the debounce, and words an advisory warning (with the forecast) for the agent.

mod figure;

use std::path::{Path, PathBuf};

pub use figure::{Reading, Sighting, current_usage, one_request_reach, subagent_transcript, subagent_usage};

use crate::config::{Config, MonitorSettings};
use crate::context::bridge::{self, Bridge};
use crate::context::debounce::{self, Level};
use crate::context::fills::{self, Item};
use crate::context::forecast::Forecast;
use crate::context::gsd_monitor;
use crate::context::window::{self, ContextUsage};
use crate::fsx;
use crate::hook::event::Event;
use crate::hook::place::Place;
use crate::planning::Project;

/// Whose context a tool call used. Inside a subagent, hooks carry the parent's
/// `session_id` and `transcript_path` plus the run's `agent_id` (seen on 2.1.197).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agent<'a> {
    /// The main agent: the session's transcript, or the statusline's bridge file while it lags.
    Main,
    /// A subagent run: only its own transcript (the bridge is the parent's figure).
    Subagent(&'a str),
}

impl<'a> Agent<'a> {
    /// The agent a call names by `agent_id` (none or empty: the main one); `None` when the
    /// id is unsafe.
    pub fn of(agent_id: Option<&'a str>) -> Option<Self> {
        match agent_id.filter(|id| !id.is_empty()) {
            None => Some(Self::Main),
            Some(id) => fsx::is_safe_session_id(id).then_some(Self::Subagent(id)),
        }
    }

    /// The key its debounce and its running walk of the transcript are kept under.
    pub fn key(self, session_id: &str) -> Option<String> {
        match self {
            Self::Main => Some(session_id.to_owned()),
            Self::Subagent(agent_id) => debounce::subagent_key(session_id, agent_id),
        }
    }

    /// Its own conversation's transcript, from the session's: a subagent's lies beside it.
    pub fn transcript(self, session_transcript: &Path) -> Option<PathBuf> {
        match self {
            Self::Main => Some(session_transcript.to_path_buf()),
            Self::Subagent(agent_id) => subagent_transcript(session_transcript, agent_id),
        }
    }
}

/// Runs the monitor for one tool call; `Some(text)` is the warning to give the agent. Silent
/// for a session baton's mod speaks for (it judges the client's own figures at the call).
pub fn on_tool_use(event: &Event) -> Option<String> {
    let (payload, now) = (event.payload, event.now);
    let session_id = event.session_id()?;
    // The judge first: it also leaves GSD's monitor quiet, whoever of baton's speaks.
    let judge = Judge::for_call(session_id, payload.agent_id.as_deref(), &event.place, now)?;
    if crate::context::mod_marker::is_live(session_id) {
        return None;
    }
    let transcript_path = payload.transcript_path.as_deref();
    let tool_use_id = payload.tool_use_id.as_deref();
    let (config, settings) = (judge.config, &judge.settings);
    let worth_waiting = |known: &ContextUsage| worth_waiting(known, settings, &judge.debounce_key);
    let sighting = match judge.agent {
        Agent::Main => current_usage(
            judge.bridge.as_ref(),
            transcript_path,
            tool_use_id,
            config,
            settings,
            now,
            worth_waiting,
        ),
        Agent::Subagent(agent_id) => subagent_usage(transcript_path?, agent_id, tool_use_id, config, worth_waiting),
    }?;
    let due = |level| debounce::due(&judge.debounce_key, level, settings.debounce_calls);
    let reading = match decide(sighting, settings, due) {
        Decision::Judge(reading) => reading,
        Decision::Later => {
            debounce::defer(&judge.debounce_key, tool_use_id.unwrap_or_default());
            return None;
        }
    };
    judge.verdict(
        &reading.usage,
        |ids, level| late_levels(&reading, ids, level, settings),
        |config| reading.forecast(config),
        || judge.largest_in(transcript_path.map(Path::new)),
    )
}

/// What one tool call is judged with: whose context it is, its debounce, the project and
/// baton's settings for it. The hook and baton's mod judge alike.
pub struct Judge<'a> {
    pub session_id: &'a str,
    pub agent: Agent<'a>,
    debounce_key: String,
    project: Option<&'a Project>,
    pub config: &'a Config,
    pub settings: MonitorSettings,
    /// The session's bridge file as the call found it (read once: GSD's record and the
    /// figure both go by it).
    bridge: Option<Bridge>,
}

impl<'a> Judge<'a> {
    /// The judge of a tool call of `session_id` (inside subagent `agent_id` when given), in
    /// the project of `place`, with the project's thresholds over baton's; `None` when
    /// warnings are off there or an id is unsafe. When they are on, GSD's monitor wired beside
    /// is left quiet for this call ([`gsd_monitor::speak_for_both`]).
    pub fn for_call(session_id: &'a str, agent_id: Option<&'a str>, place: &'a Place, now: u64) -> Option<Self> {
        let agent = Agent::of(agent_id)?;
        let debounce_key = agent.key(session_id)?;
        let config = place.config();
        let planning_config = place.planning_config();
        let settings = gsd_monitor::with_project_thresholds(config.monitor(), planning_config);
        if !settings.enabled || planning_config.is_some_and(|c| !c.context_warnings()) {
            return None;
        }
        let bridge = bridge::read(session_id);
        gsd_monitor::speak_for_both(session_id, bridge.as_ref(), planning_config, now);
        Some(Self {
            session_id,
            agent,
            debounce_key,
            project: place.project(),
            config,
            settings,
            bridge,
        })
    }

    /// The warning at `usage`, if one is due: the thresholds, the debounce (advanced here,
    /// with `late_levels` giving the levels of the calls left undecided before, given this
    /// call's), the breadcrumb of a first CRITICAL, and the advisory text with `forecast`'s
    /// and the live context's `largest` items (both asked only when a warning is given).
    pub fn verdict(
        &self,
        usage: &ContextUsage,
        late_levels: impl FnOnce(&[String], Level) -> Vec<Option<Level>>,
        forecast: impl FnOnce(&Config) -> Option<Forecast>,
        largest: impl FnOnce() -> Vec<Item>,
    ) -> Option<String> {
        let (session_id, agent, settings) = (self.session_id, self.agent, &self.settings);
        let Some(level) = level_for(usage.remaining_percent(), settings) else {
            if let Err(e) = debounce::reset(&self.debounce_key) {
                crate::log::note(&format!("monitor: debounce reset failed: {e}"));
            }
            return None;
        };
        let late = |ids: &[String]| late_levels(ids, level);
        let (state, fire) = debounce::advance(&self.debounce_key, level, settings.debounce_calls, late)?;
        let planning = self.project.filter(|p| p.has_planning_state());
        let advice = match (agent, planning) {
            (Agent::Subagent(_), _) => Advice::Subagent,
            (Agent::Main, Some(_)) => Advice::Planning,
            (Agent::Main, None) => Advice::Plain,
        };
        // The breadcrumb is the main agent's: a subagent's context says nothing about the session's.
        if let Some(project) = planning.filter(|_| {
            agent == Agent::Main && fire && level == Level::Critical && state.critical_recorded != Some(true)
        }) {
            record_exhaustion(project, session_id, usage.used_percent());
        }
        fire.then(|| {
            let program = crate::platform::shell::this_program();
            let findings = Findings {
                forecast: forecast(self.config),
                largest: largest(),
            };
            warning_text(level, usage, &findings, advice, &program)
        })
    }

    /// The largest items in the live context of the conversation judged, from the session's
    /// `transcript` (a subagent's own conversation is in its own transcript beside it), by the
    /// running walk kept under this judge's key; none without a transcript.
    pub fn largest_in(&self, transcript: Option<&Path>) -> Vec<Item> {
        let subagent = matches!(self.agent, Agent::Subagent(_));
        transcript
            .and_then(|path| self.agent.transcript(path))
            .map_or_else(Vec::new, |own| {
                fills::running::largest(&self.debounce_key, &own, subagent)
            })
    }

    /// The fewest tokens of `window` at which a warning can be due: below it the monitor only
    /// resets its debounce.
    pub fn warns_from(&self, window: u64) -> u64 {
        let warns = |used| {
            let usage = ContextUsage {
                used_tokens: used,
                window,
                source: crate::context::window::UsageSource::Mod,
            };
            level_for(usage.remaining_percent(), &self.settings).is_some()
        };
        let (mut quiet, mut loud) = (0, window);
        if warns(quiet) {
            return 0;
        }
        // The level only rises with the tokens: find where it starts.
        while loud - quiet > 1 {
            let mid = quiet + (loud - quiet) / 2;
            if warns(mid) { loud = mid } else { quiet = mid }
        }
        loud
    }
}

/// The levels of the earlier calls `ids` left undecided, from the replies that made them; one
/// whose reply is not in the transcript's tail is taken at `level`, this call's.
fn late_levels(reading: &Reading, ids: &[String], level: Level, settings: &MonitorSettings) -> Vec<Option<Level>> {
    let level_of = |id: &String| match reading.of_call(id) {
        Some(usage) => level_for(usage.remaining_percent(), settings),
        None => Some(level),
    };
    ids.iter().map(level_of).collect()
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

/// What to do with a tool call's figure.
#[derive(Debug)]
enum Decision {
    /// Judge the call at this figure.
    Judge(Reading),
    /// Keep the call undecided: its own reply is not written, and the figure before it warns
    /// of nothing now (`debounce::defer`).
    Later,
}

/// The decision at a sighting: a settled figure is judged; without the call's own reply, the
/// figure before it is judged only when it warns at this call (`due`, a level's warning being
/// due now), else the call is judged later, once its reply is written.
fn decide(sighting: Sighting, settings: &MonitorSettings, due: impl Fn(Level) -> bool) -> Decision {
    match sighting {
        Sighting::Settled(reading) => Decision::Judge(reading),
        Sighting::Unwritten(Some(reading)) => match level_for(reading.usage.remaining_percent(), settings) {
            Some(level) if due(level) => Decision::Judge(reading),
            _ => Decision::Later,
        },
        Sighting::Unwritten(None) => Decision::Later,
    }
}

/// Whether the reply that made this tool call, not in the transcript yet, could change what is
/// said at `known` (the newest figure so far): a threshold within one request's reach of it, or
/// a warning due at this call (it then gives that reply's figure).
fn worth_waiting(known: &ContextUsage, settings: &MonitorSettings, debounce_key: &str) -> bool {
    let level = level_for(known.remaining_percent(), settings);
    let reach = ContextUsage {
        used_tokens: known.used_tokens.saturating_add(one_request_reach()),
        ..*known
    };
    level_for(reach.remaining_percent(), settings) != level
        || level.is_some_and(|level| debounce::due(debounce_key, level, settings.debounce_calls))
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

/// What a warning says beside the level: how many requests still fit, and what takes the
/// most room in the live context.
#[derive(Default)]
pub struct Findings {
    pub forecast: Option<Forecast>,
    /// Largest first.
    pub largest: Vec<Item>,
}

/// Live items a warning names, and the least tokens one must hold to be named.
const NAMED_ITEMS: usize = 3;
const NAMED_MIN_TOKENS: i64 = 1_000;

/// The advisory text: it informs and suggests, never orders the agent to stop or save.
/// `program` is the word the agent's shell runs baton by (its absolute path: `baton` may not
/// be on the agent's PATH).
pub fn warning_text(level: Level, usage: &ContextUsage, extra: &Findings, advice: Advice, program: &str) -> String {
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
    if let Some(forecast) = &extra.forecast {
        figures.push(' ');
        figures.push_str(&forecast.sentence());
    }
    let named: Vec<String> = extra
        .largest
        .iter()
        .filter(|item| item.tokens >= NAMED_MIN_TOKENS)
        .take(NAMED_ITEMS)
        .map(|item| format!("{} {}", item.name(), window::short_tokens(item.tokens as u64)))
        .collect();
    if !named.is_empty() {
        figures.push_str(&format!(" Largest in context: {}.", named.join(", ")));
    }
    let pause = format!("/gsd-pause-work or `{program} pause`");
    let advice = match (level, advice) {
        (Level::Warning, Advice::Planning) => &format!(
            "Context is getting limited. It is a good moment to finish the current plan step rather than \
             start new complex work; if you are not between plan steps, letting the user know gives them \
             time to prepare a pause ({pause})."
        ),
        (Level::Warning, Advice::Plain) => {
            "Context is getting limited. Avoiding unnecessary exploration and new complex work keeps the \
             remaining context for the task at hand."
        }
        (Level::Warning, Advice::Subagent) => {
            "This subagent's context is getting limited. It is a good moment to finish the current step \
             rather than start new work, and to report back to the orchestrator what is done and what \
             remains."
        }
        (Level::Critical, Advice::Planning) => &format!(
            "Context is nearly exhausted. The project's position is already tracked in .planning/STATE.md, \
             so no handoff files are needed now. Please let the user know, so they can pause the work at \
             the next natural stopping point ({pause})."
        ),
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
                let text = warning_text(level, &usage, &Findings::default(), advice, "baton");
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
        let findings = Findings {
            forecast: Some(forecast),
            largest: Vec::new(),
        };
        let text = warning_text(Level::Warning, &usage, &findings, Advice::Plain, "baton");
        assert!(
            text.contains(
                "(140k of 200k tokens in use.) At the recent rate (about 10k tokens per request), \
                 about 3 more requests fit before compaction. Context is getting limited."
            ),
            "{text}"
        );
    }
}
