//! Following references: where a path leads through the references on its way
//! ([`Resolver::locate`]), how large a value is once its references are resolved, each
//! reference's target measured once ([`Resolver::measure_within`]), and the value built once
//! it is known to be bounded ([`Resolver::build`]).

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::{Hop, MAX_HOPS, MAX_NESTING, RefError, target};
use crate::store::path::{DocPath, PathError};

/// How large a value is once resolved: its values, and how deep it nests.
#[derive(Debug, Clone, Copy)]
pub(super) struct Extent {
    values: usize,
    nesting: usize,
}

pub(super) struct Resolver<'a> {
    doc: &'a Value,
    /// What each reference's target (at its real location) resolves to, found once.
    measured: HashMap<DocPath, Result<Extent, RefError>>,
    /// Each reference's target, built once: references that fan out to one value copy it
    /// rather than follow it again.
    built: HashMap<DocPath, Value>,
}

impl<'a> Resolver<'a> {
    pub(super) fn new(doc: &'a Value) -> Self {
        Self {
            doc,
            measured: HashMap::new(),
            built: HashMap::new(),
        }
    }

    /// Walks `path`, following a reference wherever one stands in the way; returns the value,
    /// its real location in the document, and the references followed.
    pub(super) fn locate(
        &self,
        path: &DocPath,
        mut chain: Vec<Hop>,
    ) -> Result<(&'a Value, DocPath, Vec<Hop>), RefError> {
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
            current = match crate::store::path::step(current, token) {
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
    pub(super) fn measure_within(
        &mut self,
        value: &'a Value,
        at: &DocPath,
        chain: &[Hop],
        limit: usize,
    ) -> Result<(), RefError> {
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
    pub(super) fn build(&mut self, value: &'a Value, at: &DocPath, chain: &[Hop]) -> Result<Value, RefError> {
        match value {
            Value::String(s) => match self.follow(s, at, chain) {
                Some(followed) => {
                    let (found, real, longer) = followed?;
                    if let Some(known) = self.built.get(&real) {
                        return Ok(known.clone());
                    }
                    // Measured first, so what a target resolves to no longer depends on the
                    // chain that reached it.
                    let value = self.build(found, &real, &longer)?;
                    self.built.insert(real, value.clone());
                    Ok(value)
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
