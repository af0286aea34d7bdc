//! `baton pause` and `baton resume`: save where the work stands, and restore it.

use std::io::Read;

use super::{Command, text_value};
use crate::continuity::pause::{self, PauseRequest};
use crate::continuity::resume;
use crate::error::{Context, Error, Result};
use crate::planning::Project;

pub const PAUSE: Command = Command {
    name: "pause",
    summary: "Save where the work stands: .planning/HANDOFF.json, .continue-here.md, STATE.md",
    help: "\
baton pause: save where the work stands, for a later resume

Usage: baton pause [options]

Writes .planning/HANDOFF.json (GSD's schema: position, completed and remaining work, the
task in progress, blockers, human actions, decisions, uncommitted files from git, next
action, notes) and .continue-here.md in the current phase directory (or .planning/), and
records the pause in STATE.md's Session Continuity fields, changing nothing else there.
Nothing is overwritten: an existing handoff moves to .planning/handoffs/ (its blockers,
human actions and decisions carry over unless --json-in gives those lists), and so does a
.continue-here.md that baton did not write.

Options (repeatable unless noted):
  --note TEXT           What the next session should know
  --next TEXT           The next action (once; default: computed from the plans)
  --blocker TEXT        A blocker; prefix with human_action: or external: to set its type
  --human-action TEXT   Something a person must do before work can go on
  --decision TEXT       A decision taken in this session
  --json-in             Read a whole or partial handoff (GSD's schema) on stdin; its fields win
  --report              Also write the session report (see `baton report --help`)
  --json                Print what was written as JSON

Examples:
  baton pause --note \"routes done, tests next\" --blocker \"human_action: STRIPE_KEY missing\"
  echo '{\"next_action\": \"wire the webhook\"}' | baton pause --json-in
",
    run: Some(run_pause),
};

pub const RESUME: Command = Command {
    name: "resume",
    summary: "Restore the position after /clear or in a new session; blockers first",
    help: "\
baton resume: restore where the work stood

Usage: baton resume [--json] [--keep]

Reads .planning/HANDOFF.json first, the state files when there is none or it is
unreadable (and says which, and why), and prints a brief: blockers and human actions
first, then the position, the task in progress and the next action. It compares the
handoff's uncommitted files with git status and reports differences. After a successful
resume the handoff and .continue-here.md move to .planning/handoffs/ (never deleted), and
STATE.md's paused_at is cleared and its Resume file set to None.

Options:
  --json   Print the brief as JSON
  --keep   Leave the handoff in place (just look)

Examples:
  baton resume
  baton resume --json --keep
",
    run: Some(run_resume),
};

fn run_pause(parser: &mut lexopt::Parser) -> Result<()> {
    let mut request = PauseRequest {
        trigger: "manual".to_owned(),
        ..PauseRequest::default()
    };
    let mut as_json = false;
    let mut json_in = false;
    let mut report = false;
    let mut words: Vec<String> = Vec::new();
    while let Some(arg) = parser.next()? {
        match arg {
            lexopt::Arg::Long("note") => request.notes.push(text_value(parser, "--note")?),
            lexopt::Arg::Long("next") => request.next = Some(text_value(parser, "--next")?),
            lexopt::Arg::Long("blocker") => request.blockers.push(text_value(parser, "--blocker")?),
            lexopt::Arg::Long("human-action") => request.human_actions.push(text_value(parser, "--human-action")?),
            lexopt::Arg::Long("decision") => request.decisions.push(text_value(parser, "--decision")?),
            lexopt::Arg::Long("json-in") => json_in = true,
            lexopt::Arg::Long("report") => report = true,
            lexopt::Arg::Long("json") => as_json = true,
            // Slash commands hand over the user's words (split by `--args-stdin`): one note.
            lexopt::Arg::Value(word) => words.push(super::utf8(word, "the note")?),
            other => return Err(other.unexpected().into()),
        }
    }
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

fn run_resume(parser: &mut lexopt::Parser) -> Result<()> {
    let mut as_json = false;
    let mut keep = false;
    while let Some(arg) = parser.next()? {
        match arg {
            lexopt::Arg::Long("json") => as_json = true,
            lexopt::Arg::Long("keep") => keep = true,
            other => return Err(other.unexpected().into()),
        }
    }
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
