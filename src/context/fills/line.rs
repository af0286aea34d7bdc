//! One transcript line as `baton window` reads it: its kind, thread and usage, and the parts
//! that enter the context (a message's content blocks, an attachment and what of it was
//! rendered for the model) kept as raw JSON, sized by their bytes and never decoded whole.
//! Every field reads leniently: a wrongly typed one is absent, never the whole line lost.

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::api_usage::{ApiUsage, readable_usage};
use crate::json::lenient::{lenient_flag, lenient_number, lenient_text};

/// The fields of a transcript line that say what entered the context.
#[derive(Deserialize, Default)]
#[serde(default)]
pub struct Line<'a> {
    #[serde(rename = "type", deserialize_with = "lenient_text")]
    pub kind: Option<String>,
    #[serde(deserialize_with = "lenient_text")]
    pub subtype: Option<String>,
    #[serde(rename = "isSidechain", deserialize_with = "lenient_flag")]
    pub sidechain: Option<bool>,
    #[serde(rename = "isMeta", deserialize_with = "lenient_flag")]
    pub meta: Option<bool>,
    #[serde(rename = "isCompactSummary", deserialize_with = "lenient_flag")]
    pub compact_summary: Option<bool>,
    #[serde(rename = "isApiErrorMessage", deserialize_with = "lenient_flag")]
    pub api_error: Option<bool>,
    #[serde(rename = "requestId", deserialize_with = "lenient_text")]
    pub request_id: Option<String>,
    #[serde(deserialize_with = "lenient_text")]
    pub timestamp: Option<String>,
    /// The working directory the client had (tool paths are named relative to it).
    #[serde(deserialize_with = "lenient_text")]
    pub cwd: Option<String>,
    #[serde(borrow)]
    pub message: Option<&'a RawValue>,
    #[serde(borrow)]
    pub attachment: Option<&'a RawValue>,
    /// What of an attachment the model was shown (2.1.3xx clients write it).
    #[serde(borrow)]
    pub rendered: Option<&'a RawValue>,
    #[serde(rename = "compactMetadata", borrow)]
    pub compact: Option<&'a RawValue>,
}

impl<'a> Line<'a> {
    /// Reads one line; `None` when it is not a JSON object.
    pub fn parse(bytes: &'a [u8]) -> Option<Self> {
        serde_json::from_slice(bytes).ok()
    }

    pub fn is(&self, kind: &str) -> bool {
        self.kind.as_deref() == Some(kind)
    }

    /// The line's `message`, when it is an object.
    pub fn message(&self) -> Option<Message<'a>> {
        object(self.message?)
    }

    /// The line's `attachment`, when it is an object.
    pub fn attachment(&self) -> Option<Attachment> {
        object(self.attachment?)
    }

    /// `compactMetadata` of a compact boundary.
    pub fn compaction(&self) -> Option<CompactMetadata> {
        object(self.compact?)
    }
}

/// `message` of a user or assistant line.
#[derive(Deserialize, Default)]
#[serde(default)]
pub struct Message<'a> {
    #[serde(deserialize_with = "lenient_text")]
    pub id: Option<String>,
    #[serde(deserialize_with = "lenient_text")]
    pub model: Option<String>,
    #[serde(deserialize_with = "readable_usage")]
    pub usage: Option<ApiUsage>,
    /// A string (a prompt) or a list of content blocks.
    #[serde(borrow)]
    pub content: Option<&'a RawValue>,
}

impl<'a> Message<'a> {
    /// The content blocks; a string content is one text block of its size.
    pub fn blocks(&self) -> Vec<Block<'a>> {
        let Some(content) = self.content else {
            return Vec::new();
        };
        if content.get().starts_with('"') {
            let text: Option<String> = serde_json::from_str(content.get()).ok();
            return vec![Block {
                kind: Some("text".into()),
                text,
                bytes: content.get().len(),
                ..Block::default()
            }];
        }
        let raw: Vec<&'a RawValue> = serde_json::from_str(content.get()).unwrap_or_default();
        raw.into_iter()
            .filter_map(|block| {
                let mut parsed: Block<'a> = object(block)?;
                parsed.bytes = block.get().len();
                Some(parsed)
            })
            .collect()
    }
}

/// One content block: text, thinking, a tool use or a tool result.
#[derive(Deserialize, Default)]
#[serde(default)]
pub struct Block<'a> {
    #[serde(rename = "type", deserialize_with = "lenient_text")]
    pub kind: Option<String>,
    #[serde(deserialize_with = "lenient_text")]
    pub text: Option<String>,
    /// A tool use's id.
    #[serde(deserialize_with = "lenient_text")]
    pub id: Option<String>,
    #[serde(deserialize_with = "lenient_text")]
    pub name: Option<String>,
    #[serde(borrow)]
    pub input: Option<&'a RawValue>,
    #[serde(deserialize_with = "lenient_text")]
    pub tool_use_id: Option<String>,
    /// The block's size as written, in bytes.
    #[serde(skip)]
    pub bytes: usize,
}

/// An attachment's kind and the file it names, if any.
#[derive(Deserialize, Default)]
#[serde(default)]
pub struct Attachment {
    #[serde(rename = "type", deserialize_with = "lenient_text")]
    pub kind: Option<String>,
    #[serde(deserialize_with = "lenient_text")]
    pub filename: Option<String>,
}

/// A compact boundary's `compactMetadata`.
#[derive(Deserialize, Default)]
#[serde(default)]
pub struct CompactMetadata {
    #[serde(rename = "preTokens", deserialize_with = "lenient_number")]
    pub pre_tokens: Option<f64>,
    #[serde(rename = "postTokens", deserialize_with = "lenient_number")]
    pub post_tokens: Option<f64>,
}

/// Reads `raw` as `T` when it is an object.
pub fn object<'a, T: Deserialize<'a>>(raw: &'a RawValue) -> Option<T> {
    raw.get()
        .starts_with('{')
        .then(|| serde_json::from_str(raw.get()).ok())
        .flatten()
}
