//! One transcript line as the usage scan reads it. A skimming reader walks the line's
//! top-level object and its `message`, decodes only `type`, `isSidechain`, `requestId`,
//! `timestamp`, `message.id`, `message.model` and `message.usage`, and skips every other
//! value (the long `content`) by jumping from quote to quote, never decoding it.
//! Lenient about types (a `null` or wrongly typed field reads as absent), strict about
//! shape: a line that is not one complete JSON object reads as `None`. A token count that
//! cannot be read (a string, a negative number) is counted in [`UsageLine::unreadable_counts`]
//! so the scan can leave the line out and say so; an integer beyond `u64` saturates, as
//! serde's reading of it (a float) does in [`crate::json::lenient::lenient_count`].

use std::borrow::Cow;

use crate::api_usage::{ApiUsage, CacheCreation};
use crate::json::lenient::count_of_float;
use crate::json::skip;

/// The fields of a transcript line that matter for usage.
#[derive(Default)]
pub struct UsageLine<'a> {
    pub kind: Option<Cow<'a, str>>,
    pub is_sidechain: Option<bool>,
    pub request_id: Option<Cow<'a, str>>,
    pub timestamp: Option<Cow<'a, str>>,
    pub message: Option<Message<'a>>,
    /// Token counts in `message.usage` whose value is there (not `null`) but is not a
    /// non-negative number.
    pub unreadable_counts: u32,
}

/// `message` of an assistant line.
#[derive(Default)]
pub struct Message<'a> {
    pub id: Option<Cow<'a, str>>,
    pub model: Option<Cow<'a, str>>,
    pub usage: Option<ApiUsage>,
}

impl<'a> UsageLine<'a> {
    /// Reads one line; `None` when it is not a complete JSON object.
    pub fn parse(line: &'a [u8]) -> Option<Self> {
        let mut cursor = Cursor {
            bytes: line,
            at: 0,
            unreadable_counts: 0,
        };
        let mut parsed = Self::default();
        cursor.object(|c, key| {
            match key {
                b"type" => parsed.kind = c.text()?,
                b"isSidechain" => parsed.is_sidechain = c.flag()?,
                b"requestId" => parsed.request_id = c.text()?,
                b"timestamp" => parsed.timestamp = c.text()?,
                b"message" => parsed.message = c.message()?,
                _ => c.skip_value()?,
            }
            Some(())
        })?;
        parsed.unreadable_counts = cursor.unreadable_counts;
        cursor.peek().is_none().then_some(parsed)
    }
}

/// A position in a line. Every method returns `None` when the line ends or breaks off.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
    /// Counts read so far that were neither `null` nor a non-negative number.
    unreadable_counts: u32,
}

impl<'a> Cursor<'a> {
    /// The next byte that is not whitespace, without taking it.
    fn peek(&mut self) -> Option<u8> {
        self.at = skip::skip_whitespace(self.bytes, self.at);
        self.bytes.get(self.at).copied()
    }

    fn eat(&mut self, byte: u8) -> Option<()> {
        (self.peek()? == byte).then(|| self.at += 1)
    }

