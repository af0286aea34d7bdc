//! Markdown sections of GSD's files: headings and the list items under them.

/// A heading and the lines up to the next heading of the same or a higher level.
#[derive(Debug, Clone, PartialEq)]
pub struct Section<'a> {
    pub level: usize,
    pub title: &'a str,
    pub lines: Vec<&'a str>,
}

/// Splits markdown into sections (text before the first heading is skipped).
pub fn sections(text: &str) -> Vec<Section<'_>> {
    let mut out: Vec<Section<'_>> = Vec::new();
    for line in text.lines() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if let Some((level, title)) = heading(line) {
            out.push(Section {
                level,
                title,
                lines: Vec::new(),
            });
        } else if let Some(current) = out.last_mut() {
            current.lines.push(line);
        }
    }
    out
}

/// `## Title` → (2, "Title").
pub fn heading(line: &str) -> Option<(usize, &str)> {
    let level = line.bytes().take_while(|&b| b == b'#').count();
    if level == 0 || level > 6 {
        return None;
    }
    let rest = &line[level..];
    rest.starts_with(' ').then(|| (level, rest.trim()))
}

/// The list items (`- x`, `* x`, `1. x`) of a section, text only; placeholders such as
/// "None", "None yet." and "[none]" are left out.
pub fn list_items(lines: &[&str]) -> Vec<String> {
    lines
        .iter()
        .filter_map(|line| {
            let t = line.trim();
            let item = t.strip_prefix("- ").or_else(|| t.strip_prefix("* ")).or_else(|| {
                t.split_once(". ")
                    .filter(|(n, _)| n.bytes().all(|b| b.is_ascii_digit()) && !n.is_empty())
                    .map(|(_, r)| r)
            })?;
            let item = item.trim();
            let bare = item
                .trim_matches(|c: char| c == '[' || c == ']' || c == '.' || c == '*' || c == '_')
                .to_ascii_lowercase();
            (!item.is_empty()
                && !matches!(
                    bare.as_str(),
                    "none" | "none yet" | "n/a" | "nothing" | "none identified"
                ))
            .then(|| item.to_owned())
        })
        .collect()
}

/// The items of the first section whose title contains `needle` (case-insensitive).
pub fn items_under(text: &str, needle: &str) -> Vec<String> {
    let needle = needle.to_ascii_lowercase();
    sections(text)
        .iter()
        .find(|s| s.title.to_ascii_lowercase().contains(&needle))
        .map(|s| list_items(&s.lines))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_items_and_skips_placeholders() {
        let text = "# State\n\n## Accumulated Context\n\n### Decisions\n\n- Use JWT\n- [Phase 2]: Postgres\n\n\
                    ### Blockers/Concerns\r\n\r\nNone yet.\r\n- None\r\n* API key for Stripe missing\r\n";
        assert_eq!(items_under(text, "decisions"), vec!["Use JWT", "[Phase 2]: Postgres"]);
        assert_eq!(items_under(text, "blockers"), vec!["API key for Stripe missing"]);
        assert!(items_under(text, "todos").is_empty());
    }
}
