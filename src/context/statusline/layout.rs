//! The statusline's layout: segments in the configured order, colours by level, and fitting
//! to `COLUMNS` (counted in terminal cells) by dropping the least important segments first.

use crate::config::{DEFAULT_SEGMENTS, Segment};
use crate::words::width;

/// Between segments.
const SEPARATOR: &str = " │ ";
/// Cells in the context bar.
const BAR_CELLS: usize = 10;
/// A shortened middle segment keeps at least this many cells, else it is dropped.
const MIN_MIDDLE_CELLS: usize = 8;
/// The optional payload segments, in the order a narrow terminal drops them.
const EXTRAS_DROPPED_FIRST: [Segment; 6] = [
    Segment::Largest,
    Segment::Compactions,
    Segment::Cache,
    Segment::Duration,
    Segment::Cost,
    Segment::Limits,
];

/// What goes between the model and the directory.
#[derive(Debug, Clone, PartialEq)]
pub enum Middle {
    /// The in-progress todo (bold).
    Task(String),
    /// GSD state: milestone · phase · status (dim).
    Planning(String),
}

/// An optional segment's text and its ANSI colour code.
#[derive(Debug, Clone, PartialEq)]
pub struct Extra {
    pub text: String,
    pub color: &'static str,
}

/// The parts of one statusline, before fitting.
#[derive(Debug, Clone, PartialEq)]
pub struct Parts {
    /// The segments in order (the context bar among them).
    pub order: Vec<Segment>,
    pub model: Option<String>,
    pub middle: Option<Middle>,
    pub dir: Option<String>,
    pub branch: Option<String>,
    /// The displayed context percentage; `None` when unknown.
    pub percent: Option<u8>,
    /// The forecast beside the bar (`≈3 left`).
    pub forecast: Option<String>,
    /// The optional segments that have something to show.
    pub extras: Vec<(Segment, Extra)>,
}

impl Default for Parts {
    fn default() -> Self {
        Self {
            order: DEFAULT_SEGMENTS.to_vec(),
            model: None,
            middle: None,
            dir: None,
            branch: None,
            percent: None,
            forecast: None,
            extras: Vec::new(),
        }
    }
}

impl Parts {
    /// Drops or shortens segments until the line fits `columns`: the optional segments
    /// (compactions, cache, duration, cost, limits), the branch, the middle (shortened,
    /// then dropped), the directory, the model, the forecast. The context bar stays.
    pub fn fit(mut self, columns: Option<usize>) -> Self {
        let Some(columns) = columns else { return self };
        for kind in EXTRAS_DROPPED_FIRST {
            if self.width() <= columns {
                return self;
            }
            self.extras.retain(|(k, _)| *k != kind);
        }
        if self.width() <= columns {
            return self;
        }
        self.branch = None;
        if self.width() > columns
            && let Some(middle) = self.middle.take()
        {
            let budget = columns.saturating_sub(self.width() + width::cells(SEPARATOR));
            self.middle = shorten(middle, budget);
        }
        if self.width() > columns {
            self.dir = None;
        }
        if self.width() > columns {
            self.model = None;
        }
        if self.width() > columns {
            self.forecast = None;
        }
        self
    }

    /// Display width in terminal cells (escapes excluded).
    pub fn width(&self) -> usize {
        width::cells(&self.render(false))
    }

    /// The finished line, with ANSI colours when `color` is true.
    pub fn render(&self, color: bool) -> String {
        let painted: Vec<String> = self
            .segments()
            .iter()
            .map(|spans| spans.iter().map(|span| span.painted(color)).collect())
            .collect();
        painted.join(SEPARATOR)
    }

    /// The line as runs of styled text, separators included: for a surface that styles text
    /// itself and takes no escape sequences (the band baton's mod draws).
    pub fn spans(&self) -> Vec<Span> {
        let mut out = Vec::new();
        for (i, segment) in self.segments().into_iter().enumerate() {
            if i > 0 {
                out.push(Span::plain(SEPARATOR));
            }
            out.extend(segment);
        }
        out
    }

