//! `baton statusline`: renders one line (by default model │ task or GSD state │ dir (branch) │
//! context bar and forecast; cost, duration, usage limits, prompt cache and compactions when
//! configured) and writes the bridge file the monitor reads. Any missing piece drops a
//! segment; the line itself is never blank.

pub mod extras;
pub mod git;
pub mod gsd;
pub mod layout;
pub mod todos;

use std::path::Path;
use std::time::Duration;

use crate::config::{Config, Segment};
use crate::context::forecast::History;
use crate::context::window::limit::Limit;
use crate::context::window::{self, ContextUsage};
use crate::context::{bridge, compactions, fills, sweep, transcript};
use crate::fsx;
use crate::hook::payload::StatuslinePayload;
use crate::hook::stdin;
use crate::planning::Project;
use crate::words::width::one_line;
use layout::{Middle, Parts};

/// How long the statusline waits for its payload (Claude Code allows about 5 s).
const STDIN_WAIT: Duration = Duration::from_secs(1);

/// Reads the payload from stdin, writes the bridge file, returns the line to print.
pub fn run() -> String {
    let payload = match stdin::read_payload(STDIN_WAIT) {
        Ok(bytes) => serde_json::from_slice(&bytes).unwrap_or_else(|e| {
            crate::log::note(&format!("statusline: unreadable payload: {e}"));
            StatuslinePayload::default()
        }),
        Err(why) => {
            crate::log::note(&format!("statusline: no payload: {why:?}"));
            StatuslinePayload::default()
        }
    };
    let now = crate::clock::unix_now();
    let line = render(&payload, now);
    sweep::sweep_if_due(now);
    line
}

/// Renders the line for a payload and, when the figure is known, writes the bridge file (with
/// the forecast from the transcript's recent requests).
pub fn render(payload: &StatuslinePayload, now: u64) -> String {
    let workspace = payload.workspace.as_ref();
    let dir = crate::hook::working_dir(
        workspace
            .and_then(|w| w.current_dir.as_deref())
            .or(payload.cwd.as_deref()),
    );
    let project = Project::find(&dir);
    let config = Config::load(project.as_ref().map(|p| p.root.as_path()));
    let settings = config.statusline();
    let model = payload.model.as_ref();
    let model_id = model.and_then(|m| m.id.as_deref());

    let usage = context_usage(payload, &config);
    let limit = usage.map(|u| Limit::for_session(u.window, model_id, &config));
    let forecast = match (&usage, &limit, payload.transcript_path.as_deref()) {
        (Some(usage), Some(limit), Some(path)) if settings.forecast => {
            let history = History::read(Path::new(path), transcript::Chain::Main);
            history.forecast(usage.used_tokens, usage.rounding_slack(), limit.tokens)
        }
        _ => None,
    };
    let session_id = payload.session_id.as_deref().filter(|id| fsx::is_safe_session_id(id));
    if let (Some(usage), Some(session_id)) = (&usage, session_id) {
        let record = bridge::Bridge::new(session_id, usage, model_id, forecast, now);
        if let Err(e) = bridge::write_if_changed(&record, now) {
            crate::log::note(&format!("statusline: bridge write failed: {e}"));
        }
    }

    let middle = payload
        .session_id
        .as_deref()
        .and_then(todos::current_task)
        .map(|task| one_line(&task))
        .filter(|task| !task.is_empty())
        .map(Middle::Task)
        .or_else(|| project.as_ref().and_then(gsd::segment).map(Middle::Planning));
    let shown = |segment| settings.segments.contains(&segment);
    let extras = [
        (
            Segment::Cost,
            shown(Segment::Cost)
                .then(|| extras::cost(payload.cost.as_ref()))
                .flatten(),
        ),
        (
            Segment::Duration,
            shown(Segment::Duration)
                .then(|| extras::duration(payload.cost.as_ref()))
                .flatten(),
        ),
        (
            Segment::Limits,
            shown(Segment::Limits)
                .then(|| extras::limits(payload.rate_limits.as_ref(), now))
                .flatten(),
        ),
        (
            Segment::Cache,
            shown(Segment::Cache)
                .then(|| extras::cache(payload.prompt_cache.as_ref(), now))
                .flatten(),
        ),
        (
            Segment::Compactions,
            session_id
                .filter(|_| shown(Segment::Compactions))
                .and_then(|id| extras::compactions(compactions::count(id))),
        ),
        (
            Segment::Largest,
            session_id
                .filter(|_| shown(Segment::Largest))
                .zip(payload.transcript_path.as_deref())
                .and_then(|(id, path)| extras::largest(&fills::running::largest(id, Path::new(path), false))),
        ),
    ];
    let parts = Parts {
        order: settings.segments.clone(),
        model: model
            .and_then(|m| m.display_name.clone().or_else(|| m.id.clone()))
            .map(|name| one_line(&name))
            .or_else(|| Some("Claude".to_owned())),
        middle,
        dir: dir
            .file_name()
            .map(|n| one_line(&n.to_string_lossy()))
            .or_else(|| Some("/".to_owned())),
        branch: settings
            .show_branch
            .then(|| git::branch(&dir))
            .flatten()
            .map(|b| one_line(&b)),
        percent: usage.zip(limit).map(|(u, l)| u.display_percent(settings.percent, &l)),
        forecast: forecast.map(|f| f.short()),
        extras: extras
            .into_iter()
            .filter_map(|(kind, extra)| Some((kind, extra?)))
            .collect(),
    };
    parts.fit(terminal_columns()).render(colors_enabled())
}

/// The figure: the payload's usage, else the transcript's tail (old versions, session
/// start, right after /compact).
fn context_usage(payload: &StatuslinePayload, config: &Config) -> Option<ContextUsage> {
    let cw = payload.context_window.as_ref();
    let payload_window = cw.and_then(|c| c.context_window_size).map(|w| w.round() as u64);
    let model_id = payload.model.as_ref().and_then(|m| m.id.as_deref());
    let configured = config.context_window_size();
    if let Some(found) = cw.and_then(|c| window::from_payload(c, payload_window, model_id, configured)) {
        return Some(found);
    }
    let tail = transcript::last_context_usage(Path::new(payload.transcript_path.as_deref()?), transcript::Chain::Main)
        .ok()??;
    Some(tail.usage(payload_window, model_id, configured))
}

/// `COLUMNS`, when Claude Code sets it.
fn terminal_columns() -> Option<usize> {
    std::env::var("COLUMNS").ok()?.trim().parse().ok().filter(|c| *c > 0)
}

/// Colour unless `NO_COLOR` is set to anything non-empty (no-color.org).
pub fn colors_enabled() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}
