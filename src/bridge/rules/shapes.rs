//! Request and validation shapes: each file's `shape.*`/`field.*` captures become shapes
//! with their bases unresolved; linking fills in the fields a shape inherits from the run's
//! other shapes (`extends`, `PartialType(X)`, `.partial()`, a Pydantic parent class), gives a
//! shape of kind `inherit` the kind of its bases (dropping classes that reach none), and reads
//! settings classes as environment variables. [`bodies_only`] keeps of the serde structs those
//! the endpoints take or return.

use std::cell::Cell;
use std::collections::btree_map::Entry;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::ops::Range;

use super::hits::Hit;
use super::naming;
use super::scopes::Nest;
use super::tags;
use super::text::literal;
use crate::bridge::code_model::lineage::ancestry;
use crate::bridge::code_model::wants::is_test_path;
use crate::bridge::facts::{Endpoint, EnvVar, Facts, Field, Guard, Shape};

/// How many bases deep inheritance is followed.
const MAX_INHERITANCE: usize = 8;

/// How many base lookups one run's shapes may take in all.
const MAX_BASE_VISITS: usize = 100_000;

/// How many rounds of field types are followed from the endpoints to the serde structs.
const MAX_BODY_DEPTH: usize = 8;

/// The kind of a shape that is one only if a base is (`#set! kind "inherit"`), and the kind
/// whose fields are environment variables.
const INHERIT: &str = "inherit";
const SETTINGS: &str = "settings";

/// The kind of a validation schema that is no request shape (one that checks only a query).
const VALIDATION: &str = "validation";

/// A shape as one file declares it, bases unresolved.
#[derive(Debug, Clone, Default)]
pub struct PendingShape {
    pub shape: Shape,
    pub bases: Vec<Base>,
    /// A settings class's `env_prefix`.
    pub env_prefix: Option<String>,
    /// The framework that validates it, if one does.
    pub validates: Option<&'static str>,
}

/// A shape another inherits from, and how its fields are taken (`base.mode`, with the names
/// `base.keys` lists).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Base {
    pub name: String,
    /// `partial`/`PartialType` makes every field optional, `required` required.
    pub optional: Option<bool>,
    /// `omit`/`OmitType`: names left out.
    pub omit: Vec<String>,
    /// `pick`/`PickType`: the only names taken.
    pub pick: Option<Vec<String>>,
}

/// A field as the hits on it say, before it is put in its shape.
struct FieldHit {
    name: String,
    /// `field.rename`: the name on the wire, as written.
    rename: Option<String>,
    data_type: Option<String>,
    optional: bool,
    /// The framework of a rule on it (which makes its shape a validation).
    ruled: Option<&'static str>,
    skip: bool,
}

impl FieldHit {
    /// What another hit on the same field adds.
    fn absorb(&mut self, other: FieldHit) {
        self.rename = self.rename.take().or(other.rename);
        self.data_type = self.data_type.take().or(other.data_type);
        self.optional |= other.optional;
        self.ruled = self.ruled.or(other.ruled);
        self.skip |= other.skip;
    }
}

/// A shape of the file, with what its fields need.
#[derive(Default)]
struct Found {
    scope: Range<usize>,
    /// Where its name is: hits naming it there are about it, wherever they are.
    name: Range<usize>,
    pending: PendingShape,
    rename_all: Option<String>,
    required: Vec<String>,
    /// `(parameter, default)` of a generic shape: a field of the parameter's type has the default's.
    defaults: Vec<(String, String)>,
}

