//! The changes the journal records: `set` a value at a path or `delete` it (paths as JSON
//! Pointers), applied the same way when a command writes and when the journal is replayed,
//! and the smallest set of changes that turns one document into another (for rollback and
//! diff).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::path::{DocPath, PathError};

/// One change to the document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "lowercase")]
pub enum Op {
    Set { path: String, value: Value },
    Delete { path: String },
}

impl Op {
    /// A `set` at `path`.
    pub fn set(path: &DocPath, value: Value) -> Self {
        Self::Set {
            path: path.pointer(),
            value,
        }
    }

    /// A `delete` at `path`.
    pub fn delete(path: &DocPath) -> Self {
        Self::Delete { path: path.pointer() }
    }

    /// The path changed, as a JSON Pointer.
    pub fn pointer(&self) -> &str {
        match self {
            Self::Set { path, .. } | Self::Delete { path } => path,
        }
    }

    /// Applies the change to `doc`.
    pub fn apply(&self, doc: &mut Value) -> Result<(), PathError> {
        let path = DocPath::parse(self.pointer())?;
        match self {
            Self::Set { value, .. } => path.set(doc, value.clone()),
            Self::Delete { .. } => path.delete(doc).map(drop),
        }
    }
}

/// The changes that turn `from` into `to` (key order included): unchanged values are left
/// out, objects are compared key by key, anything else that differs is set whole.
pub fn diff(from: &Value, to: &Value) -> Vec<Op> {
    let mut ops = Vec::new();
    diff_at(&DocPath::root(), from, to, &mut ops);
    ops
}

fn diff_at(at: &DocPath, from: &Value, to: &Value, ops: &mut Vec<Op>) {
    if from == to && same_order(from, to) {
        return;
    }
    match (from, to) {
        (Value::Object(a), Value::Object(b)) if keeps_order(a, b) => {
            for key in a.keys().filter(|k| !b.contains_key(*k)) {
                ops.push(Op::delete(&at.child(key.clone())));
            }
            for (key, new) in b {
                match a.get(key) {
                    Some(old) => diff_at(&at.child(key.clone()), old, new, ops),
                    None => ops.push(Op::set(&at.child(key.clone()), new.clone())),
                }
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (i, (old, new)) in a.iter().zip(b).enumerate() {
                diff_at(&at.child(i.to_string()), old, new, ops);
            }
        }
        _ => ops.push(Op::set(at, to.clone())),
    }
}

/// Whether deleting `a`'s keys missing from `b` and appending `b`'s new keys gives `b`'s order.
fn keeps_order(a: &serde_json::Map<String, Value>, b: &serde_json::Map<String, Value>) -> bool {
    let kept = a.keys().filter(|k| b.contains_key(*k));
    let added = b.keys().filter(|k| !a.contains_key(*k));
    kept.chain(added).eq(b.keys())
}

/// Whether two equal values also list their keys in the same order (maps compare unordered).
fn same_order(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(a), Value::Object(b)) => {
            a.keys().eq(b.keys()) && a.values().zip(b.values()).all(|(x, y)| same_order(x, y))
        }
        (Value::Array(a), Value::Array(b)) => a.iter().zip(b).all(|(x, y)| same_order(x, y)),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(from: Value, to: Value) -> Vec<Op> {
        let ops = diff(&from, &to);
        let mut doc = from;
        for op in &ops {
            op.apply(&mut doc).unwrap();
        }
        assert_eq!(
            serde_json::to_string(&doc).unwrap(),
            serde_json::to_string(&to).unwrap()
        );
        ops
    }

    #[test]
    fn diffs_are_small_and_reproduce_the_target_exactly() {
        let ops = check(
            json!({"a": {"x": 1, "y": [1, 2]}, "b": "keep", "c": 3}),
            json!({"a": {"x": 2, "y": [1, 3]}, "b": "keep", "d": 4}),
        );
        assert_eq!(
            ops,
            [
                Op::Delete { path: "/c".into() },
                Op::Set {
                    path: "/a/x".into(),
                    value: json!(2)
                },
                Op::Set {
                    path: "/a/y/1".into(),
                    value: json!(3)
                },
                Op::Set {
                    path: "/d".into(),
                    value: json!(4)
                },
            ]
        );
        // A reordering cannot be made by deletes and appends: the object is set whole.
        let ops = check(json!({"o": {"a": 1, "b": 2}}), json!({"o": {"b": 2, "a": 1}}));
        assert_eq!(ops.len(), 1);
        assert!(check(json!([1, 2]), json!([1, 2])).is_empty());
        check(json!({"l": [1]}), json!({"l": [1, 2]}));
        check(json!(1), json!({"k": "v"}));
    }

    #[test]
    fn ops_serialize_like_json_patch() {
        let op = Op::set(&DocPath::parse("agents.pm.status").unwrap(), json!("completed"));
        assert_eq!(
            serde_json::to_string(&op).unwrap(),
            r#"{"op":"set","path":"/agents/pm/status","value":"completed"}"#
        );
    }
}
