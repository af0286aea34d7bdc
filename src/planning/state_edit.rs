//! Targeted edits of STATE.md: baton owns a few session-continuity fields (frontmatter
//! `stopped_at`, `paused_at`; the body's `Last session:`, `Stopped at:`, `Resume file:`)
//! and changes only their lines. Every other byte, line ending and order stays as it was
//! (gsd-core's `state_head`, `last_activity_desc`, its quoted `gsd_state_version`). A key baton
//! ends is deleted, not set to `null`: gsd-core's tools read a YAML null back as "null".

use std::path::PathBuf;

use super::Project;
use super::sections::heading;
use serde_norway::{Mapping, Value as Yaml};

use super::state::{BOM, MAX_STATE_BYTES, frontmatter_close, split_frontmatter};
use super::yaml;
use crate::error::{Error, Result};
use crate::fsx;

/// The body section baton writes to.
pub const CONTINUITY_SECTION: &str = "Session Continuity";

/// The one read-modify-write of STATE.md: reads it (at most [`MAX_STATE_BYTES`]), applies
/// `edit` to its text and writes the result atomically when it changed. `Ok(None)` when there
/// is no STATE.md; an error naming the file when it is unreadable, too large or not UTF-8
/// (such a file is left untouched rather than rewritten lossily), or when it is a link (the
/// project's rule for links, `planning::files`). It keeps its mode. The caller holds the
/// project's `planning` lock.
pub fn update(project: &Project, edit: impl FnOnce(&str) -> String) -> Result<Option<PathBuf>> {
    let path = path(project);
    project.check_writable(&path)?;
    let bytes = match fsx::read_regular(&path, MAX_STATE_BYTES) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::io(&path, e)),
    };
    let Ok(text) = String::from_utf8(bytes) else {
        return Err(Error::invalid(&path, "is not UTF-8 text; baton leaves it untouched"));
    };
    let edited = edit(&text);
    if edited != text {
        project.write_file(&path, edited.as_bytes())?;
    }
    Ok(Some(path))
}

/// `<root>/.planning/STATE.md`.
pub fn path(project: &Project) -> PathBuf {
    project.live_dir().join("STATE.md")
}

/// The file's line ending: CRLF when it has any, else LF.
fn line_ending(text: &str) -> &'static str {
    if text.contains("\r\n") { "\r\n" } else { "\n" }
}

/// A YAML scalar for a frontmatter value: a double-quoted string (valid YAML).
fn yaml_value(value: &str) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "\"\"".to_owned())
}

/// Byte ranges of the lines of `text`, each including its line ending.
fn line_spans(text: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut start = 0;
    for piece in text.split_inclusive('\n') {
        spans.push((start, start + piece.len()));
        start += piece.len();
    }
    spans
}

fn content(line: &str) -> &str {
    line.trim_end_matches('\n').trim_end_matches('\r')
}

/// Sets `key: value` in the YAML frontmatter, replacing the key's line (and any indented
/// continuation lines) or inserting it before the closing `---`. A file without
/// frontmatter, or whose frontmatter never closes before the body, is returned unchanged:
/// baton does not invent one. A leading BOM stays.
pub fn set_frontmatter_value(text: &str, key: &str, value: &str) -> String {
    let edited = match text.strip_prefix(BOM) {
        // One BOM only, as the reader skips: a second one is text, and the file has no frontmatter.
        Some(unmarked) => format!("{BOM}{}", set_unmarked_frontmatter_value(unmarked, key, value)),
        None => set_unmarked_frontmatter_value(text, key, value),
    };
    checked(text, edited, key, Some(value))
}

/// Deletes `key`'s lines (and their indented continuation lines) from the YAML frontmatter:
/// every one of them, when a hand edit left the key twice, so that a second removal finds
/// nothing. A text without the key, or without a frontmatter that closes, is returned
/// unchanged.
pub fn remove_frontmatter_value(text: &str, key: &str) -> String {
    let (bom, mut unmarked) = match text.strip_prefix(BOM) {
        Some(unmarked) => (BOM.to_string(), unmarked.to_owned()),
        None => (String::new(), text.to_owned()),
    };
    // Each pass removes at least one line, so this ends.
    while let Some(shorter) = remove_first_key(&unmarked, key) {
        unmarked = shorter;
    }
    checked(text, format!("{bom}{unmarked}"), key, None)
}

