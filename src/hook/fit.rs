//! Fitting text into Claude Code's cap on hook context. The client measures
//! `additionalContext` in UTF-16 code units (a JavaScript string's length) and replaces a
//! text over the cap by a 2 KB preview; so a long text is trimmed here first, by whole lines,
//! from its least important parts, and says what it left out.

/// A part of a text to fit, with how much it matters.
#[derive(Debug, Clone, PartialEq)]
pub struct Section {
    /// What the part is, for the line that says what was left out ("Decisions").
    pub name: String,
    /// Its text; a line is what ends in `\n` (or the end of the text).
    pub text: String,
    /// Higher ranks go first: lines are left out from the highest rank down, within a rank
    /// from the last section, within a section from its last line.
    pub rank: u8,
    /// The first line is a heading: it goes with the section's last item.
    pub heading: bool,
}

impl Section {
    /// A section of `rank` holding `text`.
    pub fn new(name: &str, rank: u8, text: String) -> Self {
        Self {
            name: name.to_owned(),
            text,
            rank,
            heading: false,
        }
    }

    /// The same section, its first line a heading for the lines below it.
    pub fn with_heading(mut self) -> Self {
        self.heading = true;
        self
    }
}

/// The length Claude Code measures: UTF-16 code units (an emoji outside the BMP is 2).
pub fn utf16_len(text: &str) -> usize {
    text.chars().map(char::len_utf16).sum()
}

/// Joins `sections` (in display order) into a text of at most `budget` UTF-16 units. When
/// they do not fit, whole lines are left out by rank (see [`Section::rank`]) and a last line
/// says what went and adds `more` (where to read the whole). Only when even that line cannot
/// fit is a line cut, at a character boundary.
pub fn fit(sections: &[Section], budget: usize, more: &str) -> String {
    let lines: Vec<Vec<&str>> = sections
        .iter()
        .map(|s| s.text.split_inclusive('\n').collect())
        .collect();
    let whole: String = sections.iter().map(|s| s.text.as_str()).collect();
    if utf16_len(&whole) <= budget {
        return whole;
    }
    let mut kept: Vec<Vec<bool>> = lines.iter().map(|l| vec![true; l.len()]).collect();
    let mut gone = vec![0; sections.len()];
    let mut size = utf16_len(&whole);
    let mut order: Vec<usize> = (0..sections.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(sections[i].rank), std::cmp::Reverse(i)));
    'trim: for &s in &order {
        for l in (0..lines[s].len()).rev() {
            // A heading left alone goes with the last line under it.
            let with_heading = sections[s].heading && l == 1;
            for drop in if with_heading { 0..2 } else { l..l + 1 } {
                kept[s][drop] = false;
                gone[s] += 1;
                size -= utf16_len(lines[s][drop]);
            }
            if size + utf16_len(&omission(sections, &lines, &gone, more)) <= budget {
                break 'trim;
            }
            if with_heading {
                break;
            }
        }
    }
    let mut out = String::new();
    for (s, section_lines) in lines.iter().enumerate() {
        for (l, line) in section_lines.iter().enumerate() {
            if kept[s][l] {
                out.push_str(line);
            }
        }
    }
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&omission(sections, &lines, &gone, more));
    cut(&out, budget).to_owned()
}

/// `[Left out to fit Claude Code's limit on hook context: Decisions (all 12 lines), Notes
/// (the last 3 of 5 lines). <more>]`
fn omission(sections: &[Section], lines: &[Vec<&str>], gone: &[usize], more: &str) -> String {
    let parts: Vec<String> = sections
        .iter()
        .zip(lines.iter().zip(gone))
        .filter_map(|(section, (lines, &gone))| match gone {
            0 => None,
            1 if lines.len() == 1 => Some(format!("{} (its one line)", section.name)),
            _ if gone == lines.len() => Some(format!("{} (all {gone} lines)", section.name)),
            1 => Some(format!("{} (the last of {} lines)", section.name, lines.len())),
            _ => Some(format!("{} (the last {gone} of {} lines)", section.name, lines.len())),
        })
        .collect();
    let more = if more.is_empty() {
        String::new()
    } else {
        format!(" {more}")
    };
    format!(
        "[Left out to fit Claude Code's limit on hook context: {}.{more}]\n",
        parts.join(", ")
    )
}

