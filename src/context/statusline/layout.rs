//! The statusline's layout: segments in order, colours by context level, and fitting to
//! `COLUMNS` (counted in terminal cells) by dropping the least important segments first.

use super::width;

/// Between segments.
const SEPARATOR: &str = " │ ";
/// Cells in the context bar.
const BAR_CELLS: usize = 10;
/// A shortened middle segment keeps at least this many cells, else it is dropped.
const MIN_MIDDLE_CELLS: usize = 8;

/// What goes between the model and the directory.
#[derive(Debug, Clone, PartialEq)]
pub enum Middle {
    /// The in-progress todo (bold).
    Task(String),
    /// GSD state: milestone · phase · status (dim).
    Planning(String),
}

/// The parts of one statusline, before fitting.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Parts {
    pub model: Option<String>,
    pub middle: Option<Middle>,
    pub dir: Option<String>,
    pub branch: Option<String>,
    /// The displayed context percentage; `None` when unknown.
    pub percent: Option<u8>,
}

impl Parts {
    /// Drops or shortens segments until the line fits `columns`: first the branch, then the
    /// middle (shortened, then dropped), the directory, the model. The context bar stays.
    pub fn fit(mut self, columns: Option<usize>) -> Self {
        let Some(columns) = columns else { return self };
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
        self
    }

    /// Display width in terminal cells (escapes excluded).
    pub fn width(&self) -> usize {
        let segments = self.segments(false);
        segments.iter().map(|s| width::cells(s)).sum::<usize>() + width::cells(SEPARATOR) * (segments.len() - 1)
    }

    /// The finished line, with ANSI colours when `color` is true.
    pub fn render(&self, color: bool) -> String {
        self.segments(color).join(SEPARATOR)
    }

    fn segments(&self, color: bool) -> Vec<String> {
        let paint = |code: &str, text: &str| {
            if color {
                format!("\x1b[{code}m{text}\x1b[0m")
            } else {
                text.to_owned()
            }
        };
        let mut out = Vec::with_capacity(4);
        if let Some(model) = &self.model {
            out.push(paint("2", model));
        }
        match &self.middle {
            Some(Middle::Task(task)) => out.push(paint("1", task)),
            Some(Middle::Planning(state)) => out.push(paint("2", state)),
            None => {}
        }
        if let Some(dir) = &self.dir {
            let text = match &self.branch {
                Some(branch) => format!("{dir} ({branch})"),
                None => dir.clone(),
            };
            out.push(paint("2", &text));
        }
        out.push(meter(self.percent, color));
        out
    }
}

/// `█████████░ 83%`, coloured by level: < 50 green, < 65 yellow, < 80 orange, else red.
fn meter(percent: Option<u8>, color: bool) -> String {
    let Some(pct) = percent else {
        let empty = "░".repeat(BAR_CELLS);
        return if color {
            format!("\x1b[2m{empty} --\x1b[0m")
        } else {
            format!("{empty} --")
        };
    };
    let filled = (usize::from(pct.min(100)) * BAR_CELLS / 100).min(BAR_CELLS);
    let text = format!("{}{} {pct}%", "█".repeat(filled), "░".repeat(BAR_CELLS - filled));
    if !color {
        return text;
    }
    let code = match pct {
        0..50 => "32",
        50..65 => "33",
        65..80 => "38;5;208",
        _ => "31",
    };
    format!("\x1b[{code}m{text}\x1b[0m")
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
    fn colours_follow_gsds_levels() {
        let colour = |pct| meter(Some(pct), true);
        assert!(colour(49).starts_with("\x1b[32m"));
        assert!(colour(50).starts_with("\x1b[33m"));
        assert!(colour(65).starts_with("\x1b[38;5;208m"));
        assert!(colour(80).starts_with("\x1b[31m"));
        assert_eq!(meter(None, false), "░░░░░░░░░░ --");
    }
}
