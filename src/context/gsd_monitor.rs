//! GSD's own context monitor (`gsd-context-monitor.js`) wired beside baton's. It reads the
//! statusline's bridge file and keeps its count in `claude-ctx-<session>-warned.json`, on
//! PostToolUse and, as gsd-core's installer wires it, on Stop and SubagentStop (counting
//! without a word) and PreCompact (deleting that file and the bridge). baton keeps its own
//! count in its private directory, so nothing GSD's monitor does moves it, and speaks for
//! both: whenever GSD's monitor would consult its record (a bridge younger than 60 s at or
//! below its warning threshold), baton leaves one there that says a CRITICAL was just given
//! and its breadcrumb recorded. GSD's monitor then gives no first warning, no escalation and
//! no repeat, and spawns no second breadcrumb: the agent hears one monitor, baton's.
//!
//! Claude Code runs a call's PostToolUse hooks side by side, so at a session's first call
//! GSD's hook could read before baton's had written. SessionStart (at startup, on resume, after
//! /clear and after a compaction, which GSD's PreCompact follows by deleting its record) leaves
//! the record first, when GSD's monitor is wired beside baton's.

use std::path::Path;

use crate::config::MonitorSettings;
use crate::context::bridge::{self, Bridge};
use crate::fsx;
use crate::hook::event::Event;
use crate::planning::config::{PlanningConfig, Thresholds};

/// GSD's own thresholds (remaining %), used when the project sets none.
const GSD_DEFAULTS: Thresholds = Thresholds {
    warning: 35.0,
    critical: 25.0,
};
/// GSD ignores bridge figures older than this.
const GSD_STALE_SECONDS: u64 = 60;
/// The record GSD's monitor finds: a warning given at this very call, at the highest level.
const QUIET_RECORD: &[u8] =
    br#"{"callsSinceWarn":0,"lastLevel":"critical","criticalRecorded":true,"generator":"baton"}"#;

/// The project's thresholds (gsd-core's `hooks.context_warning_threshold` and
/// `hooks.context_critical_threshold`) over baton's own, as whole remaining percentages.
pub fn with_project_thresholds(mut settings: MonitorSettings, planning: Option<&PlanningConfig>) -> MonitorSettings {
    let ours = Thresholds {
        warning: f64::from(settings.warning_remaining),
        critical: f64::from(settings.critical_remaining),
    };
    if let Some(set) = planning.and_then(|p| p.thresholds(ours)) {
        // A remaining percentage is whole: at or below 30.5 is at or below 30.
        settings.warning_remaining = set.warning.floor() as u8;
        settings.critical_remaining = set.critical.floor() as u8;
    }
    settings
}

/// Before baton's monitor decides: when GSD's monitor, run for the same event, would consult
/// its record (by what the session's `bridge` file says), leaves the quiet one there (see the
/// module's comment). Quick, so it lands before Node has started GSD's hook.
pub fn speak_for_both(session_id: &str, bridge: Option<&Bridge>, planning: Option<&PlanningConfig>, now: u64) {
    let Some(bridge) = bridge else {
        return;
    };
    let fresh = bridge.age_seconds(now).is_some_and(|age| age <= GSD_STALE_SECONDS);
    let warning = planning
        .and_then(|p| p.thresholds(GSD_DEFAULTS))
        .unwrap_or(GSD_DEFAULTS)
        .warning;
    let consulted = fresh
        && bridge
            .remaining_percentage
            .is_some_and(|remaining| remaining <= warning);
    if consulted {
        leave_quiet_record(session_id, now);
    }
}

/// A quiet record of baton's already in place and younger than this is left as it is: a
/// rewrite's rename costs more than the rest of the call. GSD's monitor, when it runs, counts
/// in the record, so there it is rewritten at every call anyway. Far under the day after
/// which the sweep removes a file nobody touched.
const QUIET_RECORD_KEPT_SECS: u64 = 60 * 60;

/// Writes the quiet record for `session_id`, unless it is there already (see
/// [`QUIET_RECORD_KEPT_SECS`]).
fn leave_quiet_record(session_id: &str, now: u64) {
    let Some(path) = fsx::session_temp_path(session_id, "-warned.json") else {
        return;
    };
    if quiet_record_in_place(&path, now) {
        return;
    }
    // Replaced by a rename: a link planted at the name is replaced, never written through.
    if let Err(e) = fsx::write_atomic(&path, QUIET_RECORD, 0o600, fsx::Durability::Ephemeral) {
        crate::log::note(&format!("monitor: GSD's record not written: {e}"));
    }
}

/// Whether `path` holds baton's quiet record, as the current user's own file with a single
/// name (a planted link is replaced), written in the last [`QUIET_RECORD_KEPT_SECS`].
fn quiet_record_in_place(path: &std::path::Path, now: u64) -> bool {
    let Ok((bytes, meta)) = fsx::read_private_with_metadata(path, QUIET_RECORD.len() as u64) else {
        return false;
    };
    let written = meta.modified().map(crate::clock::unix_secs);
    bytes == QUIET_RECORD && written.is_ok_and(|t| now.saturating_sub(t) < QUIET_RECORD_KEPT_SECS)
}

/// SubagentStop: GSD's monitor counts there too, so its record is set quiet again (while
/// baton's monitor is on), and its count cannot creep up to a warning between two tool calls.
pub fn on_subagent_stop(event: &Event) {
    if let Some((id, planning)) = batons_monitor_on(event) {
        speak_for_both(id, bridge::read(id).as_ref(), planning, event.now);
    }
}

/// SessionStart: leaves the quiet record before the session's first tool call when GSD's
/// monitor runs on PostToolUse beside baton's (in the settings files of the project or the
/// user: `both_wired` reads them for a project directory), whatever the bridge says yet; see
/// the module's comment.
pub fn on_session_start(event: &Event, both_wired: impl FnOnce(&Path) -> bool) {
    let Some((id, _)) = batons_monitor_on(event) else {
        return;
    };
    // Claude Code reads the project's settings where it was started.
    let project_dir = std::env::var_os("CLAUDE_PROJECT_DIR").map(std::path::PathBuf::from);
    if both_wired(project_dir.as_deref().unwrap_or(event.place.dir())) {
        leave_quiet_record(id, event.now);
    }
}

/// The session and the project's GSD config when baton's monitor is on for the payload's
/// project (and its warnings are not switched off there).
fn batons_monitor_on<'e>(event: &'e Event) -> Option<(&'e str, Option<&'e PlanningConfig>)> {
    let id = event.session_id()?;
    let planning = event.place.planning_config();
    let enabled = event.place.config().monitor().enabled;
    (enabled && planning.is_none_or(PlanningConfig::context_warnings)).then_some((id, planning))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;

    #[test]
    fn the_projects_thresholds_win_as_whole_percentages() {
        let planning: PlanningConfig =
            serde_json::from_str(r#"{"hooks":{"context_warning_threshold":45.5,"context_critical_threshold":30}}"#)
                .unwrap();
        let settings = with_project_thresholds(Config::default().monitor(), Some(&planning));
        assert_eq!((settings.warning_remaining, settings.critical_remaining), (45, 30));
        let none = with_project_thresholds(Config::default().monitor(), None);
        assert_eq!((none.warning_remaining, none.critical_remaining), (35, 25));
    }

    #[test]
    fn the_quiet_record_reads_as_gsds_own() {
        let state: crate::context::debounce::DebounceState = serde_json::from_slice(QUIET_RECORD).unwrap();
        assert_eq!(state.calls_since_warn, 0);
        assert_eq!(state.critical_recorded, Some(true));
    }
}
