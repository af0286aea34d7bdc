//! UI components from the rules' captures (see `assemble`'s table): those that count in one
//! file (a component whose scope renders, without a syntax error; a top-level one the file
//! exports by name), and the components index files re-export from other files.

use std::collections::HashMap;
use std::ops::Range;

use super::hits::{Hit, inside};
use super::naming;
use super::text::literal;
use crate::bridge::code_model::lineage::ancestry;
use crate::bridge::code_model::modules::PathIndex;
use crate::bridge::code_model::modules::script::resolve_source;
use crate::bridge::facts::Component;

/// How many index files deep `export *` chains are followed.
const MAX_STAR_DEPTH: usize = 6;

/// The components of one file's hits, in the file's order, each name once.
pub fn components(path: &str, hits: &[Hit<'_>]) -> Vec<Component> {
    let placed = |name: &'static str| -> Vec<Range<usize>> {
        hits.iter()
            .flat_map(|hit| hit.all(name))
            .map(|c| c.range.clone())
            .collect()
    };
    let (renders, broken) = (placed("component.renders"), placed("component.broken"));
    let counts = |hit: &Hit<'_>| match hit.get("component.scope") {
        Some(scope) => {
            renders.iter().any(|at| inside(at, &scope.range)) && !broken.iter().any(|at| inside(at, &scope.range))
        }
        None => true,
    };
    let kind = |hit: &Hit<'_>| match hit.get("component.default") {
        Some(_) => "default".to_owned(),
        None => hit
            .text("component.kind")
            .or(hit.prop("kind"))
            .unwrap_or("component")
            .to_owned(),
    };
    let locals: HashMap<&str, String> = hits
        .iter()
        .filter(|hit| counts(hit))
        .filter_map(|hit| Some((hit.text("component.local")?, kind(hit))))
        .collect();
    let mut found: Vec<(usize, String, String)> = Vec::new();
    for hit in hits {
        if let Some(name) = hit.get("component.name").filter(|_| counts(hit)) {
            found.push((name.range.start, literal(name.text), kind(hit)));
        } else if let Some(at) = hit.get("component.anonymous").filter(|_| counts(hit)) {
            found.push((at.range.start, file_component_name(path), kind(hit)));
        } else if let Some(export) = hit.get("component.export")
            && let Some(local) = locals.get(export.text)
        {
            let name = hit.text("component.alias").unwrap_or(export.text).to_owned();
            let default = hit.get("component.default").map(|_| "default".to_owned());
            let kind = default.unwrap_or_else(|| local.clone());
            found.push((export.range.start, name, kind));
        }
    }
    found.sort_by_key(|(at, _, _)| *at);
    let mut out: Vec<Component> = Vec::new();
    for (_, name, kind) in found {
        if !out.iter().any(|have| have.name == name) {
            out.push(Component {
                name,
                kind,
                file: path.to_owned(),
            });
        }
    }
    out
}

/// The name an anonymous default export goes by: its file's (`user-card.tsx` → `UserCard`).
fn file_component_name(path: &str) -> String {
    let name = path.rsplit('/').next().unwrap_or(path);
    let stem = name.split('.').next().unwrap_or(name);
    naming::renamed(&stem.replace('-', "_"), Some("PascalCase"))
}

/// What one file re-exports: `export { Button as Primary } from './Button'` (`exported`,
/// the `name` the source exports, `source`), or everything of a source (`export *`: no name).
pub struct ReExport {
    file: String,
    exported: Option<String>,
    name: String,
    source: String,
}

impl ReExport {
    /// The re-export a hit captures (`component.source` with `component.original` and
    /// `component.reexport`, or `component.star`); a name that is no component's is none.
    pub fn of(path: &str, hit: &Hit<'_>) -> Option<ReExport> {
        if let Some(source) = hit.text("component.star") {
            return Some(ReExport {
                file: path.to_owned(),
                exported: None,
                name: String::new(),
                source: literal(source),
            });
        }
        let (name, source) = (hit.text("component.original")?, hit.text("component.source")?);
        let exported = hit.text("component.reexport").unwrap_or(name);
        exported
            .starts_with(|c: char| c.is_ascii_uppercase())
            .then(|| ReExport {
                file: path.to_owned(),
                exported: Some(exported.to_owned()),
                name: name.to_owned(),
                source: literal(source),
            })
    }
}

/// Adds the components each file re-exports, as `re-export`s of that file: by name when the
/// source is a file of the run that exports a component of that name or, when it is not, the
/// name and path read like a component's (a `.tsx`/`.jsx` index or a `./Button`-style source; a
/// backend's `export { CreateUserDto } from './create-user.dto'` is none); through `export *`,
/// every component the source (and its own `export *` sources) declares.
pub fn re_exports<'p>(components: &mut Vec<Component>, re_exports: &'p [ReExport], paths: &[&'p str]) {
    let index = PathIndex::new(paths.iter().map(|path| (*path).to_owned()));
    let mut by_file: HashMap<&str, Vec<&Component>> = HashMap::new();
    for component in components.iter() {
        by_file.entry(component.file.as_str()).or_default().push(component);
    }
    let of = |file: &str, source: &str| resolve_source(&index, file, source).and_then(|at| paths.get(at).copied());
    let mut added: Vec<Component> = Vec::new();
    let push = |file: &str, name: String, added: &mut Vec<Component>| {
        let own = by_file
            .get(file)
            .is_some_and(|have| have.iter().any(|c| c.name == name));
        if !own && !added.iter().any(|c| c.name == name && c.file == file) {
            added.push(Component {
                name,
                kind: "re-export".into(),
                file: file.to_owned(),
            });
        }
    };
    for re in re_exports {
        let Some(exported) = &re.exported else { continue };
        let named = match of(&re.file, &re.source) {
            Some(target) => by_file.get(target).is_some_and(|have| {
                have.iter().any(|c| match re.name.as_str() {
                    "default" => c.kind == "default",
                    name => c.name == name && c.kind != "default",
                })
            }),
            None => {
                let last = re.source.rsplit('/').next().unwrap_or(&re.source);
                [".tsx", ".jsx"].iter().any(|ext| re.file.ends_with(ext))
                    || last.starts_with(|c: char| c.is_ascii_uppercase())
            }
        };
        if named {
            push(&re.file, exported.clone(), &mut added);
        }
    }
    let mut files: Vec<&str> = re_exports
        .iter()
        .filter(|re| re.exported.is_none())
        .map(|re| re.file.as_str())
        .collect();
    files.dedup();
    // Through `export *`: the components the sources declare, and their own sources', in order.
    let stars = |from: &&'p str| -> Vec<&'p str> {
        let stars = re_exports.iter().filter(|re| re.file == *from && re.exported.is_none());
        stars.filter_map(|star| of(from, &star.source)).collect()
    };
    for file in files {
        let sources = ancestry(file, MAX_STAR_DEPTH, stars);
        let declared = sources[1..]
            .iter()
            .flat_map(|source| by_file.get(source).into_iter().flatten());
        for component in declared.filter(|c| c.kind != "default") {
            push(file, component.name.clone(), &mut added);
        }
    }
    components.extend(added);
}
