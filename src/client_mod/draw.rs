//! What baton's mod draws, in the statusline's layout and colours: a running subagent's row
//! (its type, task, context bar and requests left, as text with escape sequences, which the
//! row takes) and the band above the prompt (the bar and the forecast in words, as styled runs:
//! the band, like a pane, takes no escape sequences).

use serde::Serialize;

use crate::config::Segment;
use crate::context::forecast::Forecast;
use crate::context::statusline::layout::{Middle, Parts, Span};
use crate::words::width::one_line;

/// A run of the band's text with its style, as the client's `Text` element takes it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TextRun {
    pub text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub color: Option<&'static str>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub dim_color: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub bold: bool,
}

/// A subagent's row: `type │ task │ ██████░░░░ 62% ≈4 left`, fitted to `columns` as the
/// statusline fits (the task shortened then dropped, then the type; the bar stays).
pub fn row(
    agent_type: &str,
    description: &str,
    percent: u8,
    forecast: Option<&Forecast>,
    columns: Option<usize>,
    color: bool,
) -> String {
    let parts = Parts {
        order: vec![Segment::Model, Segment::Task, Segment::Context],
        model: Some(one_line(agent_type)).filter(|t| !t.is_empty()),
        middle: Some(one_line(description)).filter(|d| !d.is_empty()).map(Middle::Task),
        percent: Some(percent),
        forecast: forecast.map(Forecast::short),
        ..Parts::default()
    };
    parts.fit(columns).render(color)
}

/// The band: `context │ ████████░░ 83% At the recent rate (…), about 6 more requests fit
/// before compaction.`, or with `≈6 left` where the words do not fit `columns`, then as the
/// statusline fits; no styles when `color` is false.
pub fn band(label: &str, percent: u8, forecast: Option<&Forecast>, columns: usize, color: bool) -> Vec<TextRun> {
    let parts = |forecast: Option<String>| Parts {
        order: vec![Segment::Model, Segment::Context],
        model: Some(label.to_owned()),
        percent: Some(percent),
        forecast,
        ..Parts::default()
    };
    let worded = parts(forecast.map(Forecast::sentence));
    let chosen = if worded.width() <= columns {
        worded
    } else {
        parts(forecast.map(Forecast::short)).fit(Some(columns))
    };
    chosen.spans().into_iter().map(|span| run(span, color)).collect()
}

/// A span of the line as a `Text` run.
fn run(span: Span, color: bool) -> TextRun {
    TextRun::styled(span.text, span.style, color)
}

impl TextRun {
    /// `text` with the ANSI style `code` (an SGR parameter, `"33"`) as the element's props;
    /// none when `color` is false.
    pub fn styled(text: String, code: Option<&str>, color: bool) -> Self {
        let style = code.filter(|_| color);
        Self {
            text,
            color: style.and_then(|code| match code {
                "32" => Some("green"),
                "33" => Some("yellow"),
                "38;5;208" => Some("#ff8700"),
                "31" => Some("red"),
                _ => None,
            }),
            dim_color: style == Some("2"),
            bold: style == Some("1"),
        }
    }

    /// A line of text with ANSI styles (`\x1b[31m…\x1b[0m`) as runs, each with its style.
    pub fn runs_of(line: &str, color: bool) -> Vec<Self> {
        let mut runs = Vec::new();
        let mut parts = line.split("\x1b[");
        let mut push = |text: &str, code: Option<&str>| {
            if !text.is_empty() {
                runs.push(Self::styled(text.to_owned(), code, color));
            }
        };
        push(parts.next().unwrap_or_default(), None);
        for part in parts {
            let (code, text) = part.split_once('m').unwrap_or(("", part));
            push(text, Some(code).filter(|c| *c != "0"));
        }
        runs
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words::width;

    const FORECAST: Forecast = Forecast {
        tokens_per_request: 12_000,
        requests_left: 4,
    };

    #[test]
    fn a_row_is_the_statusline_of_one_subagent_and_fits_its_columns() {
        let line = |cols| {
            row(
                "db-coding-agent",
                "write the migration",
                62,
                Some(&FORECAST),
                cols,
                false,
            )
        };
        assert_eq!(
            line(None),
            "db-coding-agent │ write the migration │ ██████░░░░ 62% ≈4 left"
        );
        assert_eq!(line(Some(40)), "db-coding-agent │ ██████░░░░ 62% ≈4 left");
        assert_eq!(line(Some(20)), "██████░░░░ 62%");
        for cols in 14..80 {
            assert!(width::cells(&line(Some(cols))) <= cols, "{cols}: {}", line(Some(cols)));
        }
        let coloured = row("db", "migrate", 62, None, None, true);
        assert!(coloured.contains("\x1b[33m██████░░░░ 62%\x1b[0m"), "{coloured:?}");
        let hostile = row("a\x1b[2Jb", "line\nbreak\u{202e}", 10, None, None, false);
        assert_eq!(hostile, "a[2Jb │ linebreak │ █░░░░░░░░░ 10%");
    }

    #[test]
    fn the_band_says_the_forecast_in_words_where_they_fit() {
        let text = |runs: &[TextRun]| runs.iter().map(|r| r.text.as_str()).collect::<String>();
        let wide = band("context", 83, Some(&FORECAST), 200, true);
        assert_eq!(
            text(&wide),
            "context │ ████████░░ 83% At the recent rate (about 12k tokens per request), about 4 more \
             requests fit before compaction."
        );
        let bar = wide.iter().find(|r| r.text.contains("83%")).unwrap();
        assert_eq!(bar.color, Some("red"));
        assert!(wide[0].dim_color, "the label is dim");
        assert_eq!(
            text(&band("context", 83, Some(&FORECAST), 40, true)),
            "context │ ████████░░ 83% ≈4 left"
        );
        assert_eq!(text(&band("context", 83, Some(&FORECAST), 16, true)), "████████░░ 83%");
        let plain = band("context", 40, None, 80, false);
        assert!(plain.iter().all(|r| r.color.is_none() && !r.dim_color && !r.bold));
        assert_eq!(
            serde_json::to_value(&wide[0]).unwrap(),
            serde_json::json!({"text": "context", "dimColor": true})
        );
    }

    #[test]
    fn a_line_with_ansi_styles_becomes_styled_runs() {
        let runs = TextRun::runs_of("   2  \x1b[31m███▌\x1b[0m  52k  Read a.sql", true);
        let texts: Vec<&str> = runs.iter().map(|r| r.text.as_str()).collect();
        assert_eq!(texts, ["   2  ", "███▌", "  52k  Read a.sql"]);
        assert_eq!(
            runs.iter().map(|r| r.color).collect::<Vec<_>>(),
            [None, Some("red"), None]
        );
        let plain = TextRun::runs_of("\x1b[32m█\x1b[0m", false);
        assert_eq!((plain.len(), plain[0].color), (1, None));
        assert!(TextRun::runs_of("", true).is_empty());
    }
}
