//! Which file a name comes from: each language's imports and exports, read per file, and the
//! resolution of an import to another file of the same run (relative paths, package paths,
//! Rust module paths). Names that lead outside the run's files stay unresolved.

pub mod constants;
pub mod python;
pub mod rust;
pub mod script;
pub mod script_resolve;

use std::collections::HashMap;

use tree_sitter::Node;

use crate::bridge::extract::syntax::{Grammar, ParsedFile};
use crate::bridge::rules::{Hit, on_demand};

/// The hits of the file's `families/modules` rule file (imports, exports, constants) in its
/// top-level statements, those with a syntax error in them left out; read once per file.
pub fn top_level<'f, 'a>(file: &'f ParsedFile<'a>) -> &'f [Hit<'a>] {
    file.modules.get_or_init(|| {
        let rule = match file.grammar {
            Grammar::Python => "modules/python",
            Grammar::Rust => "modules/rust",
            _ => "modules/script",
        };
        on_demand(rule, file.grammar, &file.tree, file.text, true)
    })
}

/// The node capture `name` of a hit holds.
pub fn captured<'t>(file: &'t ParsedFile<'_>, hit: &Hit<'_>, name: &str) -> Option<Node<'t>> {
    let range = &hit.get(name)?.range;
    file.root().descendant_for_byte_range(range.start, range.end)
}

/// Every scanned file's path, for resolving imports to files.
#[derive(Debug, Default)]
pub struct PathIndex {
    paths: Vec<String>,
    by_path: HashMap<String, usize>,
}

impl PathIndex {
    /// Indexes `paths` (relative to the work tree's top, with `/`).
    pub fn new(paths: impl IntoIterator<Item = String>) -> PathIndex {
        let paths: Vec<String> = paths.into_iter().collect();
        let by_path = paths.iter().enumerate().map(|(at, path)| (path.clone(), at)).collect();
        PathIndex { paths, by_path }
    }

    /// The file at exactly `path`.
    pub fn get(&self, path: &str) -> Option<usize> {
        self.by_path.get(path).copied()
    }

    /// The path of file `at`.
    pub fn path(&self, at: usize) -> &str {
        &self.paths[at]
    }

    /// The first of `candidates` that is a file, else a file whose path ends with
    /// `/candidate` when exactly one does (a package path seen from a different root).
    pub fn find(&self, candidates: &[String]) -> Option<usize> {
        if let Some(found) = candidates.iter().find_map(|candidate| self.get(candidate)) {
            return Some(found);
        }
        for candidate in candidates {
            let suffix = format!("/{candidate}");
            let mut matches = self
                .paths
                .iter()
                .enumerate()
                .filter(|(_, path)| path.ends_with(&suffix));
            if let (Some((at, _)), None) = (matches.next(), matches.next()) {
                return Some(at);
            }
        }
        None
    }
}

/// The directory part of a path (`a/b/c.ts` → `a/b`, `c.ts` → ``).
pub fn parent_dir(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(dir, _)| dir)
}

/// `dir` joined with a relative `spec` (`./x`, `../y/z`), `.` and `..` resolved; `None` when
/// `..` climbs above the work tree.
pub fn join_relative(dir: &str, spec: &str) -> Option<String> {
    let mut parts: Vec<&str> = dir.split('/').filter(|part| !part.is_empty()).collect();
    for part in spec.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            _ => parts.push(part),
        }
    }
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_specs_resolve_against_the_importing_directory() {
        assert_eq!(
            join_relative("src/routes", "./users").as_deref(),
            Some("src/routes/users")
        );
        assert_eq!(join_relative("src/routes", "../lib/db").as_deref(), Some("src/lib/db"));
        assert_eq!(join_relative("", "../x"), None);
    }

    #[test]
    fn a_package_path_matches_a_unique_suffix() {
        let index = PathIndex::new([
            "backend/app/routers/users.py".to_owned(),
            "backend/app/main.py".to_owned(),
        ]);
        assert_eq!(index.find(&["app/routers/users.py".to_owned()]), Some(0));
        assert_eq!(index.find(&["app/routers/items.py".to_owned()]), None);
    }
}
