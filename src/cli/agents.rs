//! `baton agents`: the ledger of subagent runs, the spot-check, plan waves, context payloads.

use std::collections::BTreeSet;

use serde_json::json;

use super::json_flag::Json;
use crate::agents::ledger::{self, Run, Status};
use crate::agents::verification::{Verdict, Verification};
use crate::agents::verify;
use crate::agents::{payload, plans, waves};
use crate::error::{Error, Result};
use crate::install::wired;
use crate::planning::Project;
use crate::planning::phases::{self, PhaseDir};
use crate::planning::state::PlanningState;
use crate::words::count;

/// `baton agents`: an action, `list` when none is named.
#[derive(clap::Args)]
#[command(
    about = "Subagent runs (ledger, spot-check), plan waves and context payloads for orchestrators",
    before_help = "baton agents: bookkeeping for an orchestrator that spawns subagents",
    after_help = "\
  list     the runs recorded by the SubagentStart/SubagentStop hooks (.baton/agents/):
           id, type, status, start, duration, files changed, spot-check (`baton agents`
           alone, or with --json, is `baton agents list`)
  verify   checks what run ID (an id, a unique prefix, or `last`) said in its final
           message against the repository: files it created or changed exist and changed
           during the run, removed ones are gone, commits it names exist, plans it says it
           completed have a SUMMARY. Exit 1 when a claim does not hold.
  waves    groups the plans of PHASE (default: STATE.md's current phase, else every phase)
           into waves from their PLAN.md frontmatter (wave, depends_on, files_modified) and
           reports plans of one wave touching the same file, dependencies inside a wave or
           on a later one, cycles and unknown plans. Exit 1 when there is a problem.
  payload  the files an agent executing PLAN (03-02, or a PLAN.md path) must read, with
           sizes, ready to paste into its prompt. Exit 1 when a plan it depends on has no
           SUMMARY yet (the payload is still printed).

Hook wiring: `baton install` wires SubagentStart, SubagentStop and PostToolUse to `baton
hook` (`baton --help` shows the entries). SubagentStart/SubagentStop fill the ledger; a failed
spot-check is put to the subagent once (Claude Code hands SubagentStop context to the
subagent, which may fix its work or its report), and PostToolUse of the Agent tool tells the
orchestrator when the run it gets back is still flagged. PostToolUse inside a subagent
records the files its own Write/Edit/MultiEdit/NotebookEdit calls wrote, so runs going on at
the same time in one work tree cannot confirm each other's files.

Examples:
  baton agents waves 3
  baton agents payload 03-02
  baton agents verify last",
    args_conflicts_with_subcommands = true,
    subcommand_value_name = "ACTION",
    subcommand_help_heading = "Actions",
    disable_help_subcommand = true
)]
pub struct Args {
    #[command(subcommand)]
    action: Option<Action>,
    // `baton agents --json` is `baton agents list --json`.
    #[command(flatten)]
    list: Json,
}

/// The actions of `baton agents`.
#[derive(clap::Subcommand)]
enum Action {
    /// List the subagent runs the hooks recorded (the default action)
    List(Json),
    /// Check a run's final message against the repository
    Verify {
        /// A run id, a unique prefix of one, or `last`; `baton agents list` shows them
        #[arg(value_name = "ID", value_parser = super::values::text())]
        id: String,
        #[command(flatten)]
        out: Json,
    },
    /// Group a phase's plans into waves and report what makes them unsafe
    Waves {
        /// The phase (default: STATE.md's current phase, else every phase)
        #[arg(value_name = "PHASE", value_parser = super::values::text())]
        phase: Option<String>,
        #[command(flatten)]
        out: Json,
    },
    /// Print the files an agent executing a plan must read
    Payload {
        /// A plan id such as 03-02, or a PLAN.md path
        #[arg(value_name = "PLAN", value_parser = super::values::text())]
        plan: String,
        #[command(flatten)]
        out: Json,
    },
}

pub fn run(args: Args) -> Result<()> {
    let project = crate::planning::Project::current()?;
    match args.action {
        None => list(&project, args.list.json),
        Some(Action::List(out)) => list(&project, out.json),
        Some(Action::Verify { id, out }) => verify_run(&project, &id, out.json),
        Some(Action::Waves { phase, out }) => waves_of(&project, phase.as_deref(), out.json),
        Some(Action::Payload { plan, out }) => payload_of(&project, &plan, out.json),
    }
}

