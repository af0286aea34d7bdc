//! The mod's pane (`window`): the context after each of the newest requests of the conversation
//! in view and the largest items in its live context, drawn by `baton window`'s own text view
//! (`context::fills::chart`) in the pane's columns and rows, from the running walk the warnings
//! keep (only what the transcript gained since the last look is read), as styled runs: a pane
//! takes no escape sequences. The bars and the items fit the columns; a line wider (a sentence
//! of the chart's, or every line of a pane narrower than the chart's least width) is the
//! surface's to cut or to slide sideways with the other rows.

use std::path::Path;

use super::draw::TextRun;
use crate::config::Config;
use crate::context::fills::{Timeline, chart, running};

/// Largest items listed under the chart.
const TOP: usize = 5;
/// Requests kept before fewer items are listed, where the pane's rows are too few.
const FEW_REQUESTS: usize = 3;
/// The narrowest and widest chart drawn, whatever the pane says.
const MIN_COLUMNS: usize = 20;
const MAX_COLUMNS: usize = 1000;

/// Which conversation is charted and where its running walk is kept.
pub struct Conversation<'a> {
    /// The session id, named in the chart's first line.
    pub session: &'a str,
    /// The running walk's key: the session id, or a subagent's key.
    pub key: &'a str,
    /// The conversation's own transcript.
    pub transcript: &'a Path,
    pub subagent: bool,
}

/// The pane's size in cells, and whether it shows colours.
pub struct Room {
    pub columns: usize,
    /// Rows the body shows at once: the oldest requests are left out to fit them.
    pub rows: Option<usize>,
    pub color: bool,
}

/// The chart's lines, each as runs; `None` when the transcript cannot be read. Where the rows
/// are too few, the oldest requests are left out (down to [`FEW_REQUESTS`]), then the smaller
/// items, then older requests again; what still does not fit is cut at the bottom.
pub fn lines(
    of: &Conversation,
    reported_window: Option<u64>,
    config: &Config,
    room: &Room,
) -> Option<Vec<Vec<TextRun>>> {
    let mut timeline = running::timeline(of.key, of.transcript, of.subagent)?;
    let (window, usable) = timeline.window(reported_window, config);
    let mut style = chart::Style {
        width: room.columns.clamp(MIN_COLUMNS, MAX_COLUMNS),
        color: room.color,
        top: TOP,
    };
    let mut text = chart::render(of.session, &timeline, window, usable, &style);
    let rows = room.rows.unwrap_or(usize::MAX);
    let over = text.lines().count().saturating_sub(rows);
    if over > 0 {
        // One line per request and per item listed.
        let requests = timeline.requests.len();
        let early = over.min(requests.saturating_sub(FEW_REQUESTS));
        let items = (over - early).min(TOP - 1);
        let late = (over - early - items).min(requests.saturating_sub(early + 1));
        keep_newest(&mut timeline, requests - early - late);
        style.top -= items;
        text = chart::render(of.session, &timeline, window, usable, &style);
    }
    let fitting = text.lines().take(rows.max(1));
    Some(fitting.map(|line| TextRun::runs_of(line, room.color)).collect())
}

/// Leaves the newest `count` requests in `timeline`, and the compactions among them.
fn keep_newest(timeline: &mut Timeline, count: usize) {
    let drop = timeline.requests.len().saturating_sub(count);
    timeline.requests.drain(..drop);
    let first = timeline.requests.first().map_or(0, |r| r.n);
    timeline.compactions.retain(|c| c.before_request >= first);
}
