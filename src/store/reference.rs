//! References: a string `"@agents.analyst.outputs.project_brief"` (or `"@/json/pointer"`)
//! anywhere in the document stands for the value at that path. Resolving replaces every
//! reference by its value, through references to references at any depth and through a
//! reference in the middle of a path. A reference to a missing value (dangling) or one that
//! leads back to itself (a cycle) is an error naming where it is and the chain that led there.
//! `"@@text"` is the literal string `"@text"`.

use std::collections::HashMap;
use std::fmt;

use serde_json::{Map, Value};

use super::path::{DocPath, PathError};

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

/// How large a value is once resolved: its values, and how deep it nests.
#[derive(Debug, Clone, Copy)]
struct Extent {
    values: usize,
    nesting: usize,
}

struct Resolver<'a> {
    doc: &'a Value,
    /// What each reference's target (at its real location) resolves to, found once.
    measured: HashMap<DocPath, Result<Extent, RefError>>,
}

impl<'a> Resolver<'a> {
    fn new(doc: &'a Value) -> Self {
        Self {
            doc,
            measured: HashMap::new(),
        }
    }

    /// Walks `path`, following a reference wherever one stands in the way; returns the value,
    /// its real location in the document, and the references followed.
    fn locate(&self, path: &DocPath, mut chain: Vec<Hop>) -> Result<(&'a Value, DocPath, Vec<Hop>), RefError> {
        let mut current = self.doc;
        let mut location = DocPath::root();
        let tokens = path.tokens();
        let mut i = 0;
        loop {
            if i < tokens.len()
                && let Value::String(s) = current
                && let Some(parsed) = target(s)
            {
                let hop = self.hop(&location, parsed, &chain)?;
                chain.push(hop.clone());
                let (value, real, longer) = self.locate(&hop.target, chain)?;
                current = value;
                location = real;
                chain = longer;
                continue;
            }
            let Some(token) = tokens.get(i) else {
                return Ok((current, location, chain));
            };
            let next = location.child(token.clone());
            current = match super::path::step(current, token) {
                Ok(value) => value,
                Err(why) => {
                    let reason = format!("{} {why}", shown(&location));
                    return Err(match chain.is_empty() {
                        true => RefError::Missing(PathError {
                            path: path.to_string(),
                            reason,
                        }),
                        false => RefError::Dangling { chain, reason },
                    });
                }
            };
            location = next;
            i += 1;
        }
    }

    /// A reference at `at` to `parsed`, checked for cycles against the references being followed.
    fn hop(&self, at: &DocPath, parsed: Result<DocPath, PathError>, chain: &[Hop]) -> Result<Hop, RefError> {
        let target = parsed.map_err(|error| RefError::Malformed { at: at.clone(), error })?;
        let hop = Hop { at: at.clone(), target };
        if chain.len() >= MAX_HOPS {
            return Err(RefError::TooLong {
                chain: chain[..3].to_vec(),
            });
        }
        // Resolving a value that holds a reference being followed would never end.
        if hop.target.contains(at) || chain.iter().any(|h| hop.target.contains(&h.at)) {
            let mut hops = chain.to_vec();
            hops.push(hop);
            return Err(RefError::Cycle { chain: hops });
        }
        Ok(hop)
    }

    /// The reference in `text` at `at`, followed: the value it stands for, where that is, and
    /// the longer chain. `None` when `text` is no reference.
    #[allow(clippy::type_complexity)]
    fn follow(
        &self,
        text: &str,
        at: &DocPath,
        chain: &[Hop],
    ) -> Option<Result<(&'a Value, DocPath, Vec<Hop>), RefError>> {
        let parsed = target(text)?;
        Some(self.hop(at, parsed, chain).and_then(|hop| {
            let mut longer = chain.to_vec();
            longer.push(hop.clone());
            self.locate(&hop.target, longer)
        }))
    }

    /// [`Self::measure`], and the value's bound: at most `limit` values.
    fn measure_within(&mut self, value: &'a Value, at: &DocPath, chain: &[Hop], limit: usize) -> Result<(), RefError> {
        let extent = self.measure(value, at, chain, 0)?;
        if extent.values > limit {
            return Err(RefError::TooLarge { limit });
        }
        Ok(())
    }

    /// How large `value` (found at `at`, `depth` levels down the result) is with its references
    /// resolved, each reference's target measured once; cycles, dangling and malformed
    /// references are errors, and so is nesting deeper than [`MAX_NESTING`].
    fn measure(&mut self, value: &'a Value, at: &DocPath, chain: &[Hop], depth: usize) -> Result<Extent, RefError> {
        let children: Box<dyn Iterator<Item = (String, &'a Value)>> = match value {
            Value::String(s) => {
                let Some(followed) = self.follow(s, at, chain) else {
                    return Ok(Extent { values: 1, nesting: 0 });
                };
                let (found, real, longer) = followed?;
                let extent = match self.measured.get(&real) {
                    Some(known) => known.clone()?,
                    None => {
                        let extent = self.measure(found, &real, &longer, depth);
                        // A value cut off for depth may fit where it is reached higher up.
                        if !matches!(extent, Err(RefError::TooDeep { .. })) {
                            self.measured.insert(real, extent.clone());
                        }
                        extent?
                    }
                };
                if depth + extent.nesting > MAX_NESTING {
                    return Err(RefError::TooDeep { at: at.clone() });
                }
                return Ok(extent);
            }
            Value::Array(_) | Value::Object(_) if depth >= MAX_NESTING => {
                return Err(RefError::TooDeep { at: at.clone() });
            }
            Value::Array(items) => Box::new(items.iter().enumerate().map(|(i, v)| (i.to_string(), v))),
            Value::Object(map) => Box::new(map.iter().map(|(k, v)| (k.clone(), v))),
            _ => return Ok(Extent { values: 1, nesting: 0 }),
        };
        let mut total = Extent { values: 1, nesting: 1 };
        for (key, item) in children {
            let inner = self.measure(item, &at.child(key), chain, depth + 1)?;
            total.values = total.values.saturating_add(inner.values);
            total.nesting = total.nesting.max(inner.nesting + 1);
        }
        Ok(total)
    }

    /// A copy of `value` (found at `at`) with every reference replaced by its resolved value;
    /// called once [`Self::measure_within`] has bounded what it builds.
    fn build(&self, value: &'a Value, at: &DocPath, chain: &[Hop]) -> Result<Value, RefError> {
        match value {
            Value::String(s) => match self.follow(s, at, chain) {
                Some(followed) => {
                    let (found, real, longer) = followed?;
                    self.build(found, &real, &longer)
                }
                None if s.starts_with("@@") => Ok(Value::String(s[1..].to_owned())),
                None => Ok(value.clone()),
            },
            Value::Array(items) => items
                .iter()
                .enumerate()
                .map(|(i, item)| self.build(item, &at.child(i.to_string()), chain))
                .collect::<Result<Vec<_>, _>>()
                .map(Value::Array),
            Value::Object(map) => map
                .iter()
                .map(|(key, item)| Ok((key.clone(), self.build(item, &at.child(key.clone()), chain)?)))
                .collect::<Result<Map<_, _>, _>>()
                .map(Value::Object),
            other => Ok(other.clone()),
        }
    }
}

fn shown(path: &DocPath) -> String {
    if path.tokens().is_empty() {
        "the document".to_owned()
    } else {
        path.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
