//! Frontend facts: exported components, client routes (React Router, Next.js, Remix) and
//! design-system imports (client state comes from the rule files). Components re-exported with `export *` are filled in
//! from the files they come from when the run's files are linked.

pub mod components;
pub mod design;
pub mod fs_routes;
pub mod handlers;
pub mod router;
pub mod tanstack;
#[cfg(test)]
mod tests;

use crate::bridge::extract::code::modules::PathIndex;
use crate::bridge::extract::code::modules::script_resolve::resolve_source;
use crate::bridge::facts::Component;
use components::ReExport;

/// How many index files deep `export *` chains are followed.
const MAX_STAR_DEPTH: usize = 6;

/// One file's components and what it re-exports: wholesale, and name by name.
pub struct StarFile<'s> {
    pub path: &'s str,
    pub components: &'s [Component],
    pub stars: &'s [String],
    pub re_exports: &'s [ReExport],
}

/// The components each file re-exports, as `re-export`s of that file: through `export * from …`,
/// and by name (`export { Button } from './Button'`) when the source is a file of the run that
/// exports a component of that name, or, when it is not, the name and path read like a
/// component's (a `.tsx`/`.jsx` index or a `./Button`-style source). A backend's
/// `export { CreateUserDto } from './create-user.dto'` is none.
pub fn re_exports(files: &[StarFile<'_>]) -> Vec<Component> {
    let index = PathIndex::new(files.iter().map(|f| f.path.to_owned()));
    let mut out = Vec::new();
    for (at, file) in files.iter().enumerate() {
        let mut names: Vec<String> = file
            .re_exports
            .iter()
            .filter(|re| named_component(files, &index, file, re))
            .map(|re| re.exported.clone())
            .collect();
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

fn named_component(files: &[StarFile<'_>], index: &PathIndex, file: &StarFile<'_>, re: &ReExport) -> bool {
    match resolve_source(index, file.path, &re.source) {
        Some(target) => files[target].components.iter().any(|c| {
            if re.name == "default" {
                c.kind == "default"
            } else {
                c.name == re.name && c.kind != "default"
            }
        }),
        None => {
            let jsx = [".tsx", ".jsx"].iter().any(|ext| file.path.ends_with(ext));
            let last = re.source.rsplit('/').next().unwrap_or(&re.source);
            jsx || last.starts_with(|c: char| c.is_ascii_uppercase())
        }
    }
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
