//! References: a string `"@agents.analyst.outputs.project_brief"` (or `"@/json/pointer"`)
//! anywhere in the document stands for the value at that path. Resolving replaces every
//! reference by its value, through references to references at any depth and through a
//! reference in the middle of a path. A reference to a missing value (dangling) or one that
//! leads back to itself (a cycle) is an error naming where it is and the chain that led there.
//! `"@@text"` is the literal string `"@text"`.

use std::fmt;

use serde_json::Value;

use super::path::{DocPath, PathError};

mod resolver;
use resolver::Resolver;

/// Most values one resolution may produce: references that fan out (a list of references to
/// lists of references…) expand to more values than any use has, and are refused before
/// anything is built.
pub const MAX_VALUES: usize = 2_000_000;
/// Most references one value may be reached through. Real chains are a few long; following a
/// chain costs time in its length squared (the cycle check) and stack in its length.
pub const MAX_HOPS: usize = 32;
/// Deepest a resolved value may nest: as deep as the store lets a document nest. References to
/// nested values inside nested values could otherwise nest without end.
pub const MAX_NESTING: usize = super::document::MAX_DEPTH;

impl From<RefError> for crate::error::Error {
    fn from(e: RefError) -> Self {
        Self::Reference(Box::new(e))
    }
}

/// Why a resolution failed.
#[derive(Debug, Clone, PartialEq)]
pub enum RefError {
    /// The path asked for does not exist (no reference involved).
    Missing(PathError),
    /// A reference points at nothing. `chain`: the references followed, the last one dangling.
    Dangling { chain: Vec<Hop>, reason: String },
    /// Following references comes back to a value being resolved.
    Cycle { chain: Vec<Hop> },
    /// A reference is not a usable path.
    Malformed { at: DocPath, error: PathError },
    /// The references expand to more values than `limit`.
    TooLarge { limit: usize },
    /// More than [`MAX_HOPS`] references in a row; `chain`: the first of them.
    TooLong { chain: Vec<Hop> },
    /// The resolved value nests deeper than [`MAX_NESTING`] levels at `at`.
    TooDeep { at: DocPath },
}

/// One reference followed: where it is written and what it points at.
#[derive(Debug, Clone, PartialEq)]
pub struct Hop {
    pub at: DocPath,
    pub target: DocPath,
}

impl std::error::Error for RefError {}

impl fmt::Display for RefError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let chain = |hops: &[Hop]| {
            let mut parts: Vec<String> = hops.iter().map(|h| h.at.to_string()).collect();
            if let Some(last) = hops.last() {
                parts.push(format!("@{}", last.target));
            }
            parts.join(" → ")
        };
        match self {
            Self::Missing(e) => write!(f, "nothing at {}: {}", e.path, e.reason),
            Self::Dangling { chain: hops, reason } => {
                let last = hops.last().map(|h| h.at.to_string()).unwrap_or_default();
                write!(f, "dangling reference at {last}: {} ({reason})", chain(hops))
            }
            Self::Cycle { chain: hops } => {
                let first = hops.first().map(|h| h.at.to_string()).unwrap_or_default();
                write!(f, "reference cycle at {first}: {}", chain(hops))
            }
            Self::Malformed { at, error } => write!(f, "bad reference at {at}: {error}"),
            Self::TooLarge { limit } => write!(f, "references expand to more than {limit} values"),
            Self::TooLong { chain: hops } => {
                let first = hops.first().map(|h| h.at.to_string()).unwrap_or_default();
                write!(
                    f,
                    "reference chain at {first} is longer than {MAX_HOPS} references: {} → …",
                    chain(hops)
                )
            }
            Self::TooDeep { at } => write!(
                f,
                "resolving references nests the value at {at} deeper than {MAX_NESTING} levels"
            ),
        }
    }
}

