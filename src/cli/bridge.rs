//! `baton bridge`: the handoff of a finished agent — what it built, named concretely, for
//! the next agent.

use crate::bridge::handoff::Handoff;
use crate::bridge::input::Request;
use crate::bridge::{deliver, ticket};
use crate::error::{Context, Error, Result};
use crate::planning::Project;

/// `baton bridge`.
#[derive(clap::Args)]
#[command(
    about = "What a finished agent built (tables, endpoints, pipelines…), for the next agent",
    before_help = "\
baton bridge: tell the next agent exactly what the last one built

Reads the files an agent wrote or changed and extracts the concrete names with parsers (no
model is called): a summary, the artifacts (each file and the names it holds), and
contextForNext, the text the next agent is given. Nothing extractable: the summary is
\"(unstructured) \" and the agent's final message.",
    after_help = "\
What is read, by domain (.gitignore respected; binary, non-UTF-8, files over 4 MiB and
symlinks are skipped and counted):
  db        SQL DDL in PostgreSQL, MySQL and SQLite (tables, columns and types, primary and
            foreign keys, indexes, enums; a statement no dialect reads is listed, the rest
            still count), Prisma schemas, migration files
  devops    GitHub Actions, GitLab CI and Azure Pipelines (name, jobs, env), Dockerfile
            stages, pushed images, .env files (names only, never values)
  security  CVE-, GHSA- and your own ids in comments and in the run's commit messages;
            set your prefixes in baton's config: {\"bridge\": {\"finding_prefixes\": [\"SEC\"]}}

A handoff built from a run's files is stored with the run (.baton/agents/<id>.json). The
SubagentStop hook does this by itself; SubagentStart then gives the next subagent of the
session the contextForNext of the ones that finished before it.

Examples:
  baton bridge                                   # the last subagent run
  baton bridge --agent db-coding-agent --ticket docs/stories/1.3.story.md
  baton bridge --files db/migrations prisma/schema.prisma --json
  baton bridge --since main --agent backend-agent --ticket \"PAY-7 Refunds API\""
)]
pub struct Args {
    /// a recorded run (an id, a unique prefix of 6+ characters, or `last`),
    /// or an agent name such as db-coding-agent (its newest run, unless
    /// files are given); the name also sets the domain. Default: the last run.
    #[arg(long, value_name = "NAME|RUN", allow_hyphen_values = true, verbatim_doc_comment)]
    agent: Option<String>,
    /// these files; a directory stands for its files git does not ignore
    #[arg(long, value_name = "P", num_args = 1.., conflicts_with = "since")]
    files: Vec<String>,
    /// the files changed since commit REV (committed, staged, unstaged, new)
    #[arg(long, value_name = "REV", allow_hyphen_values = true)]
    since: Option<String>,
    /// the ticket worked on: a story or issue file (frontmatter id/title or
    /// its first heading), or its text such as "PROJ-42 Add invoices"
    #[arg(long, value_name = "FILE|TEXT", allow_hyphen_values = true, verbatim_doc_comment)]
    ticket: Option<String>,
    /// the agent's final message, when there is no run to take it from
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    message: Option<String>,
    /// {agent, summary, artifacts, contextForNext, structured, domain, …}
    #[arg(long)]
    json: bool,
    /// how long each step took, on stderr (the code parse line: the CPU
    /// time of the parses summed over threads, and how many code files had
    /// no signal and were not parsed)
    #[arg(long, verbatim_doc_comment)]
    timings: bool,
    /// only read the files and parse the code files that carry a signal
    /// (tree-sitter alone, on the same threads), and print how long the parse
    /// took: the floor bench/bridge.sh compares a whole run with
    #[arg(long, verbatim_doc_comment)]
    parse_floor: bool,
    /// Words out of place (files go after --files): refused with that hint.
    #[arg(hide = true)]
    stray: Vec<String>,
}

/// Artifacts listed in the text output (all of them are in `--json`).
const SHOWN_ARTIFACTS: usize = 40;

pub fn run(args: Args) -> Result<()> {
    if let Some(word) = args.stray.first() {
        return Err(Error::Usage(format!("unexpected '{word}'; files go after --files")));
    }
    let request = Request {
        cwd: crate::error::current_dir()?,
        agent: args.agent,
        files: args.files,
        since: args.since,
        message: args.message,
    };
    let (ticket_arg, json, timings, floor) = (args.ticket, args.json, args.timings, args.parse_floor);
    let project = Project::find(&request.cwd).unwrap_or(Project {
        root: request.cwd.clone(),
    });
    if floor {
        let floor = crate::bridge::parse_floor(&project, &request)?;
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        return super::print(&format!(
            "parse floor: {} of {} code files parsed on {threads} threads in {:.1} ms\n",
            floor.parsed,
            floor.code_files,
            floor.wall.as_secs_f64() * 1000.0
        ));
    }
    let ticket = ticket_arg.map(|t| ticket::read(&t, &request.cwd)).transpose()?;
    let from_run = request.files.is_empty() && request.since.is_none();
    let (handoff, took) = crate::bridge::run(&project, &request, ticket)?;
    if timings {
        let mut text = String::new();
        for (step, time) in &took {
            text.push_str(&format!("bridge: {step:<24} {:>9.1} ms\n", time.as_secs_f64() * 1000.0));
        }
        let _ = std::io::Write::write_all(&mut std::io::stderr(), text.as_bytes());
    }
    if let (true, Some(id)) = (from_run, handoff.run_id.as_deref()) {
        deliver::store(&project, id, handoff.clone());
    }
    if json {
        let text = serde_json::to_string_pretty(&handoff).context("cannot encode the handoff")?;
        return super::print(&format!("{text}\n"));
    }
    super::print(&describe(&handoff))
}

fn describe(handoff: &Handoff) -> String {
    let mut text = format!("{}\n", handoff.summary);
    if !handoff.artifacts.is_empty() {
        text.push_str("\nArtifacts:\n");
        let width = handoff
            .artifacts
            .iter()
            .take(SHOWN_ARTIFACTS)
            .map(|a| a.path.chars().count())
            .max()
            .unwrap_or(0);
        for a in handoff.artifacts.iter().take(SHOWN_ARTIFACTS) {
            let line = format!("  {:<width$}  {:<10} {}", a.path, a.kind, a.names.join(", "));
            text.push_str(line.trim_end());
            text.push('\n');
        }
        if handoff.artifacts.len() > SHOWN_ARTIFACTS {
            text.push_str(&format!(
                "  … {} more (--json lists them all)\n",
                handoff.artifacts.len() - SHOWN_ARTIFACTS
            ));
        }
    }
    text.push_str("\nContext for the next agent:\n");
    text.push_str(&handoff.context_for_next);
    text.push('\n');
    text
}
