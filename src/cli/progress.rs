//! `baton progress [--json]`: where the project stands and what comes next.

use serde_json::json;

use crate::error::Result;
use crate::planning::Project;
use crate::planning::snapshot::Snapshot;
use crate::words::of_total;

/// `baton progress`.
#[derive(clap::Args)]
#[command(
    about = "Where the project stands: position, last done, next command, completion, blockers",
    before_help = "\
baton progress: where the project stands and what comes next

Reads .planning/ (STATE.md, ROADMAP.md, phases/, config.json, HANDOFF.json) from the
project around the current directory and prints the current position (milestone, phase,
plan), what was last done, the next action as the command to run, completion (one
definition: a plan is done when its SUMMARY exists, a phase when its summaries cover its
plans or the roadmap checks it), open blockers and pending human actions.",
    after_help = "\
Examples:
  baton progress
  baton progress --json | jq .next_action.command"
)]
pub struct Args {
    /// Print the same as JSON
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<()> {
    let as_json = args.json;
    let project = Project::current_with_planning()?;
    let snapshot = Snapshot::load(&project)?;
    let handoff = crate::continuity::handoff::read(&project.root);
    let human_actions: Vec<String> = match &handoff {
        Ok(Some(h)) => h
            .human_actions_pending
            .iter()
            .filter_map(|a| a.action.clone())
            .collect(),
        _ => Vec::new(),
    };
    let mut blockers = snapshot.state.as_ref().map(|s| s.blockers.clone()).unwrap_or_default();
    if let Ok(Some(h)) = &handoff {
        for b in h.blockers.iter().filter_map(|b| b.description.clone()) {
            if !blockers.contains(&b) {
                blockers.push(b);
            }
        }
    }
    let position = snapshot.position();
    let mut next = snapshot.next_action();
    if matches!(handoff, Ok(Some(_))) {
        next = crate::planning::snapshot::NextAction {
            command: "baton resume".to_owned(),
            reason: format!("a paused handoff is waiting (after it: {})", next.command),
        };
    }
    let last_done = snapshot
        .state
        .as_ref()
        .and_then(|s| s.last_activity.clone().or_else(|| s.stopped_at.clone()));
    let milestone = snapshot.milestone_progress();
    if as_json {
        let value = json!({
            "project": project.root,
            "position": position,
            "last_done": last_done,
            "next_action": next,
            "progress": {
                "percent": snapshot.progress.percent,
                "completed_phases": snapshot.progress.completed_phases,
                "total_phases": snapshot.progress.total_phases,
                "completed_plans": snapshot.progress.completed_plans,
                "total_plans": snapshot.progress.total_plans,
            },
            "milestone_progress": milestone.as_ref().map(|m| json!({
                "percent": m.percent, "completed_phases": m.completed_phases, "total_phases": m.total_phases,
                "completed_plans": m.completed_plans, "total_plans": m.total_plans,
            })),
            "blockers": blockers,
            "human_actions_pending": human_actions,
            "handoff": match &handoff { Ok(Some(_)) => json!("present"), Ok(None) => json!(null), Err(e) => json!(format!("unreadable: {e}")) },
        });
        return super::print(&format!(
            "{}\n",
            serde_json::to_string_pretty(&value).unwrap_or_default()
        ));
    }
    let mut out = String::new();
    let p = &snapshot.progress;
    if let (Some(m), Some(name)) = (&milestone, &position.milestone) {
        let title = position
            .milestone_name
            .as_deref()
            .map(|n| format!("{name} {n}"))
            .unwrap_or_else(|| name.clone());
        out.push_str(&format!(
            "Milestone {title}: {}% ({}, {})\n",
            m.percent,
            of_total(m.completed_phases, m.total_phases, "phase", "phases"),
            of_total(m.completed_plans, m.total_plans, "plan", "plans")
        ));
    }
    out.push_str(&format!(
        "Overall: {}% ({}, {} done)\n",
        p.percent,
        of_total(p.completed_phases, p.total_phases, "phase", "phases"),
        of_total(p.completed_plans, p.total_plans, "plan", "plans")
    ));
    match (&position.phase, &position.phase_name) {
        (Some(n), name) => {
            let name = name.as_deref().map(|n| format!(" ({n})")).unwrap_or_default();
            let plan = position
                .plan
                .as_deref()
                .map(|id| {
                    format!(
                        ", plan {id} next ({} of {} done)",
                        position.plans_done, position.plans_total
                    )
                })
                .unwrap_or_default();
            let status = position
                .status
                .as_deref()
                .map(|s| format!("; status {s}"))
                .unwrap_or_default();
            out.push_str(&format!(
                "Position: phase {n} of {}{name}{plan}{status}\n",
                position.total_phases
            ));
        }
        (None, _) => out.push_str("Position: no current phase\n"),
    }
    if let Some(last) = &last_done {
        out.push_str(&format!("Last done: {last}\n"));
    }
    out.push_str(&format!("Next: {}  ({})\n", next.command, next.reason));
    if let Err(e) = &handoff {
        out.push_str(&format!("Warning: {e}\n"));
    }
    for (title, items) in [("Blockers", &blockers), ("Human actions pending", &human_actions)] {
        if !items.is_empty() {
            out.push_str(&format!("{title}:\n"));
            for item in items {
                out.push_str(&format!("  - {item}\n"));
            }
        }
    }
    super::print(&out)
}
