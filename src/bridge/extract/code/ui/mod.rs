//! Frontend facts: exported components, client routes (React Router, Next.js, Remix), client
//! state, and design-system imports. Components re-exported with `export *` are filled in
//! from the files they come from when the run's files are linked.

pub mod components;
pub mod design;
pub mod fs_routes;
pub mod router;
pub mod state;
#[cfg(test)]
mod tests;

use crate::bridge::extract::code::modules::PathIndex;
use crate::bridge::extract::code::modules::script_resolve::resolve_source;
use crate::bridge::facts::Component;

/// How many index files deep `export *` chains are followed.
const MAX_STAR_DEPTH: usize = 6;

/// One file's components and the sources it re-exports wholesale.
pub struct StarFile<'s> {
    pub path: &'s str,
    pub components: &'s [Component],
    pub stars: &'s [String],
}

/// The components each file re-exports through `export * from …`, as `re-export`s of that file.
pub fn star_exports(files: &[StarFile<'_>]) -> Vec<Component> {
    let index = PathIndex::new(files.iter().map(|f| f.path.to_owned()));
    let mut out = Vec::new();
    for (at, file) in files.iter().enumerate() {
        let mut names = Vec::new();
        collect(files, &index, at, 0, &mut names);
        for name in names {
            if !file.components.iter().any(|c| c.name == name)
                && !out.iter().any(|c: &Component| c.name == name && c.file == file.path)
            {
                out.push(Component {
                    name,
                    kind: "re-export".into(),
                    file: file.path.to_owned(),
                });
            }
        }
    }
    out
}

fn collect(files: &[StarFile<'_>], index: &PathIndex, at: usize, depth: usize, names: &mut Vec<String>) {
    if depth >= MAX_STAR_DEPTH {
        return;
    }
    let file = &files[at];
    for source in file.stars {
        let Some(target) = resolve_source(index, file.path, source) else {
            continue;
        };
        if target == at {
            continue;
        }
        for component in files[target].components.iter().filter(|c| c.kind != "default") {
            if !names.contains(&component.name) {
                names.push(component.name.clone());
            }
        }
        collect(files, index, target, depth + 1, names);
    }
}
