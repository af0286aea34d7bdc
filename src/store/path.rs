//! Paths into the context document: dotted (`agents.analyst.outputs.project_brief`, numbers
//! index arrays) or JSON Pointer (`/global_context/technical_stack/preferences/0`, RFC 6901)
//! for keys that contain dots. Reading, setting and deleting the value at a path.

use std::fmt;

use serde_json::{Map, Value};

use super::document::MAX_READ_DEPTH;

/// A parsed path: the keys (or array indices) from the root down.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct DocPath {
    tokens: Vec<String>,
}

/// Why a path cannot be used on a document.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {reason}")]
pub struct PathError {
    /// The path as the user gave it (or as it was displayed).
    pub path: String,
    pub reason: String,
}

/// Why one step down a document stops: said of the value where it stops ("has no key 'x'").
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Step {
    #[error("has no key '{0}'")]
    NoKey(String),
    #[error("is {0}, not an object or a list")]
    NotAContainer(&'static str),
    #[error("is {kind}, so it cannot hold '{token}'")]
    CannotHold { kind: &'static str, token: String },
    #[error("has {}; there is no item {token}", crate::words::count(*len, "item", "items"))]
    NoItem { len: usize, token: String },
    #[error("is a list; '{0}' is not an item number")]
    NotAnItemNumber(String),
}

impl DocPath {
    /// The document itself.
    pub fn root() -> Self {
        Self::default()
    }

    /// Parses a dotted path or a JSON Pointer (starts with `/`; the empty string is the root).
    pub fn parse(text: &str) -> Result<Self, PathError> {
        let error = |reason: &str| PathError {
            path: text.to_owned(),
            reason: reason.to_owned(),
        };
        if text.is_empty() {
            return Ok(Self::root());
        }
        let keys = match text.strip_prefix('/') {
            Some(pointer) => pointer.split('/').count(),
            None => text.split('.').count(),
        };
        if keys > MAX_READ_DEPTH {
            return Err(PathError {
                path: clipped(text),
                reason: format!(
                    "has {keys} keys: no document baton reads nests that deep (at most {MAX_READ_DEPTH} levels)"
                ),
            });
        }
        if let Some(pointer) = text.strip_prefix('/') {
            let mut tokens = Vec::new();
            for raw in pointer.split('/') {
                if raw.replace("~0", "").replace("~1", "").contains('~') {
                    return Err(error("in a JSON Pointer `~` must be written ~0 (and `/` as ~1)"));
                }
                tokens.push(raw.replace("~1", "/").replace("~0", "~"));
            }
            return Ok(Self { tokens });
        }
        if text.split('.').any(str::is_empty) {
            return Err(error(
                "empty segment in a dotted path; for keys with dots use a JSON Pointer such as /a/b.c",
            ));
        }
        Ok(Self {
            tokens: text.split('.').map(str::to_owned).collect(),
        })
    }

    /// The keys from the root down.
    pub fn tokens(&self) -> &[String] {
        &self.tokens
    }

    /// The path with one more key.
    pub fn child(&self, token: impl Into<String>) -> Self {
        let mut tokens = self.tokens.clone();
        tokens.push(token.into());
        Self { tokens }
    }

    /// `other` below this path.
    pub fn join(&self, other: &DocPath) -> Self {
        let mut tokens = self.tokens.clone();
        tokens.extend(other.tokens.iter().cloned());
        Self { tokens }
    }

    /// Whether `self` is `other` or one of its ancestors.
    pub fn contains(&self, other: &DocPath) -> bool {
        other.tokens.starts_with(&self.tokens)
    }

    /// The last key (the name a value goes by), if any.
    pub fn last(&self) -> Option<&str> {
        self.tokens.last().map(String::as_str)
    }

    /// The path as a JSON Pointer (the journal's form).
    pub fn pointer(&self) -> String {
        self.tokens
            .iter()
            .map(|t| format!("/{}", t.replace('~', "~0").replace('/', "~1")))
            .collect()
    }

    /// The value at this path, or why there is none.
    pub fn get<'a>(&self, doc: &'a Value) -> Result<&'a Value, PathError> {
        let mut current = doc;
        for (depth, token) in self.tokens.iter().enumerate() {
            current = step(current, token).map_err(|reason| self.error_at(depth, reason))?;
        }
        Ok(current)
    }

    /// Sets the value at this path, creating missing objects on the way; `-` (or the array's
    /// length) as the last key appends to an array. The root path replaces the document.
    pub fn set(&self, doc: &mut Value, value: Value) -> Result<(), PathError> {
        let Some((last, parents)) = self.tokens.split_last() else {
            *doc = value;
            return Ok(());
        };
        let mut current = doc;
        for (depth, token) in parents.iter().enumerate() {
            current = step_or_create(current, token).map_err(|reason| self.error_at(depth, reason))?;
        }
        let depth = parents.len();
        match current {
            Value::Object(map) => {
                map.insert(last.clone(), value);
                Ok(())
            }
            Value::Array(items) => {
                let len = items.len();
                match array_slot(last, len) {
                    Some(i) if i < len => items[i] = value,
                    Some(_) => items.push(value),
                    None => {
                        return Err(self.error_at(
                            depth,
                            format!("is a list of {len}: use an index from 0 to {len} (or -) to set an item"),
                        ));
                    }
                }
                Ok(())
            }
            other => Err(self.error_at(depth, format!("is {}, which has no keys", describe(other)))),
        }
    }

    /// Removes the value at this path (keeping the order of the other keys); returns it.
    pub fn delete(&self, doc: &mut Value) -> Result<Value, PathError> {
        let Some((last, parents)) = self.tokens.split_last() else {
            return Err(PathError {
                path: self.to_string(),
                reason: "the whole document cannot be deleted".into(),
            });
        };
        let mut current = doc;
        for (depth, token) in parents.iter().enumerate() {
            current = step_mut(current, token).map_err(|reason| self.error_at(depth, reason))?;
        }
        let missing = || self.error_at(parents.len(), format!("has no key '{last}'"));
        match current {
            Value::Object(map) => map.shift_remove(last).ok_or_else(missing),
            Value::Array(items) => match last.parse::<usize>() {
                Ok(i) if i < items.len() => Ok(items.remove(i)),
                _ => Err(missing()),
            },
            _ => Err(missing()),
        }
    }

    /// An error about the key at `depth`: "agents.analyst has no key 'outputs'".
    fn error_at(&self, depth: usize, reason: impl fmt::Display) -> PathError {
        let parent = Self {
            tokens: self.tokens[..depth].to_vec(),
        };
        let shown = if depth == 0 {
            "the document".to_owned()
        } else {
            parent.to_string()
        };
        PathError {
            path: self.to_string(),
            reason: format!("{shown} {reason}"),
        }
    }
}

