//! The documentation's links resolve (issue 34): every relative link in README.md, the guide
//! (`docs/`), CONTRIBUTING.md, ARCHITECTURE.md and bench/README.md names a file or folder of
//! the repository, and every `#anchor` into a Markdown file names one of its headings, as
//! GitHub makes anchors from headings. No binary is run.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The repository's root.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every Markdown file a reader is pointed at: the README, the guide and the contributors' notes.
pub fn documents() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = ["README.md", "CONTRIBUTING.md", "ARCHITECTURE.md", "bench/README.md"]
        .iter()
        .map(|f| root().join(f))
        .collect();
    let mut folders = vec![root().join("docs")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The text outside fenced code blocks, one paragraph at a time (a link or a code span can
/// run over lines, never over a blank line).
fn paragraphs(text: &str) -> Vec<String> {
    let mut paragraphs = vec![String::new()];
    let mut fence: Option<&str> = None;
    for line in text.lines() {
        let trimmed = line.trim_start();
        let marker = ["```", "~~~"].into_iter().find(|m| trimmed.starts_with(m));
        match (fence, marker) {
            (None, Some(m)) => fence = Some(m),
            (Some(open), Some(m)) if open == m => fence = None,
            (None, None) if trimmed.is_empty() => paragraphs.push(String::new()),
            (None, None) => {
                let last = paragraphs.last_mut().unwrap();
                last.push_str(line);
                last.push('\n');
            }
            _ => {}
        }
    }
    paragraphs
}

/// A paragraph with each code span replaced by `code`, so that brackets inside code are not
/// read as links while a link whose text holds code still is.
fn without_code_spans(paragraph: &str) -> String {
    let mut out = String::new();
    let mut rest = paragraph;
    while let Some(start) = rest.find('`') {
        out.push_str(&rest[..start]);
        let ticks = rest[start..].len() - rest[start..].trim_start_matches('`').len();
        let opening = &rest[start..start + ticks];
        let after = &rest[start + ticks..];
        match after.find(opening) {
            Some(end) => {
                out.push_str("code");
                rest = &after[end + ticks..];
            }
            None => {
                out.push_str(opening);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The targets of the inline links (`[text](target)`, `![alt](target)`) of a Markdown text.
fn link_targets(text: &str) -> Vec<String> {
    let mut targets = Vec::new();
    for paragraph in paragraphs(text) {
        let paragraph = without_code_spans(&paragraph);
        let mut rest = paragraph.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let target = after.split(')').next().unwrap_or("");
            if rest[..at].contains('[') && !target.is_empty() && !target.contains(char::is_whitespace) {
                targets.push(target.trim_matches(['<', '>']).to_owned());
            }
            rest = after;
        }
    }
    targets
}

/// The anchor GitHub gives a heading: its text (a link's text for the link) in lower case,
/// without punctuation but `-` and `_`, spaces made `-`.
fn anchor(heading: &str) -> String {
    let mut text = String::new();
    let mut rest = heading;
    while let Some(open) = rest.find('[') {
        let Some(close) = rest[open..].find("](").map(|c| open + c) else {
            break;
        };
        let Some(end) = rest[close..].find(')').map(|e| close + e) else {
            break;
        };
        text.push_str(&rest[..open]);
        text.push_str(&rest[open + 1..close]);
        rest = &rest[end + 1..];
    }
    text.push_str(rest);
    text.to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a Markdown file's headings, a repeated one numbered (`-1`, `-2`) as GitHub does.
fn anchors(text: &str) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut anchors = Vec::new();
    let mut fence: Option<&str> = None;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if let Some(m) = ["```", "~~~"].into_iter().find(|m| trimmed.starts_with(m)) {
            fence = if fence == Some(m) { None } else { fence.or(Some(m)) };
            continue;
        }
        let hashes = line.len() - line.trim_start_matches('#').len();
        if fence.is_some() || !(1..=6).contains(&hashes) || !line[hashes..].starts_with(' ') {
            continue;
        }
        let base = anchor(line[hashes..].trim());
        let count = seen.entry(base.clone()).or_insert(0);
        anchors.push(if *count == 0 {
            base.clone()
        } else {
            format!("{base}-{count}")
        });
        *count += 1;
    }
    anchors
}

#[test]
fn every_relative_link_and_anchor_in_the_documentation_resolves() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for file in documents() {
        let text = std::fs::read_to_string(&file).unwrap();
        let shown = file.strip_prefix(root()).unwrap().display().to_string();
        for target in link_targets(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (path, fragment) = target
                .split_once('#')
                .map_or((target.as_str(), None), |(p, f)| (p, Some(f)));
            let linked = if path.is_empty() {
                file.clone()
            } else {
                file.parent().unwrap().join(path)
            };
            if !linked.exists() {
                broken.push(format!("{shown}: {target} (no such file)"));
                continue;
            }
            let Some(fragment) = fragment else { continue };
            if linked.extension().is_some_and(|e| e == "md") {
                let headings = anchors(&std::fs::read_to_string(&linked).unwrap());
                if !headings.iter().any(|a| a == fragment) {
                    broken.push(format!("{shown}: {target} (no such heading; there are {headings:?})"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    assert!(checked >= 50, "only {checked} links found: is the link reader broken?");
}

#[test]
fn anchors_follow_githubs_rules() {
    assert_eq!(
        anchor("The mod: exact figures from inside Claude Code (2.1.287+)"),
        "the-mod-exact-figures-from-inside-claude-code-21287"
    );
    assert_eq!(anchor("`baton bridge`: speed"), "baton-bridge-speed");
    assert_eq!(
        anchor("Handoffs between agents: `baton bridge`"),
        "handoffs-between-agents-baton-bridge"
    );
    assert_eq!(anchor("See [the guide](docs/x.md) now"), "see-the-guide-now");
    assert_eq!(anchors("# A\n```\n# not a heading\n```\n## A\n"), ["a", "a-1"]);
}

#[test]
fn links_are_read_outside_code_only() {
    let text =
        "See [one](a.md) and `[not](b.md)`,\n[two\nlines](c.md#x).\n\n```\n[fenced](d.md)\n```\n[`code` text](e.md)\n";
    assert_eq!(link_targets(text), ["a.md", "c.md#x", "e.md"]);
}
