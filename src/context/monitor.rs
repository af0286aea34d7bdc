//! The context monitor (PostToolUse): finds the current figure (the statusline's bridge
//! file, or the transcript's tail when the bridge is missing or stale), applies the
//! thresholds and the debounce, and words an advisory warning for the agent.

use std::path::Path;

use crate::config::{Config, MonitorSettings};
use crate::context::debounce::{self, Level};
use crate::context::usage::{self, ContextUsage};
use crate::context::{bridge, transcript};
use crate::fsx;
use crate::hook::payload::HookPayload;
use crate::planning::Project;
use crate::planning::config::PlanningConfig;

/// Runs the monitor for one tool call; `Some(text)` is the warning to give the agent.
pub fn on_tool_use(payload: &HookPayload, now: u64) -> Option<String> {
    let session_id = payload.session_id.as_deref().filter(|id| fsx::is_safe_session_id(id))?;
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
    let usage = current_usage(
        session_id,
        payload.transcript_path.as_deref(),
        payload.tool_use_id.as_deref(),
        &config,
        &settings,
        now,
    )?;
    let Some(level) = level_for(usage.remaining_percent(), &settings) else {
        if let Err(e) = debounce::reset(session_id) {
            crate::log::note(&format!("monitor: debounce reset failed: {e}"));
        }
        return None;
    };
    let (state, fire) = match debounce::advance(session_id, level, settings.debounce_calls) {
        Ok(Some(outcome)) => outcome,
        Ok(None) => return None,
        Err(e) => {
            crate::log::note(&format!("monitor: debounce update failed: {e}"));
            return None;
        }
    };
    let planning = project.as_ref().filter(|p| p.has_planning_state());
    if let Some(project) =
        planning.filter(|_| fire && level == Level::Critical && state.critical_recorded != Some(true))
    {
        record_exhaustion(project, session_id, 100 - usage.remaining_percent());
    }
    fire.then(|| warning_text(level, &usage, planning.is_some()))
}

/// The first CRITICAL of a session in a project with planning state notes in STATE.md
/// where the work stopped, once.
fn record_exhaustion(project: &Project, session_id: &str, used_percent: u8) {
    let recorded = crate::session::breadcrumb::record_context_exhaustion(project, used_percent)
        .map_err(|e| e.to_string())
        .and_then(|()| debounce::mark_critical_recorded(session_id).map_err(|e| e.to_string()));
    if let Err(e) = recorded {
        crate::log::note(&format!("monitor: recording the stop in STATE.md failed: {e}"));
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
) -> Option<ContextUsage> {
    let bridge = bridge::read(session_id);
    if let Some(b) = &bridge
        && b.age_seconds(now).is_some_and(|age| age <= settings.stale_seconds)
        && let Some(usage) = b.usage()
    {
        return Some(usage);
    }
    let path = Path::new(transcript_path?);
    if let Some(id) = tool_use_id {
        transcript::wait_for_tool_use(path, id, transcript::WRITE_LAG_LIMIT);
    }
    let tail = transcript::last_context_usage(path).ok()??;
    // A stale bridge still knows the window and model Claude Code reported for this session.
    let known = bridge.as_ref();
    Some(tail.usage(
        known.and_then(|b| b.context_window_size),
        known.and_then(|b| b.model_id.as_deref()),
        config.context_window_size(),
    ))
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

/// The advisory text: it informs and suggests, never orders the agent to stop or save.
pub fn warning_text(level: Level, usage: &ContextUsage, planning: bool) -> String {
    let remaining = usage.remaining_percent();
    let head = match level {
        Level::Warning => "CONTEXT WARNING",
        Level::Critical => "CONTEXT CRITICAL",
    };
    let figures = format!(
        "{head}: Usage at {}%. Remaining: {remaining}%. ({} of {} tokens in use.)",
        100 - remaining,
        usage::short_tokens(usage.used_tokens),
        usage::short_tokens(usage.window),
    );
    let advice = match (level, planning) {
        (Level::Warning, true) => {
            "Context is getting limited. It is a good moment to finish the current plan step rather than \
             start new complex work; if you are not between plan steps, letting the user know gives them \
             time to prepare a pause (/gsd:pause-work or `baton pause`)."
        }
        (Level::Warning, false) => {
            "Context is getting limited. Avoiding unnecessary exploration and new complex work keeps the \
             remaining context for the task at hand."
        }
        (Level::Critical, true) => {
            "Context is nearly exhausted. The project's position is already tracked in .planning/STATE.md, \
             so no handoff files are needed now. Please let the user know, so they can pause the work at \
             the next natural stopping point (/gsd:pause-work or `baton pause`)."
        }
        (Level::Critical, false) => {
            "Context is nearly exhausted. Please let the user know that context is low and ask how they \
             would like to proceed; saving state or writing handoff files is their call."
        }
    };
    format!("{figures} {advice}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::usage::UsageSource;

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
        let usage = ContextUsage {
            used_tokens: 140_000,
            window: 200_000,
            source: UsageSource::Payload,
        };
        for level in [Level::Warning, Level::Critical] {
            for planning in [true, false] {
                let text = warning_text(level, &usage, planning);
                assert!(
                    text.starts_with("CONTEXT ") && text.contains(": Usage at 70%. Remaining: 30%."),
                    "{text}"
                );
                assert!(text.contains("140k of 200k tokens"), "{text}");
                for imperative in ["STOP", "NOW", "immediately", "must", "Do NOT", "save state"] {
                    assert!(!text.contains(imperative), "{imperative:?} in {text}");
                }
                assert_eq!(text.contains("pause"), planning, "{text}");
            }
        }
    }
}