    /// An object: calls `field` with each key; `field` must take the value.
    fn object(&mut self, mut field: impl FnMut(&mut Self, &'a [u8]) -> Option<()>) -> Option<()> {
        self.eat(b'{')?;
        if self.eat(b'}').is_some() {
            return Some(());
        }
        loop {
            let key = self.raw_string()?;
            self.eat(b':')?;
            field(self, key)?;
            match self.peek()? {
                b',' => self.at += 1,
                b'}' => {
                    self.at += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    /// A string's bytes between its quotes, escapes left as written.
    fn raw_string(&mut self) -> Option<&'a [u8]> {
        if self.peek()? != b'"' {
            return None;
        }
        let start = self.at;
        self.at = skip::string_end(self.bytes, start)?;
        Some(&self.bytes[start + 1..self.at - 1])
    }

    /// Skips any value without decoding it.
    fn skip_value(&mut self) -> Option<()> {
        self.peek()?;
        self.at = skip::value_end(self.bytes, self.at)?;
        Some(())
    }

    /// A string value (decoded when it has escapes); another type reads as `None`.
    fn text(&mut self) -> Option<Option<Cow<'a, str>>> {
        if self.peek()? != b'"' {
            return self.skip_value().map(|()| None);
        }
        let start = self.at;
        let raw = self.raw_string()?;
        if !raw.contains(&b'\\') {
            return Some(std::str::from_utf8(raw).ok().map(Cow::Borrowed));
        }
        Some(
            serde_json::from_slice::<String>(&self.bytes[start..self.at])
                .ok()
                .map(Cow::Owned),
        )
    }

    /// `true` or `false`; another value reads as `None`.
    fn flag(&mut self) -> Option<Option<bool>> {
        self.peek()?;
        let start = self.at;
        self.skip_value()?;
        Some(match &self.bytes[start..self.at] {
            b"true" => Some(true),
            b"false" => Some(false),
            _ => None,
        })
    }

    /// The `message` object; another type reads as `None`.
    fn message(&mut self) -> Option<Option<Message<'a>>> {
        if self.peek()? != b'{' {
            return self.skip_value().map(|()| None);
        }
        let mut message = Message::default();
        self.object(|c, key| {
            match key {
                b"id" => message.id = c.text()?,
                b"model" => message.model = c.text()?,
                b"usage" => message.usage = c.usage()?,
                _ => c.skip_value()?,
            }
            Some(())
        })?;
        Some(Some(message))
    }

    /// The `usage` object; another type reads as `None`.
    fn usage(&mut self) -> Option<Option<ApiUsage>> {
        if self.peek()? != b'{' {
            return self.skip_value().map(|()| None);
        }
        let mut usage = ApiUsage::default();
        self.object(|c, key| {
            match key {
                b"input_tokens" => usage.input_tokens = c.count()?,
                b"output_tokens" => usage.output_tokens = c.count()?,
                b"cache_creation_input_tokens" => usage.cache_creation_input_tokens = c.count()?,
                b"cache_read_input_tokens" => usage.cache_read_input_tokens = c.count()?,
                b"cache_creation" => usage.cache_creation = c.cache_creation()?,
                _ => c.skip_value()?,
            }
            Some(())
        })?;
        Some(Some(usage))
    }

    /// `usage.cache_creation`; another type reads as `None`.
    fn cache_creation(&mut self) -> Option<Option<CacheCreation>> {
        if self.peek()? != b'{' {
            return self.skip_value().map(|()| None);
        }
        let mut split = CacheCreation::default();
        self.object(|c, key| {
            match key {
                b"ephemeral_5m_input_tokens" => split.ephemeral_5m_input_tokens = c.count()?,
                b"ephemeral_1h_input_tokens" => split.ephemeral_1h_input_tokens = c.count()?,
                _ => c.skip_value()?,
            }
            Some(())
        })?;
        Some(Some(split))
    }

    /// A token count: a non-negative integer (saturating past `u64::MAX`), or a float
    /// rounded; `null` is `None`, and so is any other value, which is also counted as unreadable.
    fn count(&mut self) -> Option<Option<u64>> {
        self.peek()?;
        let start = self.at;
        self.skip_value()?;
        let literal = &self.bytes[start..self.at];
        if literal.iter().all(u8::is_ascii_digit) {
            let parsed = literal
                .iter()
                .try_fold(0u64, |n, &d| n.checked_mul(10)?.checked_add(u64::from(d - b'0')));
            return Some(Some(parsed.unwrap_or(u64::MAX)));
        }
        if literal == b"null" {
            return Some(None);
        }
        let float: Option<f64> = std::str::from_utf8(literal).ok().and_then(|s| s.parse().ok());
        let count = float.and_then(count_of_float);
        self.unreadable_counts += u32::from(count.is_none());
        Some(count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounting::tokens::TokenCounts;

    fn parse(line: &str) -> Option<UsageLine<'_>> {
        UsageLine::parse(line.as_bytes())
    }

    #[test]
    fn reads_an_assistant_line_borrowing_its_strings() {
        let line = r#"{"parentUuid":"p","isSidechain":true,"message":{"id":"msg_1","type":"message",
            "role":"assistant","model":"claude-opus-4-5","content":[{"type":"text","text":"a \"usage\": {\\ [ x"},
            {"type":"tool_use","input":{"usage":{"input_tokens":999},"n":[1,2.5e3,true,null]}}],
            "usage":{"input_tokens":3,"cache_read_input_tokens":100,"output_tokens":7}},
            "requestId":"req_1","type":"assistant","timestamp":"2026-11-30T00:10:41.140Z"}"#;
        let got = parse(line).unwrap();
        assert_eq!(got.kind.as_deref(), Some("assistant"));
        assert_eq!(got.is_sidechain, Some(true));
        assert!(matches!(got.request_id, Some(Cow::Borrowed("req_1"))));
        assert_eq!(got.timestamp.as_deref(), Some("2026-11-30T00:10:41.140Z"));
        let message = got.message.unwrap();
        assert_eq!(
            (message.id.as_deref(), message.model.as_deref()),
            (Some("msg_1"), Some("claude-opus-4-5"))
        );
        let tokens = TokenCounts::from(&message.usage.unwrap());
        assert_eq!(
            tokens,
            TokenCounts {
                input: 3,
                output: 7,
                cache_read: 100,
                ..Default::default()
            }
        );
    }

    #[test]
    fn agrees_with_a_full_parser_on_escaped_strings() {
        let line = r#"{"type":"assist\u0061nt","requestId":"r\"1\\","message":{"model":"claude\/x","usage":{}}}"#;
        let got = parse(line).unwrap();
        assert_eq!(got.kind.as_deref(), Some("assistant"));
        assert_eq!(got.request_id.as_deref(), Some("r\"1\\"));
        assert_eq!(got.message.unwrap().model.as_deref(), Some("claude/x"));
    }

    #[test]
    fn null_and_wrong_types_read_as_absent() {
        let got = parse(
            r#"{"type":7,"isSidechain":"yes","requestId":null,"timestamp":[1,{"a":"]"}],
                "message":{"id":{"x":1},"model":null,"usage":[1]}}"#,
        )
        .unwrap();
        assert!(got.kind.is_none() && got.is_sidechain.is_none() && got.request_id.is_none());
        assert!(got.timestamp.is_none());
        let message = got.message.unwrap();
        assert!(message.id.is_none() && message.model.is_none() && message.usage.is_none());
        assert!(
            parse(r#"{"message":"text","type":"assistant"}"#)
                .unwrap()
                .message
                .is_none()
        );
        assert!(parse("{}").is_some());
    }

    #[test]
    fn usage_counts_are_read_leniently() {
        let line = r#"{"message":{"usage":{"input_tokens":"12","output_tokens":4.6,"cache_read_input_tokens":-5,
            "cache_creation_input_tokens":null,"server_tool_use":{"web_search_requests":1},"iterations":[],
            "cache_creation":{"ephemeral_5m_input_tokens":1e3,"ephemeral_1h_input_tokens":true}}}}"#;
        let usage = parse(line).unwrap().message.unwrap().usage.unwrap();
        assert_eq!(usage.input_tokens, None);
        assert_eq!(usage.output_tokens, Some(5));
        assert_eq!(usage.cache_read_input_tokens, None);
        assert_eq!(usage.cache_creation_input_tokens, None);
        assert_eq!((usage.cache_write_5m(), usage.cache_write_1h()), (Some(1000), None));
        assert_eq!(
            parse(line).unwrap().unreadable_counts,
            3,
            "the string, the negative number, `true`"
        );
        let line = r#"{"message":{"usage":{"cache_creation":"x","input_tokens":18446744073709551616}}}"#;
        let parsed = parse(line).unwrap();
        assert_eq!(parsed.unreadable_counts, 0);
        let usage = parsed.message.unwrap().usage.unwrap();
        assert_eq!(usage.input_tokens, Some(u64::MAX), "saturates, as serde reads it");
        let serde: ApiUsage = serde_json::from_str(r#"{"input_tokens":18446744073709551616}"#).unwrap();
        assert_eq!(serde.input_tokens, usage.input_tokens);
    }

    #[test]
    fn broken_lines_read_as_none() {
        for line in [
            r#"{"type":"assistant","message":{"#,
            r#"{"type":"assistant","message":{"usage":{"input_tokens":1}}"#,
            r#"{"type":"assistant"} trailing"#,
            r#"{"type":"assistant","usage" junk"#,
            r#"{"type":"unterminated}"#,
            "\u{1}\u{2}\u{0}",
            "",
            r#"["type","assistant"]"#,
            r#"{"type" "assistant"}"#,
            r#"{"type":"a\"}"#,
        ] {
            assert!(parse(line).is_none(), "{line}");
        }
    }
}
