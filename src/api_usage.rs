//! The Messages API's `usage` object as Claude Code passes it on: the statusline payload's
//! `context_window.current_usage` and every assistant transcript line's `message.usage`. One
//! type for every reader. Each count reads leniently: absent, `null`, negative or not a number
//! is `None`, which a reader can tell from a real 0.

use serde::{Deserialize, Deserializer};

use crate::json::lenient::{Scalar, lenient_count, lenient_object};

/// Reads a `usage` object that a context figure is taken from: `None` (no figure) when it is
/// not an object or when any count of the figure (input, cache writes, cache reads) is present
/// but unreadable (text, negative, not a number), so such a count never reads as 0 beside the
/// others and a reader falls back to another source. Absent and `null` counts are no count
/// (the Messages API sends `null` cache counts). Read in place, members it does not name
/// skipped. Use with `#[serde(default, deserialize_with = …)]`.
pub fn readable_usage<'de, D: Deserializer<'de>>(d: D) -> Result<Option<ApiUsage>, D::Error> {
    Ok(lenient_object::<D, CheckedUsage>(d)?.and_then(CheckedUsage::readable))
}

/// A `usage` object as met: each count of the figure kept as it was written.
#[derive(Deserialize, Default)]
#[serde(default)]
struct CheckedUsage {
    input_tokens: Scalar,
    cache_creation_input_tokens: Scalar,
    cache_read_input_tokens: Scalar,
    output_tokens: Scalar,
    #[serde(deserialize_with = "lenient_object")]
    cache_creation: Option<CacheCreation>,
}

impl CheckedUsage {
    fn readable(self) -> Option<ApiUsage> {
        let figure = [
            &self.input_tokens,
            &self.cache_creation_input_tokens,
            &self.cache_read_input_tokens,
        ];
        let unreadable = figure
            .iter()
            .any(|count| !matches!(count, Scalar::Missing | Scalar::Null) && count.count().is_none());
        (!unreadable).then(|| ApiUsage {
            input_tokens: self.input_tokens.count(),
            output_tokens: self.output_tokens.count(),
            cache_creation_input_tokens: self.cache_creation_input_tokens.count(),
            cache_read_input_tokens: self.cache_read_input_tokens.count(),
            cache_creation: self.cache_creation,
        })
    }
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
    #[serde(deserialize_with = "lenient_object")]
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
