//! The session report: what a session did (commits, plans, phases), what stands in the way
//! (blockers, decisions), what it cost (tokens and USD from its transcripts, subagents
//! included) and what comes next. Written to `.planning/reports/SESSION_REPORT.md` (in a
//! project without `.planning/`, `.baton/reports/`), or `YYYYMMDD-session-report.md` when
//! that exists; `baton pause --report` calls [`write_report`].

pub mod markdown;
pub mod resources;
pub mod work;

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::accounting::pricing::PriceTable;
use crate::accounting::scan::UsageScan;
use crate::accounting::transcripts::{self, SessionChoice, SessionFiles};
use crate::clock::utc_rfc3339;
use crate::context::fills::{self, Item, Timeline};
use crate::error::{Context, Error, Result};
use crate::fsx::{self, Durability};
use crate::planning::Project;
use crate::planning::snapshot::Snapshot;
use resources::Resources;
use work::Work;

/// What to report on and where to put it.
#[derive(Debug, Clone)]
pub struct ReportOptions {
    /// Where the command runs; the project and its transcripts are found from here.
    pub cwd: PathBuf,
    pub session: SessionChoice,
    /// Count only what happened from this Unix-ms time on.
    pub since_ms: Option<i64>,
    /// A JSON price file applied over the table and the config's `"prices"`.
    pub prices_file: Option<PathBuf>,
    /// Write here instead of the project's reports folder ([`reports_dir`]).
    pub out: Option<PathBuf>,
}

impl ReportOptions {
    /// The newest session of the project around `cwd`, all of it, built-in and configured prices.
    pub fn new(cwd: impl Into<PathBuf>) -> Self {
        Self {
            cwd: cwd.into(),
            session: SessionChoice::Newest,
            since_ms: None,
            prices_file: None,
            out: None,
        }
    }
}

/// The whole report, as `--json` prints it.
#[derive(Debug, Clone, Serialize)]
pub struct SessionReport {
    /// `None` when no transcript was found (see `resources_unavailable`).
    pub session_id: Option<String>,
    pub transcript: Option<PathBuf>,
    pub project: PathBuf,
    pub generated_at: String,
    pub since: Option<String>,
    pub started_at: Option<String>,
    pub ended_at: Option<String>,
    pub duration_seconds: Option<i64>,
    pub work: Work,
    pub resources: Resources,
    /// Why resource use could not be counted (no transcript found); the work is still reported.
    pub resources_unavailable: Option<String>,
    /// What fills the context at the end of the main conversation (`None` without a transcript).
    pub context: Option<ContextFill>,
}

/// Largest items of the live context the report lists.
const MAX_CONTEXT_ITEMS: usize = 10;
/// The end of the main transcript read for what fills the context: a compaction segment's
/// worth of requests in any real session (the client's request records, most of a recent
/// transcript's bytes, are skipped unparsed), and a bounded cost on a multi-GB one.
const CONTEXT_TAIL_BYTES: u64 = 64 << 20;

/// What fills the context at the end of the session (`baton window`'s live context).
#[derive(Debug, Clone, Serialize)]
pub struct ContextFill {
    pub tokens: u64,
    pub baseline: u64,
    pub window: u64,
    /// Tokens at which Claude Code compacts.
    pub usable: u64,
    /// Compactions seen in what was read.
    pub compactions: usize,
    /// Whether the whole transcript was read; otherwise its last [`CONTEXT_TAIL_BYTES`], and
    /// items that entered before them are not listed.
    pub whole_transcript: bool,
    /// Since the last compaction, largest first.
    pub largest: Vec<Item>,
    /// Every request read, for the chart beside the Markdown.
    #[serde(skip)]
    pub timeline: Timeline,
}

impl ContextFill {
    fn of(timeline: Timeline, whole_transcript: bool, config: &crate::config::Config) -> Self {
        let (window, usable) = timeline.window(None, config);
        Self {
            tokens: timeline.live.tokens,
            baseline: timeline.live.baseline,
            window,
            usable,
            compactions: timeline.compactions.len(),
            whole_transcript,
            largest: timeline.live.items.iter().take(MAX_CONTEXT_ITEMS).cloned().collect(),
            timeline,
        }
    }
}

