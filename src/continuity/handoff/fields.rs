//! The handoff's fields read leniently, as GSD and agents write them: numbers and booleans
//! where text is expected, a single item or plain text where a list of objects is, `null`
//! and empty strings for absent.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use super::{Blocker, Decision, HumanAction, Task};

/// Strings, numbers and booleans read as text; `null` and empty strings as absent.
pub(super) fn text<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::String(s) if !s.trim().is_empty() => Some(s),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    })
}

/// Any value but `null` and an empty string, kept as it was (a numeric id stays a number).
pub(super) fn scalar<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::Null => None,
        Value::String(s) if s.trim().is_empty() => None,
        v => Some(v),
    })
}

/// `true`, `"true"`/`"yes"` and non-zero numbers are true; `null` and anything else false.
pub(super) fn flag<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::Bool(b) => b,
        Value::String(s) => matches!(s.trim().to_ascii_lowercase().as_str(), "true" | "yes"),
        Value::Number(n) => n.as_f64().is_some_and(|n| n != 0.0),
        _ => false,
    })
}

/// A list item given as plain text instead of an object (`"remaining_tasks": ["Routes"]`).
pub(super) trait FromText: Default {
    fn from_text(text: String) -> Self;
}

/// Each item type takes plain text as its main field.
macro_rules! from_text {
    ($($item:ty => $field:ident),* $(,)?) => {$(
        impl FromText for $item {
            fn from_text(text: String) -> Self {
                Self {
                    $field: Some(text),
                    ..Self::default()
                }
            }
        }
    )*};
}

from_text!(Task => name, Blocker => description, HumanAction => action, Decision => decision);

/// A list of items, leniently: `null` is empty, a single item is a list of one, an item may
/// be text; items of no usable shape are skipped.
pub(super) fn list<'de, D: Deserializer<'de>, T: DeserializeOwned + FromText>(d: D) -> Result<Vec<T>, D::Error> {
    Ok(items(d)?
        .into_iter()
        .filter_map(|item| match item {
            Value::Object(_) => serde_json::from_value(item).ok(),
            Value::String(s) if !s.trim().is_empty() => Some(T::from_text(s)),
            Value::Number(n) => Some(T::from_text(n.to_string())),
            _ => None,
        })
        .collect())
}

/// A list of objects kept as written; other items are skipped.
pub(super) fn objects<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Value>, D::Error> {
    Ok(items(d)?.into_iter().filter(Value::is_object).collect())
}

/// A list of text: `null` is empty, a single string a list of one; other items are skipped.
pub(super) fn texts<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    Ok(items(d)?
        .into_iter()
        .filter_map(|item| match item {
            Value::String(s) if !s.trim().is_empty() => Some(s),
            _ => None,
        })
        .collect())
}

/// The values of a list: `null` is none, a value that is not an array a list of one.
fn items<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Value>, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::Null => Vec::new(),
        Value::Array(items) => items,
        one => vec![one],
    })
}
