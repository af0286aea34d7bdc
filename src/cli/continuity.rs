//! `baton pause` and `baton resume`: save where the work stands, and restore it.

use std::io::Read;

use super::values;
use crate::continuity::pause::{self, PauseRequest};
use crate::continuity::resume;
use crate::error::{Context, Error, Result};
use crate::planning::Project;

/// `baton pause`. Every value may start with a dash: `--note --help` saves the note "--help".
#[derive(clap::Args)]
#[command(
    about = "Save where the work stands: .planning/HANDOFF.json, .continue-here.md, STATE.md",
    before_help = "\
baton pause: save where the work stands, for a later resume

Writes .planning/HANDOFF.json (GSD's schema: position, completed and remaining work, the
task in progress, blockers, human actions, decisions, uncommitted files from git, next
action, notes) and .continue-here.md in the current phase directory (or .planning/), and
records the pause in STATE.md's Session Continuity fields, changing nothing else there.
Nothing is overwritten: an existing handoff moves to .planning/handoffs/ (its blockers,
human actions and decisions carry over unless --json-in gives those lists), and so does a
.continue-here.md that baton did not write.

Words after the options are one note (what a slash command hands over). Options are
repeatable unless noted.",
    after_help = "\
Examples:
  baton pause --note \"routes done, tests next\" --blocker \"human_action: STRIPE_KEY missing\"
  echo '{\"next_action\": \"wire the webhook\"}' | baton pause --json-in"
)]
pub struct Pause {
    /// What the next session should know
    #[arg(long, value_name = "TEXT", value_parser = values::text(), allow_hyphen_values = true)]
    note: Vec<String>,
    /// The next action (once; default: computed from the plans)
    #[arg(long, value_name = "TEXT", value_parser = values::text(), allow_hyphen_values = true)]
    next: Option<String>,
    /// A blocker; prefix with human_action: or external: to set its type
    #[arg(long, value_name = "TEXT", value_parser = values::text(), allow_hyphen_values = true)]
    blocker: Vec<String>,
    /// Something a person must do before work can go on
    #[arg(long, value_name = "TEXT", value_parser = values::text(), allow_hyphen_values = true)]
    human_action: Vec<String>,
    /// A decision taken in this session
    #[arg(long, value_name = "TEXT", value_parser = values::text(), allow_hyphen_values = true)]
    decision: Vec<String>,
    /// Read a whole or partial handoff (GSD's schema) on stdin; its fields win
    #[arg(long)]
    json_in: bool,
    /// Also write the session report (see `baton report --help`)
    #[arg(long)]
    report: bool,
    /// Print what was written as JSON
    #[arg(long)]
    json: bool,
    /// A note in words (`/pause-work fixing the tests`)
    #[arg(value_name = "WORDS", value_parser = values::text())]
    words: Vec<String>,
}

/// `baton resume`.
#[derive(clap::Args)]
#[command(
    about = "Restore the position after /clear or in a new session; blockers first",
    before_help = "\
baton resume: restore where the work stood

Reads .planning/HANDOFF.json first, the state files when there is none or it is
unreadable (and says which, and why), and prints a brief: blockers and human actions
first, then the position, the task in progress and the next action. It compares the
handoff's uncommitted files with git status and reports differences. After a successful
resume the handoff and .continue-here.md move to .planning/handoffs/ (never deleted), and
STATE.md's paused_at is cleared and its Resume file set to None.",
    after_help = "\
Examples:
  baton resume
  baton resume --json --keep"
)]
pub struct Resume {
    /// Print the brief as JSON
    #[arg(long)]
    json: bool,
    /// Leave the handoff in place (just look)
    #[arg(long)]
    keep: bool,
}

