//! Where a JSON value ends, found without decoding it: a string by jumping from quote to
//! quote (a quote after an odd run of backslashes is escaped, so escapes cost nothing), a
//! container by counting brackets outside strings, a number or literal at the next
//! delimiter. The one skipper behind the stdin reader (over a buffer that grows), the
//! transcript line skimmer and the config.json editor. It checks no syntax beyond what
//! finding the end needs: callers that need valid JSON parse it too.

use memchr::memchr;

/// Whether `b` is whitespace between JSON tokens.
pub fn is_whitespace(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// The first index from `at` that is not whitespace (`bytes.len()` when there is none).
pub fn skip_whitespace(bytes: &[u8], mut at: usize) -> usize {
    while bytes.get(at).copied().is_some_and(is_whitespace) {
        at += 1;
    }
    at
}

/// The end of the string whose opening quote is at `at`: the index just past its closing
/// quote; `None` when it does not close within `bytes`.
pub fn string_end(bytes: &[u8], at: usize) -> Option<usize> {
    closing_quote(bytes, at + 1, at + 1).map(|quote| quote + 1)
}

/// The end of the value whose first byte is at `at`: the index just past its last byte.
/// `None` when the value breaks off at the end of `bytes` or is empty.
pub fn value_end(bytes: &[u8], at: usize) -> Option<usize> {
    match *bytes.get(at)? {
        b'"' => string_end(bytes, at),
        b'{' | b'[' => ContainerEnd::new(at).find(bytes),
        _ => {
            let len = bytes[at..]
                .iter()
                .position(|&b| matches!(b, b',' | b'}' | b']') || is_whitespace(b))
                .unwrap_or(bytes.len() - at);
            (len > 0).then_some(at + len)
        }
    }
}

/// The quote that closes a string whose text starts at `text_start`, searching from `from`.
fn closing_quote(bytes: &[u8], text_start: usize, mut from: usize) -> Option<usize> {
    loop {
        let quote = from + memchr(b'"', bytes.get(from..)?)?;
        let backslashes = bytes[text_start..quote]
            .iter()
            .rev()
            .take_while(|&&b| b == b'\\')
            .count();
        if backslashes % 2 == 0 {
            return Some(quote);
        }
        from = quote + 1;
    }
}

/// The search for where an object or array closes, resumable over a buffer that grows: call
/// [`ContainerEnd::find`] again with more bytes appended until it returns the end. Each byte
/// is looked at once, however the input is split.
#[derive(Debug)]
pub struct ContainerEnd {
    /// Everything before this index has been scanned.
    at: usize,
    depth: usize,
    /// Where the text of the string the scan is inside begins.
    in_string: Option<usize>,
}

impl ContainerEnd {
    /// The search for the close of the container whose opening bracket is at `start`.
    pub fn new(start: usize) -> Self {
        Self {
            at: start,
            depth: 0,
            in_string: None,
        }
    }

    /// Continues over `bytes` (the bytes given before, unchanged, and any more); the index
    /// just past the closing bracket, or `None` while the container is still open.
    pub fn find(&mut self, bytes: &[u8]) -> Option<usize> {
        loop {
            if let Some(text_start) = self.in_string {
                let Some(quote) = closing_quote(bytes, text_start, self.at) else {
                    self.at = bytes.len();
                    return None;
                };
                self.at = quote + 1;
                self.in_string = None;
            }
            let b = *bytes.get(self.at)?;
            self.at += 1;
            match b {
                b'"' => self.in_string = Some(self.at),
                b'{' | b'[' => self.depth += 1,
                b'}' | b']' => {
                    self.depth = self.depth.saturating_sub(1);
                    if self.depth == 0 {
                        return Some(self.at);
                    }
                }
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn end(text: &str) -> Option<&str> {
        value_end(text.as_bytes(), 0).map(|e| &text[..e])
    }

    #[test]
    fn strings_end_at_the_first_unescaped_quote() {
        assert_eq!(end(r#""abc" tail"#), Some(r#""abc""#));
        assert_eq!(end(r#""a\"b" tail"#), Some(r#""a\"b""#));
        assert_eq!(end(r#""a\\" tail"#), Some(r#""a\\""#));
        assert_eq!(end(r#""a\\\"b" tail"#), Some(r#""a\\\"b""#));
        assert_eq!(end(r#""""#), Some(r#""""#));
        assert_eq!(end(r#""unterminated\""#), None);
    }

    #[test]
    fn containers_end_at_their_bracket_whatever_the_strings_hold() {
        let text = r#"{"a":"}{\"","b":[1,{"c":"]"}],"d":{}} tail"#;
        assert_eq!(end(text), Some(&text[..text.len() - 5]));
        assert_eq!(end("[1,[2,[3]]],4"), Some("[1,[2,[3]]]"));
        assert_eq!(end("[]"), Some("[]"));
        assert_eq!(end(r#"{"a":[1,2"#), None);
        assert_eq!(end(r#"{"a":"]}"#), None);
    }

    #[test]
    fn scalars_end_at_a_delimiter_or_the_end() {
        assert_eq!(end("12.5e3,"), Some("12.5e3"));
        assert_eq!(end("true}"), Some("true"));
        assert_eq!(end("null"), Some("null"));
        assert_eq!(end("-1 "), Some("-1"));
        assert_eq!(end(",1"), None, "an empty value");
        assert_eq!(end(""), None);
    }

    #[test]
    fn a_container_split_anywhere_ends_at_the_same_place() {
        let text = br#"{"a":"x\\\"}y","b":[{"c":"\\"},"]"]} {"#;
        let whole = ContainerEnd::new(0).find(text);
        assert_eq!(whole, Some(text.len() - 2));
        for split in 0..text.len() {
            let mut search = ContainerEnd::new(0);
            let first = search.find(&text[..split]);
            let found = first.or_else(|| search.find(text));
            assert_eq!(found, whole, "split at {split}");
        }
    }

    #[test]
    fn whitespace_is_skipped() {
        assert_eq!(skip_whitespace(b" \t\r\n x", 0), 5);
        assert_eq!(skip_whitespace(b"  ", 0), 2);
        assert!(!is_whitespace(b'x'));
    }
}