/// Dotted when every key allows it, else a JSON Pointer.
impl fmt::Display for DocPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dotted = !self.tokens.is_empty()
            && self
                .tokens
                .iter()
                .all(|t| !t.is_empty() && !t.starts_with('/') && !t.contains(['.', ' ']));
        if dotted {
            f.write_str(&self.tokens.join("."))
        } else {
            f.write_str(&self.pointer())
        }
    }
}

/// A long path as messages show it: its start and how long it is.
fn clipped(text: &str) -> String {
    match text.char_indices().nth(60) {
        Some((end, _)) => format!("{}… ({} characters)", &text[..end], text.chars().count()),
        None => text.to_owned(),
    }
}

/// What kind of value this is, for messages.
pub fn describe(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// One step down: the value under `token`, or why there is none ("has no key 'x'").
pub fn step<'a>(value: &'a Value, token: &str) -> Result<&'a Value, Step> {
    match value {
        Value::Object(map) => map.get(token).ok_or_else(|| Step::NoKey(token.to_owned())),
        Value::Array(items) => index(token, items.len()).map(|i| &items[i]),
        other => Err(Step::NotAContainer(describe(other))),
    }
}

fn step_mut<'a>(value: &'a mut Value, token: &str) -> Result<&'a mut Value, Step> {
    match value {
        Value::Object(map) => map.get_mut(token).ok_or_else(|| Step::NoKey(token.to_owned())),
        Value::Array(items) => {
            let i = index(token, items.len())?;
            Ok(&mut items[i])
        }
        other => Err(Step::NotAContainer(describe(other))),
    }
}

