//! Whether what baton printed is what an example shows, with trycmd's two wildcards where an
//! exact value cannot be shown: `[..]` in a line stands for any text within that line (a
//! time, a backup's timestamp), and a line of `...` for any number of lines (output the page
//! leaves out). Trailing spaces and trailing blank lines are not compared: Markdown editors
//! strip them.

/// Whether `actual` (baton's output) matches `expected` (the example's lines).
pub fn matches(expected: &[String], actual: &str) -> bool {
    let expected: Vec<&str> = trimmed(expected.iter().map(String::as_str));
    let actual: Vec<&str> = trimmed(actual.lines());
    lines_match(&expected, &actual)
}

/// The lines without trailing spaces, and without the blank lines that end them.
fn trimmed<'a>(lines: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut lines: Vec<&str> = lines.map(str::trim_end).collect();
    while lines.last() == Some(&"") {
        lines.pop();
    }
    lines
}

fn lines_match(expected: &[&str], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((&"...", rest)) => (0..=actual.len()).any(|skip| lines_match(rest, &actual[skip..])),
        Some((line, rest)) => actual
            .split_first()
            .is_some_and(|(first, others)| line_matches(line, first) && lines_match(rest, others)),
    }
}

/// Whether `line` matches `expected`, each `[..]` in it standing for any text.
fn line_matches(expected: &str, line: &str) -> bool {
    let parts: Vec<&str> = expected.split("[..]").collect();
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if parts.len() == 1 {
        return expected == line;
    }
    let Some(mut rest) = line.strip_prefix(first) else {
        return false;
    };
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.ends_with(last)
}

fn lines(text: &str) -> Vec<String> {
    text.lines().map(String::from).collect()
}

#[test]
fn a_line_of_three_dots_stands_for_any_lines() {
    assert!(matches(&lines("a\n...\nd"), "a\nb\nc\nd\n"));
    assert!(matches(&lines("a\n...\nd"), "a\nd"));
    assert!(matches(&lines("a\n..."), "a"));
    assert!(!matches(&lines("a\n...\nd"), "a\nb\nc"));
    assert!(!matches(&lines("a\nd"), "a\nb\nd"));
}

#[test]
fn brackets_stand_for_any_text_within_a_line() {
    assert!(line_matches("v1  [..]  init", "v1  2026-12-07 20:50:17  init"));
    assert!(line_matches("[..]x[..]", "axb"));
    assert!(line_matches("ab[..]b", "abb"));
    assert!(!line_matches("ab[..]b", "ab"));
    assert!(!line_matches("ab[..]ab", "aba"));
    assert!(!line_matches("v1 [..] init", "v2 x init"));
    assert!(!matches(&lines("a [..]"), "a b\nc"));
}

#[test]
fn trailing_spaces_and_blank_lines_are_not_compared_but_inner_ones_are() {
    assert!(matches(&lines("a\n\nb"), "a  \n\nb\n\n\n"));
    assert!(!matches(&lines("a\nb"), "a\n\nb"));
}
