//! `baton report`: the session report with real token and cost figures.

use std::path::PathBuf;
use std::time::Duration;

use super::session_args::SessionArgs;
use super::values;
use crate::accounting::transcripts::SessionChoice;
use crate::error::{Context, Result};
use crate::hook::payload::HookPayload;
use crate::report::{self, ReportOptions};

/// How long `--hook` waits for the payload (Claude Code leaves stdin open).
const HOOK_STDIN_WAIT: Duration = Duration::from_secs(2);

/// `baton report`.
#[derive(clap::Args)]
#[command(
    about = "Write the session report: work done, blockers, real tokens and cost per model",
    before_help = "\
baton report: the session report, with real token and cost figures

Writes .planning/reports/SESSION_REPORT.md (YYYYMMDD-session-report.md when that exists;
nothing is overwritten): session overview (duration, milestone, phase), commits since the
session started, plans executed and phases progressed, outcomes, blockers and decisions
(STATE.md, HANDOFF.json), resource use and next steps. Works without .planning/ too: then
the report goes to .baton/reports/ (no .planning/ is created).

Resource use comes from the session's transcript and its subagents' transcripts: input,
output, cache writes (5m and 1h) and cache reads per model, each API response counted once
(streamed lines share message.id + requestId), priced per model. Models without a price
are listed as unpriced, never counted as free.

The session: the newest transcript of the project (found from any subdirectory) under
$CLAUDE_CONFIG_DIR/projects or ~/.claude/projects, unless given. Without a transcript the
report still covers the work and says why resource use is unavailable.",
    after_help = "\
Examples:
  baton report
  baton report --since 3h --json | jq .resources.total
  baton report --session 4106d464-75bb-44ee-b810-e0e678a180ac --out /tmp/report.md"
)]
pub struct Args {
    #[command(flatten)]
    session: SessionArgs,
    /// Read a hook payload on stdin (session_id, transcript_path, cwd);
    /// for hooks: exits 0 with nothing on stdout or stderr whatever happens
    #[arg(long, verbatim_doc_comment)]
    hook: bool,
    /// Count only from WHEN: 2026-11-30, 2026-11-30T14:00:00Z, 90m, 3h, 2days
    #[arg(long, value_name = "WHEN", value_parser = values::text(), allow_hyphen_values = true)]
    since: Option<String>,
    /// JSON prices (USD per million tokens) over the built-in table:
    /// {"claude-sonnet-4-5": {"input": 3, "output": 15, "cache_write_5m": 3.75,
    ///  "cache_write_1h": 6, "cache_read": 0.3, "long_context": {"input": 6, "output": 22.5}}}
    /// (cache rates default to 1.25x, 2x and 0.1x input). The same map may sit
    /// under "prices" in ~/.config/baton/config.json or .baton/config.json.
    #[arg(long, value_name = "FILE", value_parser = values::file(), allow_hyphen_values = true, verbatim_doc_comment)]
    prices: Option<PathBuf>,
    /// Write the report to FILE
    #[arg(long, value_name = "FILE", value_parser = values::file(), allow_hyphen_values = true)]
    out: Option<PathBuf>,
    /// Print the report as JSON instead of writing it
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<()> {
    let cwd = crate::error::current_dir()?;
    let mut opts = ReportOptions::new(cwd);
    opts.session = args.session.choice();
    opts.prices_file = args.prices;
    opts.out = args.out;
    let (as_json, from_hook, since) = (args.json, args.hook, args.since);
    if let Some(since) = since {
        opts.since_ms = Some(crate::clock::parse_since(&since, chrono::Utc::now())?);
    }
    if from_hook {
        // Hooks never fail visibly: problems go to $BATON_LOG.
        if let Err(e) = hook_payload(&mut opts).and_then(|()| report::write_report(&opts)) {
            crate::log::note(&format!("report --hook: {e}"));
        }
        return Ok(());
    }
    if as_json {
        let report = report::build_report(&opts)?;
        let text = serde_json::to_string_pretty(&report).context("cannot encode the report")?;
        return super::print(&format!("{text}\n"));
    }
    let path = report::write_report(&opts)?;
    super::print(&format!("{}\n", path.display()))
}

/// Takes the session and the directory from a hook payload on stdin.
fn hook_payload(opts: &mut ReportOptions) -> Result<()> {
    let bytes = crate::hook::stdin::read_payload(HOOK_STDIN_WAIT).context("no hook payload on stdin")?;
    let payload: HookPayload = serde_json::from_slice(&bytes).context("unreadable hook payload")?;
    opts.cwd = crate::hook::working_dir(payload.cwd.as_deref());
    opts.session = match (payload.transcript_path, payload.session_id) {
        (Some(path), _) if std::path::Path::new(&path).is_file() => SessionChoice::Transcript(path.into()),
        (_, Some(id)) => SessionChoice::Id(id),
        _ => SessionChoice::Newest,
    };
    Ok(())
}
