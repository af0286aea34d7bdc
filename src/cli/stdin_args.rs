//! `--args-stdin` (hidden, any command): the rest of the arguments are read from stdin and split
//! into words by baton, so that a slash command hands the user's text over as data (a quoted
//! heredoc), never as shell syntax. Quoting is shell-like for what people type (`--next "run the
//! tests"`, `'a b'`), but prose is kept as written: an apostrophe inside a word (`don't`) or a
//! quote that is never closed is a letter, `$( )`, backticks and `;` are text, and nothing here
//! is ever an error but bytes that are not UTF-8.

use std::ffi::OsString;
use std::io::Read;

use crate::error::{Context, Error, Result};

/// The flag. The words read from stdin take its place in the argument list.
pub const FLAG: &str = "--args-stdin";

/// `args` with the first [`FLAG`] replaced by the words read from stdin; unchanged (and stdin
/// untouched) without it.
pub fn expand(mut args: Vec<OsString>) -> Result<Vec<OsString>> {
    let Some(at) = args.iter().position(|a| a == FLAG) else {
        return Ok(args);
    };
    let mut bytes = Vec::new();
    std::io::stdin()
        .read_to_end(&mut bytes)
        .context(format!("{FLAG}: cannot read the arguments from stdin"))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| Error::Usage(format!("{FLAG}: the arguments on stdin are not UTF-8 text")))?;
    let words = split_words(&text).into_iter().map(OsString::from);
    args.splice(at..=at, words);
    Ok(args)
}

/// Splits `text` into words at whitespace. A `'` or `"` opens a quoted part at the start of a
/// word (or after `=`: `--next="a b"`) and closes at the first same quote that ends the word;
/// without one it is a letter. In double quotes and outside quotes a backslash keeps the quote,
/// backslash, whitespace or `!` after it as a letter; any other backslash is a letter itself.
pub fn split_words(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut words = Vec::new();
    let mut word = String::new();
    // A word with a quoted part counts even when empty (`''`).
    let mut started = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            c if c.is_whitespace() => {
                if started {
                    words.push(std::mem::take(&mut word));
                    started = false;
                }
                i += 1;
            }
            '\'' | '"' if word.is_empty() || word.ends_with('=') => match closing(&chars, i) {
                Some(end) => {
                    word.push_str(&unquote(&chars[i + 1..end], c));
                    started = true;
                    i = end + 1;
                }
                None => {
                    word.push(c);
                    started = true;
                    i += 1;
                }
            },
            '\\' if chars.get(i + 1).is_some_and(|&n| escapable(n)) => {
                word.push(chars[i + 1]);
                started = true;
                i += 2;
            }
            c => {
                word.push(c);
                started = true;
                i += 1;
            }
        }
    }
    if started {
        words.push(word);
    }
    words
}

/// The index of the quote that closes the one at `open`: the same quote followed by whitespace
/// or the end (in double quotes, not one escaped by a backslash).
fn closing(chars: &[char], open: usize) -> Option<usize> {
    let quote = chars[open];
    let mut i = open + 1;
    while i < chars.len() {
        match chars[i] {
            '\\' if quote == '"' && chars.get(i + 1).is_some_and(|&n| escapable(n)) => i += 2,
            c if c == quote && chars.get(i + 1).is_none_or(|n| n.is_whitespace()) => return Some(i),
            _ => i += 1,
        }
    }
    None
}

/// The text between two quotes: literal in single quotes; in double quotes a backslash keeps
/// the character after it when that is escapable.
fn unquote(inner: &[char], quote: char) -> String {
    if quote == '\'' {
        return inner.iter().collect();
    }
    let mut out = String::new();
    let mut i = 0;
    while i < inner.len() {
        if inner[i] == '\\' && inner.get(i + 1).is_some_and(|&n| escapable(n)) {
            out.push(inner[i + 1]);
            i += 2;
        } else {
            out.push(inner[i]);
            i += 1;
        }
    }
    out
}

/// What a backslash makes a letter of: a quote, a backslash, whitespace, and `!` (Claude Code
/// writes a `!` that starts a word of the arguments as `\!`: probe/FINDINGS.md §13).
fn escapable(c: char) -> bool {
    matches!(c, '\'' | '"' | '\\' | '!') || c.is_whitespace()
}

#[cfg(test)]
mod tests {
    use super::split_words;

    fn words(text: &str) -> Vec<String> {
        split_words(text)
    }

    #[test]
    fn prose_is_kept_as_written() {
        assert_eq!(words("don't forget the tests\n"), ["don't", "forget", "the", "tests"]);
        assert_eq!(words("don't forget Bob's tests"), ["don't", "forget", "Bob's", "tests"]);
        assert_eq!(
            words("note $(touch x) `id` ; echo it's"),
            ["note", "$(touch", "x)", "`id`", ";", "echo", "it's"]
        );
        assert_eq!(words("'unbalanced quote"), ["'unbalanced", "quote"]);
        assert_eq!(words("say \"hi"), ["say", "\"hi"]);
        assert_eq!(words("C:\\Users\\jane"), ["C:\\Users\\jane"]);
        assert!(words("").is_empty() && words(" \n\t ").is_empty());
    }

    #[test]
    fn quotes_group_words_as_a_shell_would() {
        assert_eq!(
            words("wip --next \"run the tests\" --blocker 'no key'"),
            ["wip", "--next", "run the tests", "--blocker", "no key"]
        );
        assert_eq!(words("--next=\"a b\" x"), ["--next=a b", "x"]);
        assert_eq!(words("'it's here' now"), ["it's here", "now"]);
        assert_eq!(words("\"say \\\"hi\\\" now\""), ["say \"hi\" now"]);
        assert_eq!(words("a\\ b ''"), ["a b", ""]);
        assert_eq!(words("line one\nline two"), ["line", "one", "line", "two"]);
        assert_eq!(words("ship it \\! \\!now"), ["ship", "it", "!", "!now"]);
    }
}
