//! The Messages API's `usage` object as Claude Code passes it on: the statusline payload's
//! `context_window.current_usage` and every assistant transcript line's `message.usage`. One
//! type for every reader. Each count reads leniently: absent, `null`, negative or not a number
//! is `None`, which a reader can tell from a real 0.

use serde::{Deserialize, Deserializer};
use serde_json::Value;

use crate::json::lenient::{count_of, lenient, lenient_count};

/// The counts [`ApiUsage::context_tokens`] adds up.
const CONTEXT_COUNTS: [&str; 3] = ["input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"];

/// Reads a `usage` object that a context figure is taken from: `None` (no figure) when it is
/// not an object or when any count of the figure (input, cache writes, cache reads) is present
/// but unreadable (text, negative, not a number), so such a count never reads as 0 beside the
/// others and a reader falls back to another source. Absent and `null` counts are no count
/// (the Messages API sends `null` cache counts). Use with `#[serde(default, deserialize_with = …)]`.
pub fn readable_usage<'de, D: Deserializer<'de>>(d: D) -> Result<Option<ApiUsage>, D::Error> {
    let value = Value::deserialize(d)?;
    let Some(fields) = value.as_object() else {
        return Ok(None);
    };
    let unreadable = CONTEXT_COUNTS
        .iter()
        .filter_map(|name| fields.get(*name))
        .any(|count| !count.is_null() && count_of(count).is_none());
    Ok(if unreadable {
        None
    } else {
        serde_json::from_value(value).ok()
    })
}

/// The token counts of one API response.
#[derive(Debug, Default, Clone, PartialEq, Deserialize)]
#[serde(default)]
pub struct ApiUsage {
    #[serde(deserialize_with = "lenient_count")]
    pub input_tokens: Option<u64>,
    #[serde(deserialize_with = "lenient_count")]
    pub output_tokens: Option<u64>,
    /// Cache writes, both lifetimes together.
    #[serde(deserialize_with = "lenient_count")]
    pub cache_creation_input_tokens: Option<u64>,
    #[serde(deserialize_with = "lenient_count")]
    pub cache_read_input_tokens: Option<u64>,
    /// The cache writes split by lifetime (newer clients).
    #[serde(deserialize_with = "lenient")]
    pub cache_creation: Option<CacheCreation>,
}

/// `usage.cache_creation`: cache writes by lifetime.
#[derive(Debug, Default, Clone, PartialEq, Deserialize)]
#[serde(default)]
pub struct CacheCreation {
    #[serde(deserialize_with = "lenient_count")]
    pub ephemeral_5m_input_tokens: Option<u64>,
    #[serde(deserialize_with = "lenient_count")]
    pub ephemeral_1h_input_tokens: Option<u64>,
}

impl ApiUsage {
    /// Tokens in the context: input + cache writes + cache reads (output excluded); `None`
    /// when none of the three is given.
    pub fn context_tokens(&self) -> Option<u64> {
        let parts = [
            self.input_tokens,
            self.cache_creation_input_tokens,
            self.cache_read_input_tokens,
        ];
        if parts.iter().all(Option::is_none) {
            return None;
        }
        Some(parts.iter().flatten().fold(0u64, |sum, n| sum.saturating_add(*n)))
    }

    /// `cache_creation.ephemeral_5m_input_tokens`.
    pub fn cache_write_5m(&self) -> Option<u64> {
        self.cache_creation.as_ref()?.ephemeral_5m_input_tokens
    }

    /// `cache_creation.ephemeral_1h_input_tokens`.
    pub fn cache_write_1h(&self) -> Option<u64> {
        self.cache_creation.as_ref()?.ephemeral_1h_input_tokens
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn context_tokens_sum_input_and_cache_but_not_output() {
        let u: ApiUsage = serde_json::from_str(
            r#"{"input_tokens":10,"output_tokens":99,"cache_creation_input_tokens":5,"cache_read_input_tokens":100}"#,
        )
        .unwrap();
        assert_eq!(u.context_tokens(), Some(115));
        assert_eq!(ApiUsage::default().context_tokens(), None);
    }

    #[test]
    fn one_unreadable_count_of_the_figure_sets_the_whole_usage_aside() {
        #[derive(Deserialize)]
        struct Holder {
            #[serde(default, deserialize_with = "readable_usage")]
            usage: Option<ApiUsage>,
        }
        let read = |usage: &str| -> Option<u64> {
            let holder: Holder = serde_json::from_str(&format!(r#"{{"usage":{usage}}}"#)).unwrap();
            holder.usage.and_then(|u| u.context_tokens())
        };
        let counts = r#""cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":5"#;
        assert_eq!(read(&format!(r#"{{"input_tokens":150000,{counts}}}"#)), Some(150_000));
        for bad in [r#""150000""#, "-150000", "true", "[1]", r#"{"n":1}"#] {
            assert_eq!(read(&format!(r#"{{"input_tokens":{bad},{counts}}}"#)), None, "{bad}");
        }
        assert_eq!(
            read(r#"{"input_tokens":150000,"cache_read_input_tokens":null}"#),
            Some(150_000),
            "null is no count"
        );
        assert_eq!(
            read(r#"{"input_tokens":150000,"output_tokens":"x"}"#),
            Some(150_000),
            "output is not part of the figure"
        );
        assert_eq!(read("null"), None);
        assert_eq!(read(r#""usage""#), None);
    }

    #[test]
    fn reads_the_split_of_cache_writes_and_skips_what_it_does_not_know() {
        let u: ApiUsage = serde_json::from_str(
            r#"{"input_tokens":3,"cache_creation_input_tokens":40,"server_tool_use":{"web_search_requests":1},
                "cache_creation":{"ephemeral_5m_input_tokens":10,"ephemeral_1h_input_tokens":30},"iterations":[]}"#,
        )
        .unwrap();
        assert_eq!((u.cache_write_5m(), u.cache_write_1h()), (Some(10), Some(30)));
        assert_eq!(u.input_tokens, Some(3));
        let u: ApiUsage = serde_json::from_str(r#"{"cache_creation":"x","input_tokens":"12"}"#).unwrap();
        assert_eq!(u, ApiUsage::default());
    }
}
