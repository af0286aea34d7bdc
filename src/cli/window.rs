//! `baton window`: what fills the context, request by request.

use std::io::IsTerminal;
use std::path::PathBuf;

use serde::Serialize;

use super::session_args::SessionArgs;
use super::values;
use crate::accounting::transcripts;
use crate::config::Config;
use crate::context::fills::{self, Compaction, Live, Request, chart};
use crate::error::{Context, Result};

/// Largest items listed unless `--top` says otherwise.
const DEFAULT_TOP: usize = 10;
/// Terminal width when `COLUMNS` does not say.
const DEFAULT_WIDTH: usize = 100;
/// The widest chart drawn, whatever `COLUMNS` says (a huge value would build lines of
/// gigabytes).
const MAX_WIDTH: usize = 1000;

/// `baton window`.
#[derive(clap::Args)]
#[command(
    about = "Show what fills the context: each request's growth by file, command and result",
    before_help = "\
baton window: what fills the context, request by request

For each request of the session's main conversation: its context size, exactly as the
transcript's usage gives it (input + cache writes + cache reads, each response counted
once), how much it grew since the request before, and what entered in between: tool
results by tool and target (Read src/app.ts, Bash npm test, Grep \"TODO\" src/, an Agent's
result by subagent type, MCP tools by server and tool), the user's prompts, attachments
and reminders (hook context, file-change notices), and the assistant's own output and
thinking. When several items share a request, its growth is split over them by their size
in bytes and they are marked estimated; the items of a request add up to its growth.
A compaction resets the live context: its summary is one item, what came before is gone.

Then the largest items in the live context (since the last compaction) and the totals by
kind. The first request's size is the baseline (system prompt, tools, memory files).

The session: the newest transcript of the working directory's project, unless given. A
subagent's id (agent-<id> or <id>) shows that subagent's own conversation.",
    after_help = "\
The chart is as wide as COLUMNS (100 when unset); NO_COLOR turns colours off.

Examples:
  baton window
  baton window --top 3
  baton window --json | jq '.live.items[:3]'
  baton window --svg context.svg"
)]
pub struct Args {
    #[command(flatten)]
    session: SessionArgs,
    /// Largest items listed
    #[arg(long, value_name = "N", value_parser = values::count(), allow_hyphen_values = true, default_value_t = DEFAULT_TOP)]
    top: usize,
    /// Also write the chart as a standalone SVG to FILE
    #[arg(long, value_name = "FILE", value_parser = values::file(), allow_hyphen_values = true)]
    svg: Option<PathBuf>,
    /// Print JSON: {session, model, window, usable, requests: [{n, at,
    /// context_tokens, delta, items: [{kind, tool, target, tokens,
    /// estimated}]}], compactions, live: {tokens, baseline, items,
    /// by_kind}, unreadable_lines}
    #[arg(long, verbatim_doc_comment)]
    json: bool,
}

/// The JSON answer.
#[derive(Serialize)]
struct Answer<'a> {
    session: &'a str,
    model: Option<&'a str>,
    window: u64,
    /// Tokens at which Claude Code compacts.
    usable: u64,
    requests: &'a [Request],
    compactions: &'a [Compaction],
    live: &'a Live,
    /// Lines that were not JSON (cut short, damaged), left out.
    unreadable_lines: u64,
}

pub fn run(args: Args) -> Result<()> {
    let cwd = crate::error::current_dir()?;
    let choice = args.session.choice();
    let (top, as_json, svg) = (args.top, args.json, args.svg);
    let files = transcripts::locate(&choice, &cwd)?;
    let timeline = fills::read(&files.main).context(format!("cannot read the transcript {}", files.main.display()))?;
    let config = Config::load(crate::planning::Project::find(&cwd).as_ref().map(|p| p.root.as_path()));
    let (window, usable) = timeline.window(None, &config);
    if let Some(path) = svg {
        let drawn =
            fills::svg::render(&files.session_id, &timeline, window, usable, top).context("cannot draw the chart")?;
        crate::fsx::write_atomic(&path, drawn.as_bytes(), 0o644, crate::fsx::Durability::Durable)
            .context(format!("cannot write {}", path.display()))?;
    }
    if as_json {
        let answer = Answer {
            session: &files.session_id,
            model: timeline.model.as_deref(),
            window,
            usable,
            requests: &timeline.requests,
            compactions: &timeline.compactions,
            live: &timeline.live,
            unreadable_lines: timeline.unreadable_lines,
        };
        let text = serde_json::to_string_pretty(&answer).context("cannot encode the answer")?;
        return super::print(&format!("{text}\n"));
    }
    let style = chart::Style {
        width: std::env::var("COLUMNS")
            .ok()
            .and_then(|c| c.trim().parse().ok())
            .filter(|c| *c > 0)
            .map_or(DEFAULT_WIDTH, |c: usize| c.min(MAX_WIDTH)),
        color: std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
        top,
    };
    super::print(&chart::render(&files.session_id, &timeline, window, usable, &style))
}
