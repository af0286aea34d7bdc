//! Request/response and validation shapes: DTO classes, TypeScript interfaces and object
//! types, zod schemas, Pydantic models. Each file's scan keeps a shape's bases by name
//! (`extends`, `PartialType(X)`, `.extend()`, a Pydantic parent class); linking fills in the
//! inherited fields from the run's other shapes and drops Python classes that turn out not to
//! be Pydantic models.

pub mod drf;
pub mod joi;
pub mod marshmallow;
pub mod parsed;
pub mod pydantic;
pub mod script;
pub mod serde;
#[cfg(test)]
mod tests;
pub mod typebox;
pub mod wtforms;
pub mod zod;

use std::cell::Cell;
use std::collections::HashMap;

use std::collections::HashSet;

use crate::bridge::facts::{Endpoint, EnvVar, Field, Shape};

/// How many bases deep inheritance is followed.
const MAX_INHERITANCE: usize = 8;

/// How many base lookups one run's shapes may take in all.
const MAX_BASE_VISITS: usize = 100_000;

/// A shape as one file declares it, bases unresolved.
#[derive(Debug, Clone, Default)]
pub struct PendingShape {
    /// `kind` is empty for a Python class until linking knows whether it is a Pydantic model.
    pub shape: Shape,
    pub bases: Vec<Base>,
    /// pydantic-settings' `env_prefix`.
    pub env_prefix: Option<String>,
    /// The validation library that checks values against it (`zod`, `class-validator`, …),
    /// when it is a validation schema.
    pub validation: Option<&'static str>,
}

/// A shape another inherits from, and how its fields are taken.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Base {
    pub name: String,
    /// `PartialType(X)`/`X.partial()` make every field optional, `X.required()` required.
    pub optional: Option<bool>,
    /// `OmitType(X, ['a'])`, `X.omit({ a: true })`.
    pub omit: Vec<String>,
    /// `PickType(X, ['a'])`, `X.pick({ a: true })`.
    pub pick: Option<Vec<String>>,
}

impl Base {
    /// All of `name`'s fields as they are.
    pub fn all(name: &str) -> Base {
        Base {
            name: name.to_owned(),
            ..Base::default()
        }
    }
}

/// Base classes that make a Python class a Pydantic model, and the settings base.
const PYDANTIC_ROOTS: &[&str] = &["BaseModel", "RootModel", "SQLModel", "GenericModel"];
const SETTINGS_ROOT: &str = "BaseSettings";

/// The shapes of the run with inherited fields filled in, and the environment variables that
/// pydantic-settings classes read.
pub fn link(pending: Vec<PendingShape>) -> (Vec<Shape>, Vec<EnvVar>) {
    let by_name: HashMap<&str, Vec<usize>> = pending.iter().enumerate().fold(HashMap::new(), |mut map, (at, p)| {
        map.entry(p.shape.name.as_str()).or_default().push(at);
        map
    });
    let resolver = Resolver {
        pending: &pending,
        by_name,
        budget: Cell::new(MAX_BASE_VISITS),
    };
    let mut shapes = Vec::new();
    let mut env = Vec::new();
    for (at, item) in pending.iter().enumerate() {
        let kind = resolver.kind(at, 0);
        let fields = resolver.fields(at, 0);
        match kind.as_deref() {
            Some("settings") => {
                let prefix = item.env_prefix.clone().unwrap_or_default();
                env.extend(fields.iter().map(|field| EnvVar {
                    name: format!("{prefix}{}", field.name).to_ascii_uppercase(),
                    source: "pydantic-settings".into(),
                    file: item.shape.file.clone(),
                }));
            }
            Some(kind) => shapes.push(Shape {
                kind: kind.to_owned(),
                fields,
                ..item.shape.clone()
            }),
            None => {}
        }
    }
    (shapes, env)
}

/// How many rounds of field types are followed from the endpoints to the serde structs.
const MAX_BODY_DEPTH: usize = 8;