/// `edited` when the line edit did what YAML reads: where `text`'s frontmatter is a mapping
/// the parser reads, the edited one must read too, with `key` set to `value` (or gone, for
/// `None`) and every other key as it was. Otherwise `text` unchanged: a key spelled in a way
/// the line edit does not see (an explicit `? key`, a flow mapping, an escape in its quotes)
/// is left alone rather than written twice.
fn checked(text: &str, edited: String, key: &str, value: Option<&str>) -> String {
    let mapping = |t: &str| split_frontmatter(t).0.and_then(|fm| yaml::parse::<Mapping>(fm).ok());
    if edited == text {
        return edited;
    }
    let Some(mut before) = mapping(text) else {
        return edited;
    };
    let Some(after) = mapping(&edited) else {
        return text.to_owned();
    };
    match value {
        Some(value) => before.insert(Yaml::from(key), Yaml::from(value)),
        None => before.remove(key),
    };
    if after == before { edited } else { text.to_owned() }
}

/// `text` without the first frontmatter occurrence of `key`, or `None` when there is none.
fn remove_first_key(text: &str, key: &str) -> Option<String> {
    let (spans, close) = editable_frontmatter(text)?;
    let (first, end) = key_lines(text, &spans, close, key)?;
    Some(format!("{}{}", &text[..spans[first].0], &text[spans[end - 1].1..]))
}

/// The mapping's own indentation in a frontmatter closing at line `close` (GSD writes none).
fn mapping_indent<'a>(text: &'a str, spans: &[(usize, usize)], close: usize) -> &'a str {
    (1..close)
        .map(|i| content(&text[spans[i].0..spans[i].1]))
        .find(|line| !line.trim().is_empty() && !line.trim_start().starts_with('#'))
        .map_or("", |line| {
            &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
        })
}

/// The lines `first..end` of `key` in the frontmatter: its own and its deeper continuations.
fn key_lines(text: &str, spans: &[(usize, usize)], close: usize, key: &str) -> Option<(usize, usize)> {
    let indent = mapping_indent(text, spans, close);
    let first = (1..close).find(|&i| {
        content(&text[spans[i].0..spans[i].1])
            .strip_prefix(indent)
            .is_some_and(|rest| starts_with_key(rest, key))
    })?;
    let deeper = |line: &str| {
        line.strip_prefix(indent)
            .is_some_and(|rest| rest.starts_with([' ', '\t']))
    };
    let mut end = first + 1;
    while end < close && deeper(&text[spans[end].0..spans[end].1]) {
        end += 1;
    }
    Some((first, end))
}

/// Whether a line of the mapping (its indentation removed) is `key`'s own: the key plain,
/// single- or double-quoted, then `:` after optional blanks. After a plain key the `:` must
/// end the line or be followed by a blank, as YAML reads it: `stopped_at:x: y` is the key
/// `stopped_at:x`, and `stopped_at : y` is `stopped_at`.
fn starts_with_key(line: &str, key: &str) -> bool {
    let quoted = |q: char| {
        line.strip_prefix(q)
            .and_then(|rest| rest.strip_prefix(key))
            .and_then(|rest| rest.strip_prefix(q))
    };
    let (rest, plain) = match (quoted('"'), quoted('\'')) {
        (Some(rest), _) | (_, Some(rest)) => (rest, false),
        _ => match line.strip_prefix(key) {
            Some(rest) => (rest, true),
            None => return false,
        },
    };
    let Some(value) = rest.trim_start_matches([' ', '\t']).strip_prefix(':') else {
        return false;
    };
    !plain || value.is_empty() || value.starts_with([' ', '\t'])
}

/// [`set_frontmatter_value`] on a text whose leading BOM, if any, is removed.
fn set_unmarked_frontmatter_value(text: &str, key: &str, value: &str) -> String {
    let Some((spans, close)) = editable_frontmatter(text) else {
        return text.to_owned();
    };
    let eol = line_ending(text);
    // At the mapping's own indentation: a key set at another one would end the mapping and
    // break the YAML.
    let indent = mapping_indent(text, &spans, close);
    let new_line = format!("{indent}{key}: {}", yaml_value(value));
    match key_lines(text, &spans, close, key) {
        Some((i, end)) => {
            let own_eol = &text[spans[i].0 + content(&text[spans[i].0..spans[i].1]).len()..spans[i].1];
            format!(
                "{}{}{}{}",
                &text[..spans[i].0],
                new_line,
                own_eol,
                &text[spans[end - 1].1..]
            )
        }
        None => {
            let at = insertion_line(text, &spans, close);
            format!("{}{}{}{}", &text[..spans[at].0], new_line, eol, &text[spans[at].0..])
        }
    }
}