/// The target of a reference string; `None` when the string is not a reference.
pub fn target(text: &str) -> Option<Result<DocPath, PathError>> {
    let rest = text.strip_prefix('@')?;
    if rest.is_empty() || rest.starts_with('@') || rest.contains(char::is_whitespace) {
        return None;
    }
    Some(DocPath::parse(rest))
}

/// Every reference in `value` (at `at`), with its location, for validation.
pub fn references_in(value: &Value, at: &DocPath, found: &mut Vec<(DocPath, String)>) {
    match value {
        Value::String(s) if target(s).is_some() => found.push((at.clone(), s.clone())),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                references_in(item, &at.child(i.to_string()), found);
            }
        }
        Value::Object(map) => {
            for (key, item) in map {
                references_in(item, &at.child(key.clone()), found);
            }
        }
        _ => {}
    }
}

/// The value at `path` with every reference in it resolved; references met on the way down
/// the path are followed too.
pub fn resolve(doc: &Value, path: &DocPath) -> Result<Value, RefError> {
    resolve_within(doc, path, MAX_VALUES)
}

/// [`resolve`], refusing a value of more than `limit` values (without building it).
pub fn resolve_within(doc: &Value, path: &DocPath, limit: usize) -> Result<Value, RefError> {
    let mut resolver = Resolver::new(doc);
    let (value, location, chain) = resolver.locate(path, Vec::new())?;
    resolver.measure_within(value, &location, &chain, limit)?;
    resolver.build(value, &location, &chain)
}

/// Checks that values resolve without building them: every reference leads somewhere, without
/// a cycle, to a value of bounded size. What it learns of one reference it uses for the next,
/// so checking every reference of a document costs about one pass over it (`validate`).
pub struct Checker<'a> {
    resolver: Resolver<'a>,
}

impl<'a> Checker<'a> {
    /// A checker of `doc`.
    pub fn new(doc: &'a Value) -> Self {
        Self {
            resolver: Resolver::new(doc),
        }
    }

    /// Whether the value at `path` resolves (as [`resolve`] would).
    pub fn check(&mut self, path: &DocPath) -> Result<(), RefError> {
        let (value, location, chain) = self.resolver.locate(path, Vec::new())?;
        self.resolver.measure_within(value, &location, &chain, MAX_VALUES)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Map, json};

    fn get(doc: &Value, path: &str) -> Result<Value, RefError> {
        resolve(doc, &DocPath::parse(path).unwrap())
    }

    #[test]
    fn nested_references_resolve_to_any_depth() {
        let doc = json!({
            "a": {"brief": {"users": ["x"]}},
            "b": {"brief": "@a.brief", "list": ["@a.brief.users", "@@literal", "@ not a ref"]},
            "c": {"via": "@b.brief", "deep": "@/b/list/0"}
        });
        assert_eq!(get(&doc, "c.via").unwrap(), json!({"users": ["x"]}));
        assert_eq!(get(&doc, "c.deep").unwrap(), json!(["x"]));
        assert_eq!(get(&doc, "b.list").unwrap(), json!([["x"], "@literal", "@ not a ref"]));
        // A reference in the middle of the path is followed.
        assert_eq!(get(&doc, "c.via.users.0").unwrap(), json!("x"));
    }

    #[test]
    fn dangling_references_name_the_chain() {
        let doc = json!({"pm": {"inputs": {"brief": "@mid.ref"}}, "mid": {"ref": "@analyst.outputs.brief"},
                         "analyst": {"status": "pending"}});
        let err = get(&doc, "pm.inputs").unwrap_err();
        assert_eq!(
            err.to_string(),
            "dangling reference at mid.ref: pm.inputs.brief → mid.ref → @analyst.outputs.brief \
             (analyst has no key 'outputs')"
        );
        assert!(matches!(get(&doc, "pm.nothing").unwrap_err(), RefError::Missing(_)));
    }