    /// Each shown segment as its runs of text.
    fn segments(&self) -> Vec<Vec<Span>> {
        let styled = |code: &'static str, text: &str| vec![Span::styled(code, text)];
        let mut out = Vec::with_capacity(self.order.len());
        for segment in &self.order {
            match segment {
                Segment::Model => out.extend(self.model.as_deref().map(|m| styled("2", m))),
                Segment::Task => match &self.middle {
                    Some(Middle::Task(task)) => out.push(styled("1", task)),
                    Some(Middle::Planning(state)) => out.push(styled("2", state)),
                    None => {}
                },
                Segment::Dir => {
                    if let Some(dir) = &self.dir {
                        let text = match &self.branch {
                            Some(branch) => format!("{dir} ({branch})"),
                            None => dir.clone(),
                        };
                        out.push(styled("2", &text));
                    }
                }
                Segment::Context => {
                    let mut context = vec![meter(self.percent)];
                    if let Some(forecast) = &self.forecast {
                        context.extend([Span::plain(" "), Span::styled("2", forecast)]);
                    }
                    out.push(context);
                }
                other => {
                    if let Some((_, extra)) = self.extras.iter().find(|(k, _)| k == other) {
                        out.push(styled(extra.color, &extra.text));
                    }
                }
            }
        }
        out
    }
}

/// A run of the line's text and its ANSI style (SGR parameters: `"2"` dim, `"1"` bold, the
/// level colours of [`level_color`]); `None` for plain text.
#[derive(Debug, Clone, PartialEq)]
pub struct Span {
    pub text: String,
    pub style: Option<&'static str>,
}

impl Span {
    fn plain(text: &str) -> Self {
        Self {
            text: text.to_owned(),
            style: None,
        }
    }

    fn styled(code: &'static str, text: &str) -> Self {
        Self {
            text: text.to_owned(),
            style: Some(code),
        }
    }

    /// The text, wrapped in its escape sequences when `color` is true.
    fn painted(&self, color: bool) -> String {
        match self.style {
            Some(code) if color => format!("\x1b[{code}m{}\x1b[0m", self.text),
            _ => self.text.clone(),
        }
    }
}

/// The colour of a level in percent: < 50 green, < 65 yellow, < 80 orange, else red.
pub fn level_color(percent: u8) -> &'static str {
    match percent {
        0..50 => "32",
        50..65 => "33",
        65..80 => "38;5;208",
        _ => "31",
    }
}

/// `█████████░ 83%`, coloured by level.
fn meter(percent: Option<u8>) -> Span {
    let Some(pct) = percent else {
        return Span::styled("2", &format!("{} --", "░".repeat(BAR_CELLS)));
    };
    let filled = (usize::from(pct.min(100)) * BAR_CELLS / 100).min(BAR_CELLS);
    let text = format!("{}{} {pct}%", "█".repeat(filled), "░".repeat(BAR_CELLS - filled));
    Span::styled(level_color(pct), &text)
}

