//! Where an import leads among the run's files: the paths of the files, relative specifiers,
//! script specifiers and Rust module paths.

pub mod rust;
pub mod script;

use std::collections::HashMap;

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