    #[test]
    fn cycles_are_errors_not_hangs() {
        let doc = json!({"a": "@b", "b": {"c": "@a"}, "self": {"x": "@self"}, "p": "@q.r", "q": "@p"});
        let err = get(&doc, "a").unwrap_err();
        assert!(matches!(err, RefError::Cycle { .. }), "{err}");
        assert_eq!(err.to_string(), "reference cycle at a: a → b.c → @a");
        assert!(matches!(get(&doc, "self").unwrap_err(), RefError::Cycle { .. }));
        assert!(matches!(get(&doc, "p").unwrap_err(), RefError::Cycle { .. }));
        // A sibling reference inside the same object is no cycle.
        let ok = json!({"o": {"x": 1, "y": "@o.x"}});
        assert_eq!(get(&ok, "o").unwrap(), json!({"x": 1, "y": 1}));
    }

    #[test]
    fn fan_out_is_bounded() {
        let mut doc = json!({"l0": [1, 2, 3, 4, 5, 6, 7, 8]});
        for level in 1..8 {
            let below = format!("@l{}", level - 1);
            doc[format!("l{level}")] = json!(vec![below; 8]);
        }
        let path = DocPath::parse("l7").unwrap();
        assert_eq!(
            resolve_within(&doc, &path, 10_000).unwrap_err(),
            RefError::TooLarge { limit: 10_000 }
        );
    }

    #[test]
    fn fan_out_within_the_bound_resolves_every_copy() {
        // Each level lists the one below twice, through a reference in the middle of a path.
        let mut doc = json!({"g": {"l16": {"leaf": "x"}}});
        for level in (0..16).rev() {
            let below = format!("@g.l{}", level + 1);
            doc["g"][format!("l{level}")] = json!([below.clone(), {"via": below}]);
        }
        let resolved = get(&doc, "g.l0").unwrap();
        let text = resolved.to_string();
        assert_eq!(text.matches(r#"{"leaf":"x"}"#).count(), 1 << 16);
        assert!(!text.contains('@'), "a reference was left unresolved");
    }

    /// `{"a0": "@a1", "a1": "@a2", …, "a<n>": 1}`.
    fn chain_of(n: usize) -> Value {
        let mut map = Map::new();
        for i in 0..n {
            map.insert(format!("a{i}"), json!(format!("@a{}", i + 1)));
        }
        map.insert(format!("a{n}"), json!(1));
        Value::Object(map)
    }

    #[test]
    fn a_long_chain_is_an_error_not_a_stack_overflow() {
        assert_eq!(get(&chain_of(MAX_HOPS), "a0").unwrap(), json!(1));
        let started = std::time::Instant::now();
        let err = get(&chain_of(50_000), "a0").unwrap_err();
        assert!(matches!(err, RefError::TooLong { .. }), "{err}");
        assert_eq!(
            err.to_string(),
            "reference chain at a0 is longer than 32 references: a0 → a1 → a2 → @a3 → …"
        );
        assert!(
            started.elapsed() < std::time::Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
        // Also in the middle of a path.
        let mut doc = chain_of(1_000);
        doc["a1000"] = json!({"x": 2});
        assert!(matches!(get(&doc, "a0.x").unwrap_err(), RefError::TooLong { .. }));
    }

    #[test]
    fn references_cannot_nest_a_value_without_end() {
        // Each level holds the next one five lists deeper: 30 hops of 5 levels each.
        let mut doc = Map::new();
        for i in 0..30 {
            doc.insert(format!("l{i}"), json!([[[[[format!("@l{}", i + 1)]]]]]));
        }
        doc.insert("l30".into(), json!("bottom"));
        let doc = Value::Object(doc);
        assert!(get(&doc, "l10").is_ok(), "100 levels");
        assert!(
            matches!(get(&doc, "l9").unwrap_err(), RefError::TooDeep { .. }),
            "105 levels"
        );
        let err = get(&doc, "l0").unwrap_err();
        assert!(matches!(err, RefError::TooDeep { .. }), "{err}");
        assert!(err.to_string().ends_with("deeper than 100 levels"), "{err}");
    }
}