fn list(project: &Project, json: bool) -> Result<()> {
    let (runs, broken) = ledger::list(project);
    if json {
        let broken: Vec<String> = broken.iter().map(ToString::to_string).collect();
        let out = json!({"runs": runs, "unreadable": broken});
        return super::print(&format!("{out:#}\n"));
    }
    let mut text = String::new();
    if runs.is_empty() {
        text.push_str(&format!(
            "No subagent runs recorded in {}: {}.\n",
            ledger::dir(project).display(),
            empty_ledger_hint(project)
        ));
    } else {
        let rows: Vec<[String; 7]> = runs.iter().map(row).collect();
        let header = ["id", "type", "status", "started", "took", "files", "check"].map(String::from);
        let mut widths = [0usize; 7];
        for r in std::iter::once(&header).chain(&rows) {
            for (w, cell) in widths.iter_mut().zip(r) {
                *w = (*w).max(cell.chars().count());
            }
        }
        for r in std::iter::once(&header).chain(&rows) {
            let cells: Vec<String> = r.iter().zip(widths).map(|(c, w)| format!("{c:<w$}")).collect();
            text.push_str(cells.join("  ").trim_end());
            text.push('\n');
        }
    }
    for e in &broken {
        text.push_str(&format!("unreadable: {e}\n"));
    }
    super::print(&text)
}

fn row(run: &Run) -> [String; 7] {
    let status = match run.status {
        Status::Running => "running",
        Status::Finished => "finished",
    };
    let started = run
        .started_at
        .as_deref()
        .map_or("-".to_owned(), |t| t.replace('T', " ").chars().take(19).collect());
    let took = run
        .duration_ms()
        .map_or("-".to_owned(), |ms| format!("{:.1}s", ms as f64 / 1000.0));
    let files = run
        .files_changed
        .as_ref()
        .map_or("-".to_owned(), |f| f.len().to_string());
    let check = match &run.verification {
        None => "-".to_owned(),
        Some(v) if v.flagged => format!("FLAGGED ({})", v.problems().count()),
        Some(v) if v.checks.is_empty() => "nothing to check".to_owned(),
        Some(_) => "ok".to_owned(),
    };
    [
        run.id.clone(),
        run.agent_type.clone().unwrap_or_else(|| "-".into()),
        status.to_owned(),
        started,
        took,
        files,
        check,
    ]
}

/// Why the ledger may be empty, from the settings as they are: hooks not wired yet (run
/// install), or wired and no subagent has run since.
fn empty_ledger_hint(project: &Project) -> String {
    let files = wired::wiring_of(&["SubagentStart", "SubagentStop"], Some(&project.root));
    if files.is_empty() {
        return "baton's SubagentStart and SubagentStop hooks are not wired; run `baton install` (then restart \
                Claude Code) and the runs of the next subagents are recorded"
            .to_owned();
    }
    let files: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
    format!(
        "the SubagentStart and SubagentStop hooks are wired ({}), so runs are recorded from the next subagent \
         Claude Code starts in this project (a session started before the wiring needs a restart)",
        files.join(", ")
    )
}

fn verify_run(project: &Project, id: &str, json: bool) -> Result<()> {
    let run = match ledger::find(project, id) {
        Err(e @ Error::Failed(_)) if ledger::list(project).0.is_empty() => {
            return Err(e.advised(format!(": {}", empty_ledger_hint(project))));
        }
        found => found?,
    };
    if run.status == Status::Running {
        return Err(Error::Failed(format!(
            "run {} is still running (no SubagentStop recorded yet); verify it once it has finished",
            run.id
        )));
    }
    let verification = verify::verify(project, &run);
    let run = ledger::update(project, &run.id, |r| r.verification = Some(verification.clone()))?;
    if json {
        let out = json!({"id": run.id, "type": run.agent_type, "verification": verification});
        super::print(&format!("{out:#}\n"))?;
    } else {
        super::print(&describe(&run, &verification))?;
    }
    if verification.flagged {
        let n = verification.problems().count();
        return Err(Error::Failed(format!(
            "run {} is flagged: {n} claim{} of its final message do{} not hold",
            run.id,
            if n == 1 { "" } else { "s" },
            if n == 1 { "es" } else { "" }
        )));
    }
    Ok(())
}

