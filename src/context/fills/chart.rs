//! The text view of `baton window`: one line per request with its context as a bar in the
//! terminal's width (Unicode blocks, the compaction limit marked), compactions between them,
//! then the largest items in the live context and the totals by kind.

use std::fmt::Write;

use super::{Compaction, Item, Timeline};
use crate::context::window::short_tokens;
use crate::words::width::{cells, prefix, suffix};

/// Eighths of a cell, for bars finer than a character.
const EIGHTHS: [char; 8] = [' ', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

/// Columns left of and right of the bar: `   n  hh:mm  ` and `  tokens   delta  `.
const LEFT: usize = 13;
const RIGHT: usize = 18;
/// The bar never gets narrower than this, nor the largest item's name (which a narrower
/// terminal leaves out of the requests' lines).
const MIN_BAR: usize = 10;
const MIN_NAME: usize = 16;
const MAX_NAME: usize = 48;
/// The narrowest view drawn, whatever the terminal: the requests' lines with a short bar.
pub const MIN_WIDTH: usize = LEFT + RIGHT + 9;

/// How to draw.
pub struct Style {
    /// Terminal cells per line.
    pub width: usize,
    pub color: bool,
    /// Largest items listed.
    pub top: usize,
}

/// The whole view.
pub fn render(session: &str, timeline: &Timeline, window: u64, usable: u64, style: &Style) -> String {
    let mut out = String::new();
    let width = style.width.max(MIN_WIDTH);
    let model = timeline.model.as_deref().unwrap_or("unknown model");
    prose(&mut out, &format!("Context of session {session}"), width);
    let limits = format!(
        "{model}, window {}, compacts at {}",
        short_tokens(window),
        short_tokens(usable)
    );
    prose(&mut out, &limits, width);
    if timeline.requests.is_empty() {
        out.push_str("No request in this transcript yet.\n");
        return out;
    }
    let name_width = match width.saturating_sub(LEFT + RIGHT) {
        room if room < MIN_BAR + MIN_NAME => 0,
        room => (room / 2).clamp(MIN_NAME, MAX_NAME),
    };
    let bar_width = width
        .saturating_sub(LEFT + RIGHT + name_width)
        .max(MIN_WIDTH - LEFT - RIGHT);
    out.push('\n');
    let mut compactions = timeline.compactions.iter().peekable();
    for request in &timeline.requests {
        while let Some(compaction) = compactions.next_if(|c| c.before_request <= request.n) {
            compacted(&mut out, compaction);
        }
        let at = request
            .at
            .as_deref()
            .and_then(crate::clock::timestamp_millis)
            .and_then(crate::clock::local)
            .map_or_else(|| "     ".to_owned(), |t| t.format("%H:%M").to_string());
        let bar = bar(request.context_tokens, window, usable, bar_width);
        let bar = paint(&bar, request.context_tokens, usable, style.color);
        let delta = match request.n {
            1 => String::new(),
            _ => signed(request.delta),
        };
        let largest = match request.items.first() {
            _ if name_width == 0 => String::new(),
            _ if request.n == 1 => "baseline".to_owned(),
            Some(item) => cut(&item.name(), name_width),
            None => String::new(),
        };
        let line = format!(
            "{:>4}  {at}  {bar}  {:>6}  {delta:>6}  {largest}",
            request.n,
            short_tokens(request.context_tokens)
        );
        out.push_str(line.trim_end());
        out.push('\n');
    }
    for compaction in compactions {
        compacted(&mut out, compaction);
    }
    if timeline.unreadable_lines > 0 {
        let unreadable = format!(
            "{} unreadable line(s) left out (cut short or not JSON): their growth is \"other\".",
            timeline.unreadable_lines
        );
        prose(&mut out, &unreadable, width);
    }
    live(&mut out, timeline, style.top, width);
    out
}

/// A line of prose, wrapped at spaces to `width` cells (what follows is indented; a word
/// wider than a line is cut).
fn prose(out: &mut String, text: &str, width: usize) {
    let mut line = String::new();
    for word in text.split(' ') {
        let word = cut(word, width - 2);
        if !line.trim().is_empty() && cells(&line) + 1 + cells(&word) > width {
            out.push_str(line.trim_end());
            out.push('\n');
            line = "  ".to_owned();
        } else if !line.trim().is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    }
    out.push_str(line.trim_end());
    out.push('\n');
}

fn compacted(out: &mut String, compaction: &Compaction) {
    let tokens = |n: Option<u64>| n.map_or_else(|| "?".to_owned(), short_tokens);
    let _ = writeln!(
        out,
        "  ── compacted: {} → {} ──",
        tokens(compaction.tokens_before),
        tokens(compaction.tokens_after)
    );
}

/// "Largest in the live context" and the totals by kind.
fn live(out: &mut String, timeline: &Timeline, top: usize, width: usize) {
    let live = &timeline.live;
    let since = if timeline.compactions.is_empty() {
        ""
    } else {
        " since the last compaction"
    };
    let heading = format!(
        "Live context: {} ({} baseline: system prompt, tools, memory files){since}",
        short_tokens(live.tokens),
        short_tokens(live.baseline)
    );
    out.push('\n');
    prose(out, &heading, width);
    if live.items.is_empty() {
        out.push_str("Nothing has entered it since.\n");
        return;
    }
    if top > 0 {
        out.push_str("Largest in the live context:\n");
    }
    let shown: Vec<&Item> = live.items.iter().take(top).collect();
    let name_width = shown
        .iter()
        .map(|i| cells(&i.name()))
        .max()
        .unwrap_or(0)
        .min(width.saturating_sub(20));
    for item in shown {
        let share = item.tokens as f64 * 100.0 / live.tokens.max(1) as f64;
        let name = cut(&item.name(), name_width);
        let pad = name_width.saturating_sub(cells(&name));
        let _ = writeln!(
            out,
            "  {name}{}  {:>6}  {share:>3.0}%",
            " ".repeat(pad),
            short_tokens(item.tokens as u64)
        );
    }
    let kinds: Vec<String> = live
        .by_kind
        .iter()
        .filter(|(_, tokens)| **tokens != 0)
        .map(|(kind, tokens)| format!("{} {}", kind.label(), total(*tokens)))
        .collect();
    prose(out, &format!("By kind: {}", kinds.join(", ")), width);
    if live.items.iter().any(|i| i.estimated) {
        let estimated = "Items sharing a request split its growth by their size in bytes (estimated).";
        prose(out, estimated, width);
    }
}

/// A bar of `tokens` out of `window` in `width` cells, `│` where the client compacts.
fn bar(tokens: u64, window: u64, usable: u64, width: usize) -> String {
    let eighths = (tokens.min(window) as u128 * width as u128 * 8 / window.max(1) as u128) as usize;
    let limit_cell = (usable.min(window) as u128 * width as u128 / window.max(1) as u128) as usize;
    (0..width)
        .map(|cell| {
            let filled = eighths.saturating_sub(cell * 8).min(8);
            match filled {
                8 => '█',
                0 if cell == limit_cell => '│',
                n => EIGHTHS[n],
            }
        })
        .collect()
}

/// The bar in green, yellow or red by how near the limit it is.
fn paint(bar: &str, tokens: u64, usable: u64, color: bool) -> String {
    if !color {
        return bar.to_owned();
    }
    let used = tokens as f64 / usable.max(1) as f64;
    let code = if used < 0.5 {
        32
    } else if used < 0.8 {
        33
    } else {
        31
    };
    format!("\x1b[{code}m{bar}\x1b[0m")
}

fn signed(n: i64) -> String {
    match n {
        0 => "0".into(),
        n if n > 0 => format!("+{}", short_tokens(n as u64)),
        n => format!("-{}", short_tokens(n.unsigned_abs())),
    }
}

/// A total: negative ones (what was cleared) with their sign.
fn total(n: i64) -> String {
    if n < 0 { signed(n) } else { short_tokens(n as u64) }
}

/// `text` cut to `width` cells with `…`: a name keeps its first word (the tool) and the end
/// of the rest (a path's file name), a text without a space its start.
fn cut(text: &str, width: usize) -> String {
    if cells(text) <= width {
        return text.to_owned();
    }
    match text.split_once(' ').filter(|(head, _)| cells(head) + 2 < width) {
        Some((head, rest)) => format!("{head} …{}", suffix(rest, width - cells(head) - 2)),
        None => format!("{}…", prefix(text, width.saturating_sub(1))),
    }
}
