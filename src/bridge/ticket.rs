//! The ticket a run worked on (`--ticket FILE|TEXT`): its id and title, which frame the
//! summary. A file is a story or issue in Markdown (frontmatter `id`/`title`, else its
//! first heading); a text is read like a heading. Ids: `PROJ-42`, `#123`, `Story 1.3`.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::safe::bounded;
use crate::error::{Error, Result};
use crate::planning::state::split_frontmatter;

/// Largest ticket file read.
const MAX_TICKET_BYTES: u64 = 1024 * 1024;
/// Longest title kept.
const MAX_TITLE_CHARS: usize = 120;

/// A ticket's id and title.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Ticket {
    pub id: Option<String>,
    pub title: Option<String>,
    /// The ticket file, when one was given.
    pub file: Option<String>,
}

/// Reads `--ticket`: a file when `arg` names one (relative to `cwd`), else the text itself.
pub fn read(arg: &str, cwd: &Path) -> Result<Ticket> {
    let path = cwd.join(arg);
    if arg.len() < 4096 && path.is_file() {
        let bytes = crate::fsx::read_regular(&path, MAX_TICKET_BYTES).map_err(|e| Error::io(&path, e))?;
        let mut ticket = parse(&String::from_utf8_lossy(&bytes));
        ticket.file = Some(arg.to_owned());
        return Ok(ticket);
    }
    Ok(parse(arg))
}

/// The id and title of a ticket's text.
pub fn parse(text: &str) -> Ticket {
    let (front, body) = split_frontmatter(text.trim_start_matches('\u{feff}'));
    let field = |keys: &[&str]| {
        front
            .unwrap_or("")
            .lines()
            .filter_map(|l| l.split_once(':'))
            .find(|(k, _)| keys.contains(&k.trim().to_ascii_lowercase().as_str()))
            .map(|(_, v)| v.trim().trim_matches(['"', '\'']).to_owned())
            .filter(|v| !v.is_empty())
    };
    let heading = body
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("# "))
        .or_else(|| body.lines().map(str::trim).find(|l| !l.is_empty()))
        .map(|l| {
            let marks = l.len() - l.trim_start_matches('#').len();
            match l[marks..].strip_prefix(' ') {
                Some(text) if marks > 0 => text.trim(),
                _ => l,
            }
        });
    let (heading_id, heading_title) = heading.map(split_heading).unwrap_or_default();
    Ticket {
        id: field(&["id", "key", "ticket", "story_id", "issue"]).or(heading_id),
        title: field(&["title", "name", "summary"])
            .or(heading_title)
            .map(|t| bounded(&t, MAX_TITLE_CHARS).0),
        file: None,
    }
}

/// `("PROJ-42", "Add invoices")` from `PROJ-42: Add invoices`, `[PROJ-42] Add invoices`,
/// `Story 1.3: Add invoices`, `#123 Add invoices`; a heading without an id is all title.
fn split_heading(line: &str) -> (Option<String>, Option<String>) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let bare = |w: &str| {
        w.trim_matches(|c| matches!(c, '[' | ']' | '(' | ')' | ':' | ','))
            .to_owned()
    };
    let (id, used) = match words.as_slice() {
        [kind, id, ..]
            if ["story", "ticket", "issue", "task", "bug", "epic"].contains(&kind.to_ascii_lowercase().as_str())
                && bare(id)
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphanumeric() || c == '#') =>
        {
            (Some(bare(id)), 2)
        }
        [first, ..] if is_key(&bare(first)) => (Some(bare(first)), 1),
        _ => (None, 0),
    };
    let title = words[used..].join(" ");
    let title = title.trim_start_matches([':', '-', '—', '–', '|']).trim().to_owned();
    (id, (!title.is_empty()).then_some(title))
}

/// `PROJ-42` (letters, then digits after a dash) or `#123`.
fn is_key(word: &str) -> bool {
    if let Some(number) = word.strip_prefix('#') {
        return !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit());
    }
    let Some((project, number)) = word.split_once('-') else {
        return false;
    };
    project.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && project.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
        && !number.is_empty()
        && number.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(text: &str) -> (Option<String>, Option<String>) {
        let t = parse(text);
        (t.id, t.title)
    }

    fn some(id: Option<&str>, title: Option<&str>) -> (Option<String>, Option<String>) {
        (id.map(str::to_owned), title.map(str::to_owned))
    }

    #[test]
    fn ids_and_titles_from_the_usual_shapes() {
        assert_eq!(
            pair("PROJ-42: Add invoices"),
            some(Some("PROJ-42"), Some("Add invoices"))
        );
        assert_eq!(pair("[PAY-7] Refunds API"), some(Some("PAY-7"), Some("Refunds API")));
        assert_eq!(pair("#123 Fix login"), some(Some("#123"), Some("Fix login")));
        assert_eq!(pair("Add a dark mode"), some(None, Some("Add a dark mode")));
        let story = "# Story 1.3: Invoice tables\n\nStatus: ready\n\n## Story\nAs a …";
        assert_eq!(pair(story), some(Some("1.3"), Some("Invoice tables")));
        let front = "---\nid: BILL-12\ntitle: \"Invoices: schema\"\n---\n# Something else\n";
        assert_eq!(pair(front), some(Some("BILL-12"), Some("Invoices: schema")));
    }

    #[test]
    fn a_file_argument_is_read() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("story.md"), "# PROJ-9 Orders\n").unwrap();
        let t = read("story.md", tmp.path()).unwrap();
        assert_eq!(
            (t.id.as_deref(), t.title.as_deref(), t.file.as_deref()),
            (Some("PROJ-9"), Some("Orders"), Some("story.md"))
        );
        assert_eq!(
            read("no such file", tmp.path()).unwrap().title.as_deref(),
            Some("no such file")
        );
    }
}