fn shorten(middle: Middle, budget: usize) -> Option<Middle> {
    let cut = |text: String| {
        if width::cells(&text) <= budget {
            Some(text)
        } else if budget >= MIN_MIDDLE_CELLS {
            Some(width::prefix(&text, budget - width::cells("…")).trim_end().to_owned() + "…")
        } else {
            None
        }
    };
    match middle {
        Middle::Task(t) => cut(t).map(Middle::Task),
        Middle::Planning(p) => cut(p).map(Middle::Planning),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn full() -> Parts {
        Parts {
            model: Some("Sonnet 4.5".into()),
            middle: Some(Middle::Task("Running the integration tests".into())),
            dir: Some("proj".into()),
            branch: Some("main".into()),
            percent: Some(83),
            ..Parts::default()
        }
    }

    fn extra(text: &str) -> Extra {
        Extra {
            text: text.into(),
            color: "2",
        }
    }

    /// Every segment on, in a configured order, with a forecast.
    fn everything() -> Parts {
        Parts {
            order: vec![
                Segment::Model,
                Segment::Context,
                Segment::Limits,
                Segment::Cost,
                Segment::Duration,
                Segment::Cache,
                Segment::Compactions,
                Segment::Dir,
            ],
            forecast: Some("≈3 left".into()),
            extras: vec![
                (Segment::Cost, extra("$0.45")),
                (Segment::Duration, extra("12m")),
                (Segment::Limits, extra("5h 42% ↻1h20m")),
                (Segment::Cache, extra("cache 3m")),
                (Segment::Compactions, extra("1 compaction")),
            ],
            ..full()
        }
    }

    #[test]
    fn renders_all_segments_in_order() {
        assert_eq!(
            full().render(false),
            "Sonnet 4.5 │ Running the integration tests │ proj (main) │ ████████░░ 83%"
        );
        assert_eq!(full().width(), full().render(false).chars().count());
    }

    #[test]
    fn drops_least_important_first() {
        let plain = |cols| full().fit(Some(cols)).render(false);
        assert_eq!(plain(200), full().render(false));
        assert_eq!(
            plain(66),
            "Sonnet 4.5 │ Running the integration tests │ proj │ ████████░░ 83%"
        );
        assert_eq!(plain(50), "Sonnet 4.5 │ Running the… │ proj │ ████████░░ 83%");
        assert_eq!(plain(36), "Sonnet 4.5 │ proj │ ████████░░ 83%");
        assert_eq!(plain(30), "Sonnet 4.5 │ ████████░░ 83%");
        assert_eq!(plain(10), "████████░░ 83%");
        for cols in 14..120 {
            let line = plain(cols);
            assert!(line.chars().count() <= cols, "{cols}: {line}");
        }
    }

    #[test]
    fn wide_characters_count_two_cells_when_fitting_and_cutting() {
        let wide = || Parts {
            middle: Some(Middle::Task("修复登录页面的会话过期错误并补充测试".into())),
            ..full()
        };
        assert_eq!(wide().width(), width::cells(&wide().render(false)));
        for cols in 14..120 {
            let line = wide().fit(Some(cols)).render(false);
            assert!(width::cells(&line) <= cols, "{cols}: {line}");
        }
        assert_eq!(
            wide().fit(Some(50)).render(false),
            "Sonnet 4.5 │ 修复登录页面… │ proj │ ████████░░ 83%"
        );
    }

    #[test]
    fn optional_segments_follow_the_configured_order_and_go_first() {
        let plain = |cols| everything().fit(Some(cols)).render(false);
        assert_eq!(
            plain(200),
            "Sonnet 4.5 │ ████████░░ 83% ≈3 left │ 5h 42% ↻1h20m │ $0.45 │ 12m │ cache 3m │ 1 compaction │ proj (main)"
        );
        let steps = [
            (
                80,
                "Sonnet 4.5 │ ████████░░ 83% ≈3 left │ 5h 42% ↻1h20m │ $0.45 │ 12m │ proj (main)",
            ),
            (
                76,
                "Sonnet 4.5 │ ████████░░ 83% ≈3 left │ 5h 42% ↻1h20m │ $0.45 │ proj (main)",
            ),
            (70, "Sonnet 4.5 │ ████████░░ 83% ≈3 left │ 5h 42% ↻1h20m │ proj (main)"),
            (60, "Sonnet 4.5 │ ████████░░ 83% ≈3 left │ proj (main)"),
            (45, "Sonnet 4.5 │ ████████░░ 83% ≈3 left │ proj"),
            (40, "Sonnet 4.5 │ ████████░░ 83% ≈3 left"),
            (30, "████████░░ 83% ≈3 left"),
            (20, "████████░░ 83%"),
        ];
        for (cols, line) in steps {
            assert_eq!(plain(cols), line, "{cols} columns");
        }
        assert_eq!(plain(12), "████████░░ 83%", "the bar stays, even too wide");
        for cols in 14..200 {
            let line = plain(cols);
            assert!(width::cells(&line) <= cols.max(14), "{cols}: {line}");
            assert!(line.contains("████████░░ 83%"), "{cols}: {line}");
        }
    }

    #[test]
    fn colours_follow_gsds_levels() {
        let colour = |pct| meter(Some(pct)).painted(true);
        assert!(colour(49).starts_with("\x1b[32m"));
        assert!(colour(50).starts_with("\x1b[33m"));
        assert!(colour(65).starts_with("\x1b[38;5;208m"));
        assert!(colour(80).starts_with("\x1b[31m"));
        assert_eq!(meter(None).painted(false), "░░░░░░░░░░ --");
    }

    #[test]
    fn spans_are_the_line_with_its_styles_apart() {
        let line = everything();
        let spans = line.spans();
        let text: String = spans.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(text, line.render(false));
        let painted: String = spans.iter().map(|s| s.painted(true)).collect();
        assert_eq!(painted, line.render(true));
        let bar = spans.iter().find(|s| s.text.contains("83%")).unwrap();
        assert_eq!(bar.style, Some("31"));
    }
}
