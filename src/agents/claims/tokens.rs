//! Words and lines of a message: tokens unwrapped from markdown, what reads as a path or a
//! plan id, list items, sentence breaks.

use super::vocabulary;

/// One whitespace-separated word, unwrapped from quotes, links and punctuation.
pub(super) struct Token {
    pub text: String,
    /// Written inside backticks.
    pub quoted: bool,
}

impl Token {
    /// Reads one word as a token; `None` when nothing is left once unwrapped.
    pub fn read(word: &str) -> Option<Token> {
        let quoted = word.contains('`');
        // A markdown link `[label](path)`: the target.
        let word = word.split_once("](").map_or(word, |(_, target)| target);
        let trim: &[char] = &[
            '`', '"', '\'', '(', ')', '[', ']', '{', '}', '<', '>', '*', ',', ';', '!', '?', ':',
        ];
        let mut text = word.trim_matches(trim).trim_end_matches('.').trim_matches(trim);
        // `src/main.rs:42:7` → `src/main.rs`.
        while let Some((head, tail)) = text.rsplit_once(':') {
            if tail.is_empty() || !tail.bytes().all(|b| b.is_ascii_digit()) {
                break;
            }
            text = head;
        }
        let text = text.strip_prefix("./").unwrap_or(text);
        (!text.is_empty()).then(|| Token {
            text: text.to_owned(),
            quoted,
        })
    }
}

/// Whether a token reads as a file path (`src/a.rs`, `README.md`), not a URL, an email
/// address or a bare word.
pub(super) fn is_path(token: &Token) -> bool {
    let text = token.text.as_str();
    let allowed = |c: char| c.is_ascii_alphanumeric() || "._/-+@~".contains(c);
    if text.contains("://") || text.starts_with("www.") || !text.chars().all(allowed) || text.ends_with('/') {
        return false;
    }
    let has_slash = text.contains('/');
    if text.contains('@') && !has_slash {
        return false; // an email address
    }
    let name = text.rsplit('/').next().unwrap_or(text);
    let extension = name
        .rsplit_once('.')
        .filter(|(stem, ext)| {
            !stem.is_empty()
                && (1..=10).contains(&ext.len())
                && ext.bytes().all(|b| b.is_ascii_alphanumeric())
                && ext.bytes().any(|b| b.is_ascii_alphabetic())
        })
        .map(|(stem, ext)| (stem, ext.to_ascii_lowercase()));
    match extension {
        // A bare `name.ext` is a file only with a file extension: not `user.name`, `e.g`.
        Some((stem, ext)) if !has_slash => {
            stem.len() > 1
                && vocabulary::BARE_EXTENSIONS.contains(&ext.as_str())
                && !vocabulary::NOT_FILES.contains(&text.to_ascii_lowercase().as_str())
        }
        Some(_) => true,
        // `docker/Dockerfile`, `Makefile`: only when quoted as code.
        None => token.quoted && (has_slash || name.chars().next().is_some_and(char::is_uppercase)),
    }
}

/// `03-02`, `2.1-01`, `03-02-PLAN.md`, `.planning/phases/03-api/03-02-SUMMARY.md` → the plan id.
pub(super) fn plan_id(text: &str) -> Option<String> {
    let name = text.rsplit('/').next().unwrap_or(text);
    let id = name
        .strip_suffix("-PLAN.md")
        .or_else(|| name.strip_suffix("-SUMMARY.md"))
        .unwrap_or(name);
    let (phase, plan) = id.split_once('-')?;
    let phase_ok = !phase.is_empty()
        && phase
            .split('.')
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    let plan_ok = !plan.is_empty() && plan.len() <= 3 && plan.bytes().all(|b| b.is_ascii_digit());
    (phase_ok && plan_ok).then(|| id.to_owned())
}

/// Whether a line is a markdown list item (`- `, `* `, `+ `, `1.`, `1)`).
pub(super) fn is_list_item(line: &str) -> bool {
    let line = line.trim_start();
    if line.starts_with("- ") || line.starts_with("* ") || line.starts_with("+ ") {
        return true;
    }
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && matches!(line.as_bytes().get(digits), Some(b'.' | b')'))
}

/// Splits a line at `. `, `; ` and `! ` (a path's own dots are not followed by a space).
pub(super) fn sentences(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = line.as_bytes();
    for i in 0..bytes.len() {
        if matches!(bytes[i], b'.' | b';' | b'!') && bytes.get(i + 1) == Some(&b' ') {
            out.push(&line[start..=i]);
            start = i + 1;
        }
    }
    out.push(&line[start..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_plan_ids_and_list_items() {
        assert_eq!(plan_id("02.1-03-PLAN.md").as_deref(), Some("02.1-03"));
        assert_eq!(
            plan_id(".planning/phases/03-api/03-02-SUMMARY.md").as_deref(),
            Some("03-02")
        );
        assert_eq!(plan_id("2026-11-29"), None);
        assert!(is_path(&Token::read("`docker/Dockerfile`").unwrap()));
        assert!(!is_path(&Token::read("input/output").unwrap()));
        assert!(!is_path(&Token::read("Node.js").unwrap()));
        assert_eq!(Token::read("`src/main.rs:42:7`,").unwrap().text, "src/main.rs");
        assert!(is_list_item("12) x") && is_list_item("- x") && !is_list_item("-x"));
        assert_eq!(sentences("Made a.rs. Then b.rs"), ["Made a.rs.", " Then b.rs"]);
    }
}