/// The shapes without the serde structs no endpoint takes or returns: a Rust crate derives
/// `Serialize` for many things that are no request or response. A struct named by an
/// endpoint's request or response (`Json<UserBody<NewUser>>`), by a field of one, or as a
/// generic parameter's default of one is kept.
pub fn bodies_only(shapes: Vec<Shape>, endpoints: &[Endpoint]) -> Vec<Shape> {
    let words = |text: &str| -> Vec<String> {
        text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .map(str::to_owned)
            .collect()
    };
    let mut wanted: HashSet<String> = endpoints
        .iter()
        .flat_map(|e| e.request.iter().chain(e.response.iter()))
        .flat_map(|text| words(text))
        .collect();
    for _ in 0..MAX_BODY_DEPTH {
        let before = wanted.len();
        let reached: Vec<String> = shapes
            .iter()
            .filter(|s| s.kind == "serde" && wanted.contains(&s.name))
            .flat_map(|s| s.fields.iter().filter_map(|f| f.data_type.as_deref()))
            .flat_map(&words)
            .collect();
        wanted.extend(reached);
        if wanted.len() == before {
            break;
        }
    }
    shapes
        .into_iter()
        .filter(|shape| shape.kind != "serde" || wanted.contains(&shape.name))
        .collect()
}

struct Resolver<'p> {
    pending: &'p [PendingShape],
    by_name: HashMap<&'p str, Vec<usize>>,
    /// Bases read so far: a lattice of many-based classes fans out.
    budget: Cell<usize>,
}

impl Resolver<'_> {
    /// The shape a base name in `from`'s file stands for: the one in the same file, else the only one.
    fn base(&self, from: usize, name: &str) -> Option<usize> {
        let found = self.by_name.get(name)?;
        let file = &self.pending[from].shape.file;
        found
            .iter()
            .copied()
            .filter(|at| *at != from)
            .find(|at| self.pending[*at].shape.file == *file)
            .or(match found.as_slice() {
                [only] if *only != from => Some(*only),
                _ => None,
            })
    }

    /// The shape's kind; a Python class's comes from its bases (`None`: not a shape at all).
    fn kind(&self, at: usize, depth: usize) -> Option<String> {
        let item = &self.pending[at];
        if !item.shape.kind.is_empty() {
            return Some(item.shape.kind.clone());
        }
        if depth > MAX_INHERITANCE {
            return None;
        }
        item.bases.iter().find_map(|base| {
            let last = base.name.rsplit('.').next().unwrap_or(&base.name);
            if PYDANTIC_ROOTS.contains(&last) {
                Some("pydantic".to_owned())
            } else if last == SETTINGS_ROOT {
                Some("settings".to_owned())
            } else {
                self.kind(self.base(at, &base.name)?, depth + 1)
            }
        })
    }

    /// Inherited fields first (as each base's mode says), then the shape's own, which win.
    fn fields(&self, at: usize, depth: usize) -> Vec<Field> {
        let item = &self.pending[at];
        let mut out: Vec<Field> = Vec::new();
        let budget = self.budget.get();
        self.budget.set(budget.saturating_sub(1));
        if depth <= MAX_INHERITANCE && budget > 0 {
            for base in &item.bases {
                let Some(base_at) = self.base(at, &base.name) else {
                    continue;
                };
                for mut field in self.fields(base_at, depth + 1) {
                    let picked = base.pick.as_ref().is_none_or(|pick| pick.contains(&field.name));
                    if !picked || base.omit.contains(&field.name) {
                        continue;
                    }
                    if let Some(optional) = base.optional {
                        field.optional = optional;
                    }
                    upsert(&mut out, field);
                }
            }
        }
        for field in &item.shape.fields {
            upsert(&mut out, field.clone());
        }
        out
    }
}

fn upsert(fields: &mut Vec<Field>, field: Field) {
    match fields.iter_mut().find(|have| have.name == field.name) {
        Some(have) => *have = field,
        None => fields.push(field),
    }
}