/// The line spans of `text` and the line that closes its frontmatter, when it has one that
/// baton's line edits can see whole (no [hidden line break](has_hidden_line_break)).
fn editable_frontmatter(text: &str) -> Option<(Vec<(usize, usize)>, usize)> {
    let spans = line_spans(text);
    let close = frontmatter_close(spans.iter().map(|&(s, e)| content(&text[s..e])))?;
    (!has_hidden_line_break(&text[spans[0].1..spans[close].0])).then_some((spans, close))
}

/// Whether `frontmatter` breaks lines where baton's line edits do not see it: YAML also ends a
/// line at a lone CR, NEL, LS and PS. Such a frontmatter (no tool writes one) is left as it is
/// rather than edited blind, where a key's line could be missed and the key written twice.
pub fn has_hidden_line_break(frontmatter: &str) -> bool {
    let bytes = frontmatter.as_bytes();
    let lone_cr = bytes
        .iter()
        .enumerate()
        .any(|(i, &b)| b == b'\r' && bytes.get(i + 1) != Some(&b'\n'));
    lone_cr || frontmatter.contains(['\u{85}', '\u{2028}', '\u{2029}'])
}

/// Where a new key goes: before the closing `---`, or before a YAML document-end marker
/// (`...`) when the frontmatter has one, since a key after it would start a second document.
fn insertion_line(text: &str, spans: &[(usize, usize)], close: usize) -> usize {
    let ends_document = |line: &str| {
        line.strip_prefix("...")
            .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '\t']))
    };
    (1..close)
        .find(|&i| ends_document(content(&text[spans[i].0..spans[i].1])))
        .unwrap_or(close)
}

/// Sets `label value` (e.g. `Stopped at: …`) in the Session Continuity section: the
/// existing line keeps its prefix (bullet, bold) and ending; a missing line is added at the
/// end of the section; a missing section is appended to the file.
pub fn set_continuity_line(text: &str, label: &str, value: &str) -> String {
    let value = value.replace(['\r', '\n'], " ");
    let eol = line_ending(text);
    let spans = line_spans(text);
    let section = spans.iter().position(|&(s, e)| {
        heading(content(&text[s..e])).is_some_and(|(_, t)| {
            t.to_ascii_lowercase()
                .contains(&CONTINUITY_SECTION.to_ascii_lowercase())
        })
    });
    let Some(start) = section else {
        let sep = if text.is_empty() || text.ends_with('\n') {
            ""
        } else {
            eol
        };
        let gap = if text.is_empty() { "" } else { eol };
        return format!("{text}{sep}{gap}## {CONTINUITY_SECTION}{eol}{eol}{label} {value}{eol}");
    };
    let level = heading(content(&text[spans[start].0..spans[start].1])).map_or(2, |(l, _)| l);
    let end = (start + 1..spans.len())
        .find(|&i| heading(content(&text[spans[i].0..spans[i].1])).is_some_and(|(l, _)| l <= level))
        .unwrap_or(spans.len());
    for i in start + 1..end {
        let line = content(&text[spans[i].0..spans[i].1]);
        if let Some(label_end) = label_position(line, label) {
            let own_eol = &text[spans[i].0 + line.len()..spans[i].1];
            let kept = &line[..label_end];
            return format!("{}{kept} {value}{own_eol}{}", &text[..spans[i].0], &text[spans[i].1..]);
        }
    }
    // Insert after the section's last non-blank line.
    let last = (start..end)
        .rev()
        .find(|&i| !content(&text[spans[i].0..spans[i].1]).trim().is_empty())
        .unwrap_or(start);
    let at = spans[last].1;
    let needs_eol = !text[..at].ends_with('\n');
    let lead = if needs_eol { eol } else { "" };
    let blank = if last == start { eol } else { "" };
    format!("{}{lead}{blank}{label} {value}{eol}{}", &text[..at], &text[at..])
}

