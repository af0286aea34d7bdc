//! `baton bridge`: the handoff of a finished agent — what it built, named concretely, for
//! the next agent.

use super::Command;
use crate::bridge::handoff::Handoff;
use crate::bridge::input::Request;
use crate::bridge::{deliver, ticket};
use crate::error::{Context, Error, Result};
use crate::planning::Project;

pub const BRIDGE: Command = Command {
    name: "bridge",
    summary: "What a finished agent built (tables, endpoints, pipelines…), for the next agent",
    help: "\
baton bridge: tell the next agent exactly what the last one built

Usage: baton bridge [--agent NAME|RUN] [--files P… | --since REV] [--ticket FILE|TEXT]
                    [--message TEXT] [--json] [--timings] [--parse-floor]

Reads the files an agent wrote or changed and extracts the concrete names with parsers (no
model is called): a summary, the artifacts (each file and the names it holds), and
contextForNext, the text the next agent is given. Nothing extractable: the summary is
\"(unstructured) \" and the agent's final message.

  --agent NAME|RUN    a recorded run (an id, a unique prefix of 6+ characters, or `last`),
                      or an agent name such as db-coding-agent (its newest run, unless
                      files are given); the name also sets the domain. Default: the last run.
  --files P…          these files; a directory stands for its files git does not ignore
  --since REV         the files changed since commit REV (committed, staged, unstaged, new)
  --ticket FILE|TEXT  the ticket worked on: a story or issue file (frontmatter id/title or
                      its first heading), or its text such as \"PROJ-42 Add invoices\"
  --message TEXT      the agent's final message, when there is no run to take it from
  --json              {agent, summary, artifacts, contextForNext, structured, domain, …}
  --timings           how long each step took, on stderr (the code parse line: the CPU
                      time of the parses summed over threads, and how many code files had
                      no signal and were not parsed)
  --parse-floor       only read the files and parse the code files that carry a signal
                      (tree-sitter alone, on the same threads), and print how long the parse
                      took: the floor bench/bridge.sh compares a whole run with

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
  baton bridge --since main --agent backend-agent --ticket \"PAY-7 Refunds API\"
",
    run: Some(run),
};

/// Artifacts listed in the text output (all of them are in `--json`).
const SHOWN_ARTIFACTS: usize = 40;

fn run(parser: &mut lexopt::Parser) -> Result<()> {
    use lexopt::Arg::{Long, Value};
    let mut request = Request {
        cwd: crate::error::current_dir()?,
        ..Request::default()
    };
    let mut ticket_arg = None;
    let mut json = false;
    let mut timings = false;
    let mut floor = false;
    while let Some(arg) = parser.next()? {
        match arg {
            Long("agent") => request.agent = Some(string(parser.value()?)),
            Long("files") => request.files.extend(parser.values()?.map(string)),
            Long("since") => request.since = Some(string(parser.value()?)),
            Long("ticket") => ticket_arg = Some(string(parser.value()?)),
            Long("message") => request.message = Some(string(parser.value()?)),
            Long("json") => json = true,
            Long("timings") => timings = true,
            Long("parse-floor") => floor = true,
            Value(v) => {
                return Err(Error::Usage(format!(
                    "unexpected '{}'; files go after --files",
                    v.to_string_lossy()
                )));
            }
            other => return Err(other.unexpected().into()),
        }
    }
    if !request.files.is_empty() && request.since.is_some() {
        return Err(Error::Usage("give --files or --since, not both".into()));
    }
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

fn string(value: std::ffi::OsString) -> String {
    value.to_string_lossy().into_owned()
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