fn describe(run: &Run, v: &Verification) -> String {
    let mut text = format!(
        "Run {} ({}), finished {}\n",
        run.id,
        run.agent_type.as_deref().unwrap_or("unknown type"),
        run.ended_at.as_deref().unwrap_or("at an unknown time")
    );
    let message = run.last_message.as_deref().unwrap_or("").trim();
    let first: String = message.lines().next().unwrap_or("").chars().take(160).collect();
    if message.is_empty() {
        text.push_str("No final message was recorded.\n");
    } else {
        text.push_str(&format!(
            "Message: {first}{}\n",
            if first.len() < message.len() { " …" } else { "" }
        ));
    }
    if !v.reports_success {
        text.push_str("The message reports a failure.\n");
    }
    for check in &v.checks {
        let mark = match check.verdict {
            Verdict::Confirmed => "ok ",
            Verdict::Refuted => "NO ",
            Verdict::Unchecked => "?  ",
        };
        let kind = serde_json::to_value(check.kind).ok();
        let kind = kind.as_ref().and_then(|k| k.as_str()).unwrap_or("");
        text.push_str(&format!("  {mark} {kind} {}: {}\n", check.claim, check.detail));
    }
    let refuted = v.problems().count();
    text.push_str(&match (v.checks.len(), refuted) {
        (0, _) => "Nothing to check: the message names no files, commits or completed plans.\n".to_owned(),
        (n, 0) => format!(
            "OK: {n} claim{} checked, none refuted.\n",
            if n == 1 { "" } else { "s" }
        ),
        (_, r) => format!("FLAGGED: {r} claim{} refuted.\n", if r == 1 { "" } else { "s" }),
    });
    text
}

fn waves_of(project: &Project, wanted: Option<&str>, json: bool) -> Result<()> {
    let all = phases::scan(project)?;
    let chosen: Vec<PhaseDir> = match wanted {
        Some(phase) => vec![plans::find_phase(project, phase)?],
        None => {
            let current = PlanningState::read(project).and_then(|s| s.phase);
            match current.and_then(|p| plans::find_phase(project, &p).ok()) {
                Some(dir) if !dir.plans.is_empty() => vec![dir],
                _ => all.iter().filter(|d| !d.plans.is_empty()).cloned().collect(),
            }
        }
    };
    if chosen.is_empty() {
        return Err(Error::Failed(format!(
            "no plans under {}: waves are computed from *-PLAN.md files",
            project.live_dir().join("phases").display()
        )));
    }
    let mut reports = Vec::new();
    let mut text = String::new();
    let mut problem_count = 0;
    for dir in &chosen {
        let phase_plans = plans::read_phase(dir);
        let elsewhere: BTreeSet<plans::PlanKey> = all
            .iter()
            .filter(|d| d.number != dir.number)
            .flat_map(|d| d.plans.iter().filter_map(|id| plans::PlanKey::parse(id, None)))
            .collect();
        let schedule = waves::schedule(&phase_plans, &elsewhere);
        problem_count += schedule.problems.len();
        text.push_str(&format!(
            "Phase {} ({}): {} in {}\n",
            dir.number,
            dir.slug,
            count(phase_plans.len(), "plan", "plans"),
            count(schedule.waves.len(), "wave", "waves")
        ));
        for wave in &schedule.waves {
            text.push_str(&format!("  wave {}: {}\n", wave.wave, wave.plans.join(", ")));
        }
        if !schedule.problems.is_empty() {
            text.push_str("  Problems:\n");
            for problem in &schedule.problems {
                text.push_str(&format!("  - {}\n", problem.describe()));
            }
        }
        reports.push(json!({
            "phase": dir.number,
            "dir": crate::platform::path::below(&dir.path, &project.root),
            "waves": schedule.waves,
            "problems": schedule.problems,
        }));
    }
    if json {
        super::print(&format!("{:#}\n", json!({"phases": reports})))?;
    } else {
        super::print(&text)?;
    }
    if problem_count > 0 {
        return Err(Error::Failed(format!(
            "{problem_count} problem{} make{} these waves unsafe to run in parallel; fix the plans' \
             frontmatter (wave, depends_on, files_modified)",
            if problem_count == 1 { "" } else { "s" },
            if problem_count == 1 { "s" } else { "" }
        )));
    }
    Ok(())
}

fn payload_of(project: &Project, plan: &str, json: bool) -> Result<()> {
    let payload = payload::build(project, plan)?;
    if json {
        super::print(&format!("{:#}\n", serde_json::to_value(&payload).unwrap_or_default()))?;
    } else {
        super::print(&payload::render(&payload))?;
    }
    if !payload.waiting_on.is_empty() {
        return Err(Error::Failed(format!(
            "plan {} depends on {}, which {} no SUMMARY yet: run {} first",
            payload.plan,
            payload.waiting_on.join(", "),
            if payload.waiting_on.len() == 1 { "has" } else { "have" },
            if payload.waiting_on.len() == 1 { "it" } else { "them" }
        )));
    }
    Ok(())
}