/// Where the label (with an optional bullet and bold markers) ends in `line`.
fn label_position(line: &str, label: &str) -> Option<usize> {
    let bare = label.trim_end_matches(':');
    let trimmed = line.trim_start();
    let indent = line.len() - trimmed.len();
    let after_bullet = trimmed
        .strip_prefix("- ")
        .or_else(|| trimmed.strip_prefix("* "))
        .unwrap_or(trimmed);
    let offset = indent + (trimmed.len() - after_bullet.len());
    for form in [format!("{bare}:"), format!("**{bare}:**"), format!("**{bare}**:")] {
        if after_bullet.starts_with(&form) {
            return Some(offset + form.len());
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const STATE: &str = "---\r\ngsd_state_version: 1.0\r\nmilestone: v1.2\r\nstopped_at: old\r\n  continued\r\nstatus: executing\r\n---\r\n\r\n\
        # Project State\r\n\r\n## Current Position\r\n\r\nPhase: 3 of 8 (API)\r\n\r\n## Session Continuity\r\n\r\n\
        Last session: 2026-11-01\r\n**Stopped at:** Completed 03-01\r\nResume file: None\r\n\r\n## Notes\r\nkeep me  \r\n";

    /// Lines that baton does not own, in order.
    fn foreign(text: &str) -> Vec<&str> {
        text.split_inclusive('\n')
            .filter(|l| {
                ![
                    "stopped_at:",
                    "paused_at:",
                    "  continued",
                    "Last session:",
                    "**Stopped at:**",
                    "Stopped at:",
                    "Resume file:",
                ]
                .iter()
                .any(|p| l.starts_with(p))
            })
            .collect()
    }

    #[test]
    fn a_frontmatter_with_line_breaks_the_lines_do_not_show_is_left_alone() {
        for text in [
            "---\nstatus: x\n\r  paused_at: old\n---\nbody\n",
            "---\nstatus: x\u{2028}paused_at: old\n---\nbody\n",
        ] {
            assert_eq!(set_frontmatter_value(text, "paused_at", "now"), text);
            assert_eq!(remove_frontmatter_value(text, "paused_at"), text);
        }
    }

    #[test]
    fn a_new_key_goes_before_a_document_end_marker() {
        let text = "---\nmilestone: v1\n... # end\n---\nbody\n";
        assert_eq!(
            set_frontmatter_value(text, "paused_at", "now"),
            "---\nmilestone: v1\npaused_at: \"now\"\n... # end\n---\nbody\n"
        );
    }

    #[test]
    fn edits_only_owned_lines_and_keeps_crlf() {
        let mut text = set_frontmatter_value(STATE, "stopped_at", "context exhaustion at 80% (2026-11-30)");
        text = set_frontmatter_value(&text, "paused_at", "2026-11-30T10:00:00Z");
        text = set_continuity_line(&text, "Stopped at:", "Phase 3, plan 2: wiring the API");
        text = set_continuity_line(&text, "Last session:", "2026-11-30");
        assert_eq!(foreign(&text), foreign(STATE));
        assert!(text.contains("stopped_at: \"context exhaustion at 80% (2026-11-30)\"\r\nstatus: executing"));
        assert!(text.contains("paused_at: \"2026-11-30T10:00:00Z\"\r\n---\r\n"));
        assert!(text.contains("**Stopped at:** Phase 3, plan 2: wiring the API\r\n"));
        assert!(text.contains("Last session: 2026-11-30\r\n"));
        assert!(!text.replace("\r\n", "").contains('\n'), "no bare LF was introduced");
        let parsed = crate::planning::state::PlanningState::parse(&text).unwrap();
        assert_eq!(
            parsed.stopped_at.as_deref(),
            Some("context exhaustion at 80% (2026-11-30)")
        );
    }

    #[test]
    fn adds_missing_lines_and_sections_without_frontmatter() {
        let plain = "# State\n\nPhase: 1 of 2\n";
        assert_eq!(set_frontmatter_value(plain, "paused_at", "x"), plain);
        let text = set_continuity_line(plain, "Stopped at:", "somewhere");
        assert_eq!(
            text,
            "# State\n\nPhase: 1 of 2\n\n## Session Continuity\n\nStopped at: somewhere\n"
        );
        let again = set_continuity_line(&text, "Resume file:", ".planning/phases/01-a/.continue-here.md");
        assert!(again.ends_with("Stopped at: somewhere\nResume file: .planning/phases/01-a/.continue-here.md\n"));
        let no_newline = set_continuity_line("## Session Continuity", "Stopped at:", "x");
        assert_eq!(no_newline, "## Session Continuity\n\nStopped at: x\n");
    }

    #[test]
    fn an_unclosed_frontmatter_is_left_alone_and_a_bom_is_kept() {
        let unclosed = "---\nstatus: executing\n\n# State\n\n```yaml\n---\nkey: v\n```\n";
        assert_eq!(set_frontmatter_value(unclosed, "paused_at", "x"), unclosed);
        let bom = "\u{feff}---\r\na: 1\r\n---\r\nbody\r\n";
        assert_eq!(
            set_frontmatter_value(bom, "paused_at", "x"),
            "\u{feff}---\r\na: 1\r\npaused_at: \"x\"\r\n---\r\nbody\r\n"
        );
        // The reader skips one BOM: after two, the file has no frontmatter and is left alone.
        let two = "\u{feff}\u{feff}---\na: 1\n---\n";
        assert_eq!(set_frontmatter_value(two, "paused_at", "x"), two);
    }

    /// Found by fuzzing (fuzz/fuzz_targets/state_md.rs): a frontmatter whose mapping is
    /// indented got the key at column 0, which ends the mapping: the YAML no longer read.
    #[test]
    fn a_key_goes_in_at_the_mappings_own_indentation() {
        let text = "---\r\n  status: executing\r\n  paused_at: old\r\n    more\r\n  percent: 38\r\n---\r\nbody\r\n";
        let edited = set_frontmatter_value(text, "paused_at", "new");
        assert_eq!(
            edited,
            "---\r\n  status: executing\r\n  paused_at: \"new\"\r\n  percent: 38\r\n---\r\nbody\r\n"
        );
        let added = set_frontmatter_value(&edited, "stopped_at", "x");
        assert!(
            added.ends_with("  percent: 38\r\n  stopped_at: \"x\"\r\n---\r\nbody\r\n"),
            "{added}"
        );
        let parsed = crate::planning::state::PlanningState::parse(&added).unwrap();
        assert_eq!(
            (parsed.status.as_deref(), parsed.stopped_at.as_deref()),
            (Some("executing"), Some("x"))
        );
        assert_eq!(parsed.paused_at.as_deref(), Some("new"));
    }

    /// Found by fuzzing (CI, state_md): a key YAML reads as `stopped_at` but written with
    /// blanks before its `:` was not seen, and a second `stopped_at` was added: the YAML no
    /// longer read (a duplicate key). Every spelling of the key is its line, and only those.
    #[test]
    fn a_key_is_found_however_yaml_lets_it_be_spelled() {
        for line in [
            "stopped_at  : old",
            "stopped_at\t: old",
            "\"stopped_at\": old",
            "'stopped_at' : old",
            "stopped_at:",
        ] {
            let text = format!("---\nstatus: x\n{line}\n---\nbody\n");
            assert_eq!(
                set_frontmatter_value(&text, "stopped_at", "new"),
                "---\nstatus: x\nstopped_at: \"new\"\n---\nbody\n",
                "{line}"
            );
            assert_eq!(
                remove_frontmatter_value(&text, "stopped_at"),
                "---\nstatus: x\n---\nbody\n",
                "{line}"
            );
        }
        // Another key that begins with the same letters is not the key.
        let other = "---\nstopped_at:x: kept\nstopped_atlas: kept\n---\n";
        assert_eq!(
            set_frontmatter_value(other, "stopped_at", "new"),
            "---\nstopped_at:x: kept\nstopped_atlas: kept\nstopped_at: \"new\"\n---\n"
        );
    }

    #[test]
    fn a_key_the_line_edit_cannot_see_leaves_the_file_as_it_was() {
        for text in [
            "---\n? stopped_at\n: old\n---\nbody\n",
            "---\n{stopped_at: old, status: x}\n---\nbody\n",
            "---\n\"stopped\\x5fat\": old\n---\nbody\n",
        ] {
            assert_eq!(set_frontmatter_value(text, "stopped_at", "new"), text);
            assert_eq!(remove_frontmatter_value(text, "stopped_at"), text);
        }
    }

    #[test]
    fn an_ended_key_is_deleted_with_its_continuations() {
        let text = "\u{feff}---\r\ngsd_state_version: \"1.0\"\r\npaused_at: \"2026\"\r\n  more\r\nstate_head: abc\r\n---\r\nbody\r\n";
        let removed = remove_frontmatter_value(text, "paused_at");
        assert_eq!(
            removed,
            "\u{feff}---\r\ngsd_state_version: \"1.0\"\r\nstate_head: abc\r\n---\r\nbody\r\n"
        );
        assert_eq!(remove_frontmatter_value(&removed, "paused_at"), removed);
        let twice = "---\npaused_at: a\nstatus: x\npaused_at: b\n  more\n---\nbody\n";
        assert_eq!(
            remove_frontmatter_value(twice, "paused_at"),
            "---\nstatus: x\n---\nbody\n"
        );
        let body_only = "# State\npaused_at: x\n";
        assert_eq!(remove_frontmatter_value(body_only, "paused_at"), body_only);
    }

    #[test]
    fn values_cannot_break_the_file() {
        let text = set_frontmatter_value("---\na: 1\n---\n", "stopped_at", "x\"\n---\nevil: true");
        let (fm, _) = crate::planning::state::split_frontmatter(&text);
        let parsed: serde_norway::Value = serde_norway::from_str(fm.unwrap()).unwrap();
        assert_eq!(parsed["stopped_at"].as_str(), Some("x\"\n---\nevil: true"));
        let body = set_continuity_line("", "Stopped at:", "a\nb");
        assert_eq!(body, "## Session Continuity\n\nStopped at: a b\n");
    }
}