/// Builds the report: finds the session, scans its transcripts, reads git and the planning files.
pub fn build_report(opts: &ReportOptions) -> Result<SessionReport> {
    let project = Project::find(&opts.cwd);
    let root = project.as_ref().map_or_else(|| opts.cwd.clone(), |p| p.root.clone());
    let prices = price_table(project.as_ref(), opts.prices_file.as_deref())?;
    let (files, unavailable) = match locate(&opts.session, &root, &opts.cwd) {
        Ok(files) => (Some(files), None),
        // No transcript of this project yet: the work sections are still worth writing. A
        // session or transcript asked for by name must exist.
        Err(Error::Failed(why)) if opts.session == SessionChoice::Newest => (
            None,
            Some(format!("{why}; {}", no_transcript_hint(project.is_some(), &root))),
        ),
        Err(e) => return Err(e),
    };
    // What fills the context is read from the main transcript's end only (the walk costs more
    // per byte than the usage scan), on another core while the scan reads every byte.
    let (scanned, tail) = std::thread::scope(|scope| {
        let tail = files
            .as_ref()
            .map(|f| scope.spawn(|| fills::read_tail(&f.main, CONTEXT_TAIL_BYTES)));
        let scanned = match &files {
            Some(files) => scan_session(files, opts.since_ms),
            None => Ok(UsageScan::new(opts.since_ms).finish()),
        };
        (scanned, tail.and_then(|t| t.join().ok()).and_then(|read| read.ok()))
    });
    let (totals, scan) = scanned?;
    let config = crate::config::Config::load(project.as_ref().map(|p| p.root.as_path()));
    let context = tail.map(|(timeline, whole)| ContextFill::of(timeline, whole, &config));
    let start_ms = scan.first_ms.or(opts.since_ms);
    let planning = project
        .as_ref()
        .filter(|p| p.planning_dir().is_dir())
        .map(Snapshot::load)
        .transpose()?;
    // An unreadable handoff is reported by `baton resume`; here it is only left out.
    let handoff = crate::continuity::handoff::read(&root).ok().flatten();
    let work = work::gather(&root, start_ms, planning.as_ref(), handoff.as_ref());
    Ok(SessionReport {
        session_id: files.as_ref().map(|f| f.session_id.clone()),
        transcript: files.as_ref().map(|f| f.main.clone()),
        project: root,
        generated_at: utc_rfc3339(chrono::Utc::now().timestamp_millis()),
        since: opts.since_ms.map(utc_rfc3339),
        started_at: start_ms.map(utc_rfc3339),
        ended_at: scan.last_ms.map(utc_rfc3339),
        duration_seconds: start_ms.zip(scan.last_ms).map(|(s, e)| (e - s).max(0) / 1000),
        work,
        resources: Resources::new(&totals, scan, &prices),
        resources_unavailable: unavailable,
        context,
    })
}

/// The session's transcripts, looked up for the project root (the command may run in a
/// subdirectory), then for the directory itself (Claude Code may have started there).
fn locate(choice: &SessionChoice, root: &Path, cwd: &Path) -> Result<SessionFiles> {
    match transcripts::locate(choice, root) {
        Err(Error::Failed(_)) if root != cwd => transcripts::locate(choice, cwd),
        found => found,
    }
}

/// What to do when the project has no transcript, from where the command ran: inside a
/// project Claude Code has simply not recorded a session there yet.
fn no_transcript_hint(in_project: bool, root: &Path) -> String {
    if in_project {
        format!(
            "Claude Code has not recorded a session started in {} yet; pass --session ID or --transcript FILE \
             to report on another one",
            root.display()
        )
    } else {
        "run `baton report` inside the project's directory, or pass --session ID or --transcript FILE".to_owned()
    }
}

/// Builds the report and writes it as Markdown; returns the path written: `--out`, else
/// [`reports_dir`] under the project (the project's rule for links applies there).
pub fn write_report(opts: &ReportOptions) -> Result<PathBuf> {
    let report = build_report(opts)?;
    if let Some(out) = &opts.out {
        let write = |path: &Path, bytes: &[u8]| {
            fsx::write_atomic_keeping_mode(path, bytes, 0o644, Durability::Durable).map_err(|e| Error::io(path, e))
        };
        write_with_chart(&report, out, chart_beside_out(out), write)?;
        return Ok(out.clone());
    }
    let project = Project {
        root: report.project.clone(),
    };
    let dir = reports_dir(&project);
    project.create_dir(&dir)?;
    let path = report_path(&dir, &crate::clock::local_today());
    write_with_chart(&report, &path, chart_path(&path), |path, bytes| {
        project.write_file(path, bytes)
    })?;
    Ok(path)
}