/// One file's shapes, bases unresolved.
pub fn of_file(path: &str, hits: &[Hit<'_>]) -> Vec<PendingShape> {
    let mut found: Vec<Found> = Vec::new();
    let mut by_scope: HashMap<Range<usize>, usize> = HashMap::new();
    for hit in hits {
        let (Some(scope), Some(name)) = (hit.get("shape.scope"), hit.get("shape.name")) else {
            continue;
        };
        let kind = hit.prop("kind").unwrap_or("struct");
        let validates = hit.prop("validation").map(|_| hit.framework());
        // Several patterns may find one shape: a kind of its own wins over `inherit`.
        if let Some(have) = by_scope.get(&scope.range).map(|at| &mut found[*at]) {
            if have.pending.shape.kind == INHERIT {
                have.pending.shape.kind = kind.to_owned();
            }
            have.pending.validates = have.pending.validates.or(validates);
            continue;
        }
        by_scope.insert(scope.range.clone(), found.len());
        found.push(Found {
            scope: scope.range.clone(),
            name: name.range.clone(),
            pending: PendingShape {
                shape: Shape {
                    name: literal(name.text),
                    kind: kind.to_owned(),
                    file: path.to_owned(),
                    ..Shape::default()
                },
                validates,
                ..PendingShape::default()
            },
            ..Found::default()
        });
    }
    found.sort_by_key(|shape| shape.scope.start);
    let shapes = Nest::of(found.iter().map(|shape| shape.scope.clone()).collect());
    let by_name: HashMap<Range<usize>, usize> = found
        .iter()
        .enumerate()
        .map(|(at, shape)| (shape.name.clone(), at))
        .collect();
    // `field.scope`: a field inside another field (a nested object's) is not the shape's.
    let field_scopes = Nest::of(
        hits.iter()
            .filter_map(|hit| hit.get("field.scope").map(|c| c.range.clone()))
            .collect(),
    );
    // Hits on the same field (by where its name is) are one field.
    let mut fields: BTreeMap<(usize, usize), (usize, FieldHit)> = BTreeMap::new();
    for hit in hits {
        if let Some(name) = hit.get("field.name") {
            if let Some(at) = shapes
                .innermost(&name.range)
                .filter(|_| field_scopes.depth(&name.range) < 2)
            {
                let found = field(hit, name.text);
                match fields.entry((name.range.start, name.range.end)) {
                    Entry::Occupied(mut have) => have.get_mut().1.absorb(found),
                    Entry::Vacant(place) => _ = place.insert((at, found)),
                }
            }
            continue;
        }
        let about = [
            "shape.base",
            "shape.env_prefix",
            "shape.rename_all",
            "shape.required",
            "shape.param",
        ]
        .iter()
        .find_map(|name| hit.get(name));
        let named = hit.get("shape.name").and_then(|name| by_name.get(&name.range).copied());
        let Some(item) = named
            .or_else(|| shapes.innermost(&about?.range))
            .map(|at| &mut found[at])
        else {
            continue;
        };
        let mode = hit
            .text("base.mode")
            .map(|mode| mode.trim_end_matches("Type").to_ascii_lowercase());
        let keys = |wanted: &str| {
            hit.text("base.keys")
                .map(names)
                .filter(|_| mode.as_deref() == Some(wanted))
        };
        for base in hit.all("shape.base") {
            item.pending.bases.push(Base {
                name: literal(base.text),
                optional: match mode.as_deref() {
                    Some("partial" | "deeppartial") => Some(true),
                    Some("required") => Some(false),
                    _ => None,
                },
                omit: keys("omit").unwrap_or_default(),
                pick: keys("pick"),
            });
        }
        if let (Some(param), Some(default)) = (hit.text("shape.param"), hit.text("shape.default")) {
            item.defaults.push((param.to_owned(), default.to_owned()));
        }
        let text = |name: &str| hit.text(name).map(literal);
        item.pending.env_prefix = text("shape.env_prefix").or(item.pending.env_prefix.take());
        item.rename_all = text("shape.rename_all").or(item.rename_all.take());
        if let Some(required) = hit.text("shape.required") {
            item.required.extend(names(required));
        }
    }
    for (at, f) in fields.into_values().filter(|(_, f)| !f.skip) {
        let item = &mut found[at];
        item.pending.validates = item.pending.validates.or(f.ruled);
        let name = f
            .rename
            .unwrap_or_else(|| naming::renamed(&f.name, item.rename_all.as_deref()));
        let data_type = f
            .data_type
            .map(|t| match item.defaults.iter().find(|(param, _)| *param == t) {
                Some((_, default)) => default.clone(),
                None => t,
            });
        let field = Field {
            optional: f.optional && !item.required.contains(&name),
            name,
            data_type,
        };
        // A field named again with its type (a serializer's declared field that its
        // `Meta.fields` also lists) is the typed one.
        match item
            .pending
            .shape
            .fields
            .iter_mut()
            .find(|have| have.name == field.name)
        {
            Some(have) if have.data_type.is_none() && field.data_type.is_some() => *have = field,
            Some(_) => {}
            None => item.pending.shape.fields.push(field),
        }
    }
    found.into_iter().map(|item| item.pending).collect()
}

/// A field as one hit says: its name (`field.rename` is the one on the wire), type, whether
/// it is optional, left out (`field.skip`). A rule on the field (`field.rule`, a Go tag's
/// `binding`/`validate`) makes its shape a validation; with `#set! required-by "rules"` the
/// field is required only with a `required` rule.
fn field(hit: &Hit<'_>, name: &str) -> FieldHit {
    let rules = hit.text("field.rule").map(str::to_owned).or_else(|| {
        let tag = hit.text("field.tag")?;
        Some(
            tags::get(tag, "binding")
                .or_else(|| tags::get(tag, "validate"))?
                .to_owned(),
        )
    });
    let data_type = hit.text("field.type").map(|text| match hit.prop("type") {
        Some("call") => call_type(text),
        Some("call-lower") => call_type(text).to_ascii_lowercase(),
        _ => text.to_owned(),
    });
    // `#set! optional-when "a|b"`, `required-when`: words the `field.value` text holds.
    let holds = |key: &str| {
        hit.prop(key)
            .zip(hit.text("field.value"))
            .map(|(words, text)| words.split('|').any(|word| text.contains(word)))
    };
    FieldHit {
        name: literal(name),
        rename: hit.text("field.rename").map(literal),
        data_type,
        optional: hit.prop("optional") == Some("true")
            || holds("optional-when") == Some(true)
            || holds("required-when") == Some(false)
            || (hit.prop("required-by") == Some("rules")
                && !rules.as_deref().is_some_and(|rules| rules.contains("required"))),
        ruled: rules.map(|_| hit.framework()),
        skip: hit.get("field.skip").is_some(),
    }
}

/// The type a builder call names (`#set! type "call"`, `"call-lower"` in lower case): `z.string().min(1)` → `string`,
/// `z.coerce.date()` → `date`; a first argument listing strings is their union
/// (`z.enum(['admin', 'member'])` → `'admin' | 'member'`).
fn call_type(text: &str) -> String {
    let (callee, rest) = text.split_once('(').unwrap_or((text, ""));
    let rest = rest.trim_start();
    if let Some(list) = rest.strip_prefix('[') {
        let list = list.split(']').next().unwrap_or("");
        let values: Vec<String> = names(list).iter().map(|v| format!("'{v}'")).collect();
        if !values.is_empty() {
            return values.join(" | ");
        }
    }
    callee.rsplit('.').next().unwrap_or(callee).trim().to_owned()
}

/// The names a list holds: its quoted strings (`['a', 'b']`), else the keys of an object
/// (`{ a: true, b: true }`).
pub(super) fn names(text: &str) -> Vec<String> {
    let quoted: Vec<String> = text
        .split(['\'', '"', '`'])
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect();
    if !quoted.is_empty() {
        return quoted;
    }
    text.split([',', '{', '}'])
        .filter_map(|entry| entry.split_once(':'))
        .map(|(key, _)| key.trim().to_owned())
        .filter(|key| !key.is_empty())
        .collect()
}

/// The shapes of the run with inherited fields filled in, the validation guards of those a
/// rule validates, and the environment variables that settings classes read.
pub fn link(pending: Vec<PendingShape>) -> Facts {
    let by_name: HashMap<&str, Vec<usize>> = pending.iter().enumerate().fold(HashMap::new(), |mut map, (at, p)| {
        map.entry(p.shape.name.as_str()).or_default().push(at);
        map
    });
    let resolver = Resolver {
        pending: &pending,
        by_name,
        budget: Cell::new(MAX_BASE_VISITS),
    };
    let mut facts = Facts::default();
    for (at, item) in pending.iter().enumerate() {
        let Some(kind) = resolver.kind(at) else { continue };
        let fields = resolver.fields(at, 0);
        if kind == SETTINGS {
            let prefix = item.env_prefix.clone().unwrap_or_default();
            facts.env_vars.extend(fields.iter().map(|field| EnvVar {
                name: format!("{prefix}{}", field.name).to_ascii_uppercase(),
                source: "pydantic-settings".into(),
                file: item.shape.file.clone(),
            }));
            continue;
        }
        // A test's schemas check the test's requests, not the application's.
        if let Some(framework) = item.validates.filter(|_| !is_test_path(&item.shape.file)) {
            facts.guards.push(Guard {
                name: item.shape.name.clone(),
                kind: "validation".into(),
                framework: Some(framework.to_owned()),
                file: item.shape.file.clone(),
                ..Guard::default()
            });
        }
        if kind == VALIDATION {
            continue;
        }
        facts.shapes.push(Shape {
            kind: kind.to_owned(),
            fields,
            ..item.shape.clone()
        });
    }
    facts
}

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
        let found = self.by_name.get(name.rsplit('.').next().unwrap_or(name))?;
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

    /// The shape's kind; an `inherit` shape's comes from its bases (`None`: no shape at all).
    fn kind(&self, at: usize) -> Option<&str> {
        let kind = |at: usize| self.pending[at].shape.kind.as_str();
        // Only an `inherit` shape's bases are looked at.
        let lineage = ancestry(at, MAX_INHERITANCE + 1, |&at| {
            let bases = self.pending[at].bases.iter().filter(|_| kind(at) == INHERIT);
            bases.filter_map(|base| self.base(at, &base.name)).collect()
        });
        lineage.into_iter().map(kind).find(|kind| *kind != INHERIT)
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

#[cfg(test)]
#[path = "shapes_tests.rs"]
mod tests;
