//! The words of a handoff: a one-paragraph `summary` and `contextForNext`, the text the next
//! agent is given. Both name concrete things (tables with their columns, endpoints with
//! their methods, …) in the finished agent's domain first, and stay within a budget: long
//! lists are cut with a count of what was left out and where to find it.

use super::facts::Facts;
use super::read::ReadStats;
use super::ticket::Ticket;

/// Longest `contextForNext`, in characters: several agents' handoffs fit in the 10,000
/// characters Claude Code accepts from one hook.
pub const CONTEXT_BUDGET: usize = 3_000;
/// Longest line of `contextForNext`.
const LINE_BUDGET: usize = 600;
/// The summary's prefix when nothing was extracted (BMAD's fallback).
pub const UNSTRUCTURED: &str = "(unstructured) ";
/// Names listed per kind in the summary.
const SUMMARY_NAMES: usize = 4;

/// Who the handoff is from, for both texts.
pub struct Heading<'a> {
    pub agent: &'a str,
    pub domain: Option<&'a str>,
    pub ticket: Option<&'a Ticket>,
}

impl Heading<'_> {
    fn text(&self) -> String {
        let mut text = self.agent.to_owned();
        if let Some(domain) = self.domain {
            text.push_str(&format!(" ({domain})"));
        }
        if let Some(label) = self.ticket.and_then(Ticket::label) {
            text.push_str(&format!(" for {label}"));
        }
        text
    }
}

/// What a run did, in words: `(summary, contextForNext)`.
pub struct Texts {
    pub summary: String,
    pub context_for_next: String,
}

/// Both texts of a handoff (the sections are built once for both).
pub fn texts(
    heading: &Heading<'_>,
    facts: &Facts,
    files: usize,
    stats: &ReadStats,
    message: Option<&str>,
    run_id: Option<&str>,
) -> Texts {
    let sections = sections(facts, heading.domain);
    Texts {
        summary: summary(heading, facts, &sections, files, stats, message),
        context_for_next: context_for_next(heading, facts, &sections, message, run_id),
    }
}

/// The summary: who, for which ticket, how many files, and the names by kind.
fn summary(
    heading: &Heading<'_>,
    facts: &Facts,
    sections: &[Section],
    files: usize,
    stats: &ReadStats,
    message: Option<&str>,
) -> String {
    if facts.is_empty() {
        return format!("{UNSTRUCTURED}{}", message.unwrap_or("").trim());
    }
    let counts: Vec<String> = sections
        .iter()
        .filter(|s| s.in_summary)
        .map(|s| {
            let shown: Vec<&str> = s.names.iter().take(SUMMARY_NAMES).map(String::as_str).collect();
            let more = if s.names.len() > SUMMARY_NAMES { ", …" } else { "" };
            format!("{} {} ({}{more})", s.names.len(), s.noun(), shown.join(", "))
        })
        .collect();
    let mut text = format!(
        "{} changed {files} file{}: {}.",
        heading.text(),
        if files == 1 { "" } else { "s" },
        counts.join("; ")
    );
    if !facts.unparsed.is_empty() {
        text.push_str(&format!(" {} could not be parsed.", facts.unparsed.len()));
    }
    if let Some(skipped) = stats.describe_skipped() {
        text.push_str(&format!(" Files {skipped}."));
    }
    text
}

/// `contextForNext`: a heading line, then one line per item the next agent needs, within
/// [`CONTEXT_BUDGET`].
fn context_for_next(
    heading: &Heading<'_>,
    facts: &Facts,
    sections: &[Section],
    message: Option<&str>,
    run_id: Option<&str>,
) -> String {
    let mut lines = vec![format!("Handoff from {}:", heading.text())];
    if facts.is_empty() {
        lines.push(format!(
            "{UNSTRUCTURED}{}",
            message.unwrap_or("(no final message)").trim()
        ));
    } else {
        for section in sections {
            lines.push(format!("{}:", section.title));
            lines.extend(section.lines.iter().map(|l| format!("- {l}")));
            if section.hidden > 0 {
                lines.push(format!("- … {} more", section.hidden));
            }
        }
        lines.push("Use these exact names; the files listed hold the details.".into());
    }
    if !facts.unparsed.is_empty() {
        lines.push("Not parsed (read these by hand):".into());
        lines.extend(facts.unparsed.iter().map(|u| format!("- {u}")));
    }
    fit(lines, CONTEXT_BUDGET, run_id)
}

/// Joins `lines`, cutting long lines and, past `budget`, the tail (with a note of how many
/// lines were left out and how to see them).
fn fit(lines: Vec<String>, budget: usize, run_id: Option<&str>) -> String {
    let more = |n: usize| {
        let how = run_id.map_or("`baton bridge --json`".to_owned(), |id| {
            format!("`baton bridge --agent {id} --json`")
        });
        format!(
            "… {n} more line{} left out; {how} has everything.",
            if n == 1 { "" } else { "s" }
        )
    };
    let total = lines.len();
    let mut out = String::new();
    for (i, line) in lines.into_iter().enumerate() {
        let line = clip(&line, LINE_BUDGET);
        let reserve = if i + 1 < total {
            more(total - i).chars().count() + 1
        } else {
            0
        };
        if out.chars().count() + line.chars().count() + 1 + reserve > budget && i > 0 {
            out.push_str(&more(total - i));
            return out;
        }
        out.push_str(&line);
        out.push('\n');
    }
    out.trim_end().to_owned()
}

fn clip(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}

mod sections;
#[cfg(test)]
mod tests;

use sections::{Section, sections};