/// Writes the report's Markdown at `path` and, when the session made requests, the context
/// chart at `chart`, which the Markdown shows.
fn write_with_chart(
    report: &SessionReport,
    path: &Path,
    chart: PathBuf,
    write: impl Fn(&Path, &[u8]) -> Result<()>,
) -> Result<()> {
    let mut chart_name = None;
    if let Some(context) = report.context.as_ref().filter(|c| !c.timeline.requests.is_empty()) {
        let session = report.session_id.as_deref().unwrap_or("unknown");
        let svg = fills::svg::render(
            session,
            &context.timeline,
            context.window,
            context.usable,
            MAX_CONTEXT_ITEMS,
        )
        .context("cannot draw the context chart")?;
        write(&chart, svg.as_bytes())?;
        chart_name = chart.file_name().map(|n| n.to_string_lossy().into_owned());
    }
    write(path, markdown::render(report, chart_name.as_deref()).as_bytes())
}

/// The context chart beside the report at `report`: `<name>-context.svg`.
pub fn chart_path(report: &Path) -> PathBuf {
    let stem = report
        .file_stem()
        .map_or_else(|| "report".into(), |s| s.to_string_lossy().into_owned());
    report.with_file_name(format!("{stem}-context.svg"))
}

/// The chart beside a report written with `--out`: [`chart_path`] when that name is free or
/// holds a chart baton drew, else `<name>-context-2.svg`, `-3`, …: a user's own file of that
/// name is never replaced.
fn chart_beside_out(report: &Path) -> PathBuf {
    let first = chart_path(report);
    let stem = first
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let ours = |path: &PathBuf| path.symlink_metadata().is_err() || fills::svg::drawn_by_baton(path);
    std::iter::once(first.clone())
        .chain((2..).map(|n| first.with_file_name(format!("{stem}-{n}.svg"))))
        .find(ours)
        .unwrap_or(first)
}

/// `.planning/reports/` in a GSD project; `.baton/reports/` in any other, so that a report
/// never makes a repository look like a GSD project.
pub fn reports_dir(project: &Project) -> PathBuf {
    match project.planning_dir().symlink_metadata() {
        Ok(_) => project.planning_dir().join("reports"),
        Err(_) => project.root.join(".baton").join("reports"),
    }
}

/// `SESSION_REPORT.md`; when it (or its chart) exists `<date>-session-report.md`, then `-2`, `-3`, …
/// An existing report is never overwritten.
pub fn report_path(dir: &Path, date: &str) -> PathBuf {
    let free = |path: &PathBuf| !path.exists() && !chart_path(path).exists();
    let first = dir.join("SESSION_REPORT.md");
    if free(&first) {
        return first;
    }
    (1..)
        .map(|n| match n {
            1 => dir.join(format!("{date}-session-report.md")),
            n => dir.join(format!("{date}-session-report-{n}.md")),
        })
        .find(free)
        .unwrap_or(first)
}

/// The built-in prices, then the config's `"prices"` (user, project), then `--prices`.
fn price_table(project: Option<&Project>, prices_file: Option<&Path>) -> Result<PriceTable> {
    let mut table = PriceTable::default();
    for (path, map) in crate::config::price_maps(project.map(|p| p.root.as_path()))? {
        table.apply(&map, &format!("{} (\"prices\")", path.display()))?;
    }
    if let Some(file) = prices_file {
        table.apply_file(file)?;
    }
    Ok(table)
}

fn scan_session(
    files: &SessionFiles,
    since_ms: Option<i64>,
) -> Result<(
    crate::accounting::totals::UsageTotals,
    crate::accounting::scan::ScanStats,
)> {
    let mut scan = UsageScan::new(since_ms);
    scan.scan_file(&files.main, false)
        .map_err(|e| Error::io(&files.main, e))?;
    for agent in &files.subagents {
        scan.scan_file(agent, true).map_err(|e| Error::io(agent, e))?;
    }
    Ok(scan.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_existing_report_is_never_overwritten() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        assert_eq!(report_path(dir, "20261130"), dir.join("SESSION_REPORT.md"));
        std::fs::write(dir.join("SESSION_REPORT.md"), "x").unwrap();
        assert_eq!(report_path(dir, "20261130"), dir.join("20261130-session-report.md"));
        std::fs::write(dir.join("20261130-session-report.md"), "x").unwrap();
        assert_eq!(report_path(dir, "20261130"), dir.join("20261130-session-report-2.md"));
        // A chart left behind by a report since removed keeps its name taken too.
        std::fs::write(dir.join("20261130-session-report-2-context.svg"), "<svg/>").unwrap();
        assert_eq!(report_path(dir, "20261130"), dir.join("20261130-session-report-3.md"));
    }
}