pub fn run_pause(args: Pause) -> Result<()> {
    let mut request = PauseRequest {
        trigger: "manual".to_owned(),
        notes: args.note,
        next: args.next,
        blockers: args.blocker,
        human_actions: args.human_action,
        decisions: args.decision,
        ..PauseRequest::default()
    };
    let (as_json, json_in, report, words) = (args.json, args.json_in, args.report, args.words);
    if !words.is_empty() {
        // `/pause-work fixing the tests` arrives as separate words: one note.
        request.notes.push(words.join(" "));
    }
    if json_in {
        let mut text = String::new();
        std::io::stdin()
            .take(8 * 1024 * 1024)
            .read_to_string(&mut text)
            .context("--json-in: cannot read stdin")?;
        let value = serde_json::from_str(&text).map_err(|e| {
            Error::because("--json-in: stdin is not JSON", e).advised("; pipe a handoff object in GSD's schema")
        })?;
        request.structured = Some(value);
    }
    let project = Project::current_or_here()?;
    let outcome = pause::pause(&project, &request, chrono::Utc::now())?;
    let report = match report {
        false => None,
        true => Some(
            crate::report::write_report(&crate::report::ReportOptions::new(&project.root)).context(format!(
                "the handoff was saved ({}), but the session report was not",
                outcome.handoff.display()
            ))?,
        ),
    };
    if as_json {
        let value = serde_json::json!({
            "handoff": outcome.handoff, "continue_here": outcome.continue_here, "state": outcome.state, "record": outcome.record,
            "report": report, "archived": outcome.archived, "state_problem": outcome.state_problem,
        });
        return super::print(&format!(
            "{}\n",
            serde_json::to_string_pretty(&value).unwrap_or_default()
        ));
    }
    let rel = |p: &std::path::Path| crate::platform::path::below(p, &project.root);
    let place = match outcome.record.phase {
        Some(_) => format!(": {}", outcome.record.stopped_at()),
        None => format!(" in {}", project.root.display()),
    };
    let mut out = format!(
        "Paused{place}.\nWrote {} and {}",
        rel(&outcome.handoff),
        rel(&outcome.continue_here)
    );
    match &outcome.state {
        Some(state) => out.push_str(&format!("; noted the pause in {} (Session Continuity).\n", rel(state))),
        None => out.push_str(".\n"),
    }
    if let Some(problem) = &outcome.state_problem {
        out.push_str(&format!(
            "Warning: the handoff was saved, but STATE.md was not updated: {problem}\n"
        ));
    }
    if !outcome.archived.is_empty() {
        let names: Vec<String> = outcome.archived.iter().map(|p| rel(p)).collect();
        out.push_str(&format!("Archived what was there before: {}\n", names.join(", ")));
    }
    let r = &outcome.record;
    out.push_str(&format!(
        "Blockers: {}, human actions pending: {}, uncommitted files: {}.\n",
        r.blockers.len(),
        r.human_actions_pending.len(),
        r.uncommitted_files.len()
    ));
    if let Some(next) = &r.next_action {
        out.push_str(&format!("Next action: {next}\n"));
    }
    if let Some(path) = &report {
        out.push_str(&format!("Session report: {}\n", rel(path)));
    }
    out.push_str("Resume with `baton resume` (or /baton:resume-work) after /clear or in a new session.\n");
    super::print(&out)
}

pub fn run_resume(args: Resume) -> Result<()> {
    let (as_json, keep) = (args.json, args.keep);
    let project = Project::current_or_here()?;
    let Some(brief) = resume::brief(&project)? else {
        return Err(Error::Failed(format!(
            "nothing to resume: no .planning/HANDOFF.json and no .planning/STATE.md in {} or above.\n\
             Run `baton pause` at the end of a session to record where the work stands.",
            project.root.display()
        )));
    };
    let archived = if !keep {
        resume::archive(&project, brief.source == "handoff", chrono::Utc::now())?
    } else {
        Vec::new()
    };
    if as_json {
        let mut value = serde_json::to_value(&brief).unwrap_or_default();
        value["archived"] = serde_json::json!(archived);
        return super::print(&format!(
            "{}\n",
            serde_json::to_string_pretty(&value).unwrap_or_default()
        ));
    }
    let mut out = resume::render(&brief);
    if !archived.is_empty() {
        let names: Vec<String> = archived
            .iter()
            .map(|p| crate::platform::path::below(p, &project.root))
            .collect();
        out.push_str(&format!("Archived the handoff to {}.\n", names.join(", ")));
    }
    super::print(&out)
}
