//! The handoff bridge (`baton bridge`): after an agent finishes, read the files it wrote or
//! changed, extract the concrete names with real parsers, and hand them to the next agent.
//! Parsers live only here: nothing on the statusline or monitor path uses this module; the
//! SubagentStop and SubagentStart hooks call it through [`deliver`].

pub mod code_model;
pub mod deliver;
pub mod domain;
pub mod extract;
pub mod facts;
pub mod handoff;
pub mod input;
pub mod merge;
pub mod parallel;
pub mod read;
pub mod render;
pub mod rules;
pub mod safe;
pub mod schema;
pub mod source;
pub mod sql;
pub mod ticket;

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use crate::config::Config;
use crate::error::Result;
use crate::planning::Project;
use extract::{Settings, Source};
use handoff::Handoff;
use input::{Input, Request};
use read::ReadStats;
use ticket::Ticket;

/// The kind of run ([`rules::compile_ahead`]) on an agent's changes (a run, `--since`), as
/// against files given (`--files`).
pub const CHANGES: &str = "changes";

/// Builds the handoff for `request` in `project` (files resolved, read, extracted, merged),
/// with how long each step took.
pub fn run(project: &Project, request: &Request, ticket: Option<Ticket>) -> Result<(Handoff, Vec<(String, Duration)>)> {
    let started = Instant::now();
    // What the last run of its kind here wanted compiles while git lists the files.
    let kind = if request.files.is_empty() { CHANGES } else { "files" };
    rules::compile_ahead(&project.root, kind);
    let input = input::resolve(project, request)?;
    let resolved = (format!("resolve {} files", input.paths.len()), started.elapsed());
    let (handoff, mut timings) = build_timed(&input, ticket, &settings(project));
    timings.insert(0, resolved);
    Ok((handoff, timings))
}

/// The floor of a run's time (`baton bridge --parse-floor`): the files resolved and read as
/// [`run`] reads them, then only tree-sitter's bare parse of the code files with a signal.
pub fn parse_floor(project: &Project, request: &Request) -> Result<extract::code::floor::Floor> {
    let input = input::resolve(project, request)?;
    let (files, _) = read::read_all(&input.top, &input.paths, read::MAX_FILE_BYTES, ReadStats::default());
    let sources: Vec<Source<'_>> = files.iter().map(read::ReadFile::source).collect();
    Ok(extract::code::floor::measure(
        &sources,
        &settings(project).design_system,
    ))
}

/// The extractors' settings from baton's config (user file, then the project's).
pub fn settings(project: &Project) -> Settings {
    settings_of(&Config::load(Some(&project.root)))
}

/// The extractors' settings from `config`, baton's config already read for the project.
pub fn settings_of(config: &Config) -> Settings {
    Settings {
        finding_prefixes: config.finding_prefixes(),
        design_system: config.design_system(),
    }
}

/// Reads the input's files, runs every extractor, and writes the handoff; with how long each
/// step took (`baton bridge --timings`).
pub fn build_timed(input: &Input, ticket: Option<Ticket>, settings: &Settings) -> (Handoff, Vec<(String, Duration)>) {
    let mut timings = Vec::new();
    let started = Instant::now();
    let (files, stats) = read::read_all(&input.top, &input.paths, read::MAX_FILE_BYTES, input.skipped.clone());
    timings.push((format!("read {} files", files.len()), started.elapsed()));
    let sources: Vec<Source<'_>> = files.iter().map(read::ReadFile::source).collect();
    let (mut parts, took) = extract::all_timed(&sources, settings);
    timings.extend(took.into_iter().map(|(name, took)| (format!("extract {name}"), took)));
    parts.push(extract::findings::in_commits(&input.commits, settings));
    let started = Instant::now();
    let facts = merge::merge(parts);
    timings.push(("merge".into(), started.elapsed()));
    let started = Instant::now();
    let read: BTreeSet<&str> = files.iter().map(|f| f.path.as_str()).collect();
    let mut handoff = Handoff {
        agent: input.agent.clone(),
        artifacts: handoff::artifacts(&input.paths, &read, &facts, &input.top),
        domain: domain::of(&input.agent, &facts).map(str::to_owned),
        ticket,
        run_id: input.run.as_ref().map(|r| r.id.clone()),
        files: stats,
        created_at: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
        structured: facts,
        ..Handoff::default()
    };
    (handoff.summary, handoff.context_for_next) = render::texts(&handoff, input.message.as_deref());
    timings.push(("render".into(), started.elapsed()));
    (handoff, timings)
}