fn step_or_create<'a>(value: &'a mut Value, token: &str) -> Result<&'a mut Value, Step> {
    match value {
        Value::Object(map) => Ok(map.entry(token.to_owned()).or_insert_with(|| Value::Object(Map::new()))),
        Value::Array(items) => {
            let i = index(token, items.len())?;
            Ok(&mut items[i])
        }
        other => Err(Step::CannotHold {
            kind: describe(other),
            token: token.to_owned(),
        }),
    }
}

fn index(token: &str, len: usize) -> Result<usize, Step> {
    match token.parse::<usize>() {
        Ok(i) if i < len && (token == "0" || !token.starts_with('0')) => Ok(i),
        Ok(_) => Err(Step::NoItem {
            len,
            token: token.to_owned(),
        }),
        Err(_) => Err(Step::NotAnItemNumber(token.to_owned())),
    }
}

/// The index a set writes to: an existing item, or `len` to append.
fn array_slot(token: &str, len: usize) -> Option<usize> {
    if token == "-" {
        return Some(len);
    }
    match token.parse::<usize>() {
        Ok(i) if i <= len && (token == "0" || !token.starts_with('0')) => Some(i),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn dotted_and_pointer_paths_reach_the_same_values() {
        let doc = json!({"global_context": {"technical_stack": {"preferences": ["React", "Node.js"]}},
                         "versions": {"v1.2": {"ok": true}}});
        let dotted = DocPath::parse("global_context.technical_stack.preferences.1").unwrap();
        let pointer = DocPath::parse("/global_context/technical_stack/preferences/1").unwrap();
        assert_eq!(dotted, pointer);
        assert_eq!(dotted.get(&doc).unwrap(), "Node.js");
        let dotted_key = DocPath::parse("/versions/v1.2/ok").unwrap();
        assert_eq!(dotted_key.get(&doc).unwrap(), true);
        assert_eq!(dotted_key.to_string(), "/versions/v1.2/ok");
        assert_eq!(DocPath::parse("/a~1b/c~0d").unwrap().tokens(), ["a/b", "c~d"]);
        assert!(DocPath::parse("a..b").is_err());
        assert!(DocPath::parse("/a~2").is_err());
    }

    #[test]
    fn errors_name_the_part_that_is_missing() {
        let doc = json!({"agents": {"analyst": {"status": "completed"}}, "list": [1]});
        let err = DocPath::parse("agents.analyst.outputs.brief")
            .unwrap()
            .get(&doc)
            .unwrap_err();
        assert_eq!(err.reason, "agents.analyst has no key 'outputs'");
        let err = DocPath::parse("list.3").unwrap().get(&doc).unwrap_err();
        assert_eq!(err.reason, "list has 1 item; there is no item 3");
        let err = DocPath::parse("nothing").unwrap().get(&doc).unwrap_err();
        assert_eq!(err.reason, "the document has no key 'nothing'");
    }

    #[test]
    fn set_creates_objects_appends_and_delete_keeps_order() {
        let mut doc = json!({"a": 1, "b": 2, "c": 3, "list": ["x"]});
        DocPath::parse("new.deep.key")
            .unwrap()
            .set(&mut doc, json!(true))
            .unwrap();
        DocPath::parse("list.-").unwrap().set(&mut doc, json!("y")).unwrap();
        DocPath::parse("list.2").unwrap().set(&mut doc, json!("z")).unwrap();
        DocPath::parse("list.0").unwrap().set(&mut doc, json!("w")).unwrap();
        assert!(DocPath::parse("list.9").unwrap().set(&mut doc, json!(0)).is_err());
        assert!(DocPath::parse("a.b").unwrap().set(&mut doc, json!(0)).is_err());
        DocPath::parse("b").unwrap().delete(&mut doc).unwrap();
        let keys: Vec<&String> = doc.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["a", "c", "list", "new"]);
        assert_eq!(doc["list"], json!(["w", "y", "z"]));
        assert_eq!(doc["new"]["deep"]["key"], true);
        assert!(DocPath::parse("b").unwrap().delete(&mut doc).is_err());
        assert!(DocPath::root().delete(&mut doc).is_err());
    }

    #[test]
    fn containment_is_by_whole_keys() {
        let a = DocPath::parse("agents.pm").unwrap();
        assert!(a.contains(&DocPath::parse("agents.pm.inputs").unwrap()));
        assert!(a.contains(&a));
        assert!(!a.contains(&DocPath::parse("agents.pmx").unwrap()));
        assert!(DocPath::root().contains(&a));
    }
}
