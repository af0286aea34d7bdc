//! A second context monitor: GSD's `gsd-context-monitor.js` (GSD 1.x and gsd-core, whose
//! installer wires it to PostToolUse, Stop, SubagentStop and PreCompact) in the same settings
//! as baton's. baton keeps it quiet while baton's monitor is on, so the agent hears one
//! monitor; the doctor still says it is there and how to keep only one.

use std::path::Path;

use super::super::wired;
use super::Check;

/// The check: none when GSD's monitor is wired nowhere.
pub fn check(project: Option<&Path>) -> Option<Check> {
    let found = wired::Monitors::read(project).gsd;
    if found.is_empty() {
        return None;
    }
    let places: Vec<String> = found
        .iter()
        .map(|(path, events)| format!("{} ({})", path.display(), events.join(", ")))
        .collect();
    let places = places.join("; ");
    let batons_on = crate::config::Config::load(project).monitor().enabled;
    Some(if batons_on {
        Check::fail(
            format!("a second context monitor is wired: GSD's gsd-context-monitor.js in {places}"),
            "baton keeps it quiet (the agent gets one warning, baton's), but both run on every tool call; \
             keep one: remove the gsd-context-monitor.js entries from those hooks (GSD's installer adds them \
             again when it updates, so run `baton doctor` after updating GSD), or keep GSD's by setting \
             \"monitor\": {\"enabled\": false} in baton's config",
        )
    } else {
        Check::pass(format!(
            "one context monitor: GSD's gsd-context-monitor.js ({places}); baton's is switched off in its config"
        ))
    })
}
