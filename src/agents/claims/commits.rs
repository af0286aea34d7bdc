//! Which words of a sentence about commits are commit hashes. A 7–40 hex-character token
//! that mixes digits and letters is one anywhere in such a sentence (`4f2a9c1`); one of
//! letters only (`deadbee`) or digits only (`1234567`) could be an ordinary word or number,
//! so it counts only when the message presents it as a commit: right after a commit word
//! ("committed as deadbee", "commit hash: cafebabe"), in backticks, or leading a list item
//! under a commits heading.

use super::tokens::Token;
use super::vocabulary::COMMIT_WORDS;

/// Words allowed between a commit word and the hash it introduces.
const LINKS: &[&str] = &["as", "is", "was", "id", "=", "->", "→"];
/// English words that are also valid hex (letters a–f only, 7 or more of them).
const HEX_WORDS: &[&str] = &["acceded", "defaced", "effaced"];

/// The commit hashes (lowercase) among `tokens`, a sentence that has a commit word in it or
/// in its list heading.
pub(super) fn hashes(tokens: &[Token]) -> Vec<String> {
    (0..tokens.len())
        .filter(|&at| is_hash(tokens, at))
        .map(|at| tokens[at].text.to_ascii_lowercase())
        .collect()
}

fn is_hash(tokens: &[Token], at: usize) -> bool {
    let text = tokens[at].text.as_str();
    if !(7..=40).contains(&text.len()) || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return false;
    }
    let mixed = text.bytes().any(|b| b.is_ascii_digit()) && text.bytes().any(|b| b.is_ascii_alphabetic());
    mixed || (presented_as_commit(tokens, at) && !HEX_WORDS.contains(&text.to_ascii_lowercase().as_str()))
}

/// In backticks, first in its item or sentence, or introduced by a commit word.
fn presented_as_commit(tokens: &[Token], at: usize) -> bool {
    if tokens[at].quoted || tokens[..at].iter().all(|t| is_list_marker(&t.text)) {
        return true;
    }
    let lower = |t: &Token| t.text.to_lowercase();
    let before = tokens[..at]
        .iter()
        .rev()
        .map(lower)
        .find(|w| !LINKS.contains(&w.as_str()));
    before.is_some_and(|w| COMMIT_WORDS.contains(&w.as_str()))
}

/// `-`, `+`, `1` (of `1.` or `1)`): what starts a list item.
fn is_list_marker(text: &str) -> bool {
    matches!(text, "-" | "+") || (text.len() <= 3 && text.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(sentence: &str) -> Vec<String> {
        let tokens: Vec<Token> = sentence.split_whitespace().filter_map(Token::read).collect();
        hashes(&tokens)
    }

    #[test]
    fn letters_only_hashes_count_when_presented_as_commits() {
        assert_eq!(read("Committed as deadbee."), ["deadbee"]);
        assert_eq!(read("Commit hash: CAFEBABE"), ["cafebabe"]);
        assert_eq!(read("(commit deadbeef) adds the table"), ["deadbeef"]);
        assert_eq!(read("The commit id is abcdefa"), ["abcdefa"]);
        assert_eq!(read("Pushed the commit `faceded`"), ["faceded"]);
        assert_eq!(read("1. deadbee feat: users"), ["deadbee"]);
        assert_eq!(read("committed as 1234567"), ["1234567"]);
    }

    #[test]
    fn ordinary_words_and_numbers_are_not_hashes() {
        assert!(read("Committed the defaced logo fix and effaced stale docs").is_empty());
        assert!(read("the build id 1234567 and word defaced stay").is_empty());
        assert!(
            read("commit defaced").is_empty(),
            "an English word, even after a commit word"
        );
        assert!(read("committed to main as part of deadbee work").is_empty());
        assert!(read("Commits: 3 to facaded").is_empty());
        assert_eq!(read("Committed as 4f2a9c1; see also a1b2c3d4"), ["4f2a9c1", "a1b2c3d4"]);
        assert!(read("commit deadbe").is_empty(), "too short");
    }
}