/// The longest prefix of `text` of at most `budget` UTF-16 units (never half a character).
pub fn cut(text: &str, budget: usize) -> &str {
    let mut units = 0;
    for (at, c) in text.char_indices() {
        units += c.len_utf16();
        if units > budget {
            return &text[..at];
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(name: &str, rank: u8, items: usize, item: &str) -> Section {
        let mut text = format!("{name}:\n");
        for i in 0..items {
            text.push_str(&format!("  - {i} {item}\n"));
        }
        Section::new(name, rank, text).with_heading()
    }

    #[test]
    fn counts_what_claude_code_counts() {
        assert_eq!(utf16_len("abc"), 3);
        assert_eq!(utf16_len("é"), 1);
        assert_eq!(utf16_len("😀"), 2);
        assert_eq!(utf16_len(&"😀".repeat(5_000)), 10_000);
    }

    #[test]
    fn a_text_that_fits_is_left_whole() {
        let sections = [Section::new("A", 0, "one\n".into()), list("B", 1, 3, "x")];
        assert_eq!(fit(&sections, 100, "more"), "one\nB:\n  - 0 x\n  - 1 x\n  - 2 x\n");
    }

    #[test]
    fn leaves_out_whole_lines_of_the_highest_rank_first_and_says_so() {
        let sections = [
            Section::new("Head", 0, "Resuming.\n".into()),
            list("Blockers", 0, 3, "🚧 blocked"),
            list("Decisions", 3, 200, "😀 decided something"),
            Section::new("Next", 0, "Next action: ship it\n".into()),
            list("Notes", 2, 5, "note"),
        ];
        let text = fit(&sections, 1_000, "`baton resume --keep` shows it all.");
        assert!(utf16_len(&text) <= 1_000, "{}", utf16_len(&text));
        for kept in [
            "Resuming.",
            "  - 2 🚧 blocked",
            "Next action: ship it",
            "  - 4 note",
            "  - 0 😀",
        ] {
            assert!(text.contains(kept), "{kept:?} missing:\n{text}");
        }
        assert!(!text.contains("  - 199 😀"), "{text}");
        let last = text.lines().last().unwrap();
        assert!(
            last.starts_with("[Left out to fit Claude Code's limit on hook context: Decisions (the last ")
                && last.ends_with(" of 201 lines). `baton resume --keep` shows it all.]"),
            "{last}"
        );
        // Every other line is a whole line of the input.
        let whole: String = sections.iter().map(|s| s.text.clone()).collect();
        for line in text.lines().filter(|l| *l != last) {
            assert!(whole.lines().any(|w| w == line), "{line:?} is not a whole line");
        }
    }

    #[test]
    fn a_section_that_goes_entirely_takes_its_heading() {
        let sections = [
            Section::new("Head", 0, "Head line\n".into()),
            list("Decisions", 3, 50, "decided"),
            list("Notes", 2, 2, "n"),
        ];
        let text = fit(&sections, 120, "");
        assert!(!text.contains("Decisions:"), "{text}");
        assert!(text.contains("Decisions (all 51 lines)"), "{text}");
        assert!(text.contains("Notes:\n  - 0 n\n  - 1 n\n"), "{text}");
        assert!(utf16_len(&text) <= 120);
    }

    #[test]
    fn never_exceeds_the_budget_even_when_only_rank_0_is_left() {
        let sections = [Section::new("Blockers", 0, "😀".repeat(300) + "\n" + &"b\n".repeat(50))];
        for budget in [0, 5, 80, 150, 700] {
            let text = fit(&sections, budget, "more");
            assert!(utf16_len(&text) <= budget, "{budget}: {text}");
            assert!(!text.contains('\u{FFFD}'));
        }
    }
}
