//! Rust modules: `use` bindings and the module path of a file (`src/api/users.rs` → `api::users`),
//! so a call like `users::routes()` can be matched to the file that defines `routes`.

use std::collections::HashMap;

use tree_sitter::Node;

use super::{captured, top_level};
use crate::bridge::extract::syntax::{ParsedFile, named_children};

/// How deep a `use` tree is read.
const MAX_USE_DEPTH: usize = 8;

/// A Rust file's `use` bindings: local name → full path.
#[derive(Debug, Clone, Default)]
pub struct RustModule {
    pub uses: HashMap<String, Vec<String>>,
}

impl RustModule {
    /// Reads the `use` declarations at the top level of a Rust file (`families/modules/rust.scm`
    /// finds them, see [`top_level`]).
    pub fn read(file: &ParsedFile<'_>) -> RustModule {
        let mut module = RustModule::default();
        for tree in top_level(file).iter().filter_map(|hit| captured(file, hit, "use.tree")) {
            module.read_use(file, tree, &[], 0);
        }
        module
    }

    fn read_use(&mut self, file: &ParsedFile<'_>, node: Node<'_>, prefix: &[String], depth: usize) {
        if depth > MAX_USE_DEPTH {
            return;
        }
        match node.kind() {
            "identifier" | "scoped_identifier" | "use_as_clause" => {
                let (path, alias) = match node.kind() {
                    "use_as_clause" => (file.field_text(node, "path"), file.field_text(node, "alias")),
                    _ => (Some(file.text(node)), None),
                };
                let path = [prefix, &segments(path.unwrap_or_default())].concat();
                if let Some(name) = alias.or(path.last().map(String::as_str)) {
                    self.uses.insert(name.to_owned(), path.clone());
                }
            }
            // `a::{b, c}` (its list under `a`) and `{b, c}`
            "scoped_use_list" | "use_list" => {
                let base = file.field_text(node, "path").map(segments).unwrap_or_default();
                let prefix = [prefix, &base].concat();
                let list = node.child_by_field_name("list").unwrap_or(node);
                for child in named_children(list) {
                    self.read_use(file, child, &prefix, depth + 1);
                }
            }
            _ => {}
        }
    }

    /// A path as written, with a leading `use` alias expanded (`users::routes` → `crate::api::users::routes`).
    pub fn expand(&self, path: &[String]) -> Vec<String> {
        match path.split_first() {
            Some((first, rest)) => match self.uses.get(first) {
                Some(full) => [full.as_slice(), rest].concat(),
                None => path.to_vec(),
            },
            None => Vec::new(),
        }
    }
}

/// `a::b::c` → `[a, b, c]` (generic arguments dropped).
pub fn segments(path: &str) -> Vec<String> {
    path.split("::")
        .map(|part| part.split('<').next().unwrap_or(part).trim().to_owned())
        .filter(|p| !p.is_empty())
        .collect()
}

/// The module path of a file: `src/api/users.rs` and `src/api/users/mod.rs` → `[api, users]`;
/// `src/main.rs` and `src/lib.rs` → `[]`. The part before the last `src/` is the crate's place.
pub fn module_of(path: &str) -> Vec<String> {
    let inside = path.rsplit_once("src/").map_or(path, |(_, rest)| rest);
    let inside = inside.strip_suffix(".rs").unwrap_or(inside);
    let mut parts: Vec<String> = inside.split('/').map(str::to_owned).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "main" | "lib")) {
        parts.pop();
    }
    parts
}

/// The module a path's item lives in, seen from the module `here`: `crate::a::f` → `[a]`,
/// `super::f` → parent of `here`, `self::x::f` and `x::f` → `here + [x]`.
pub fn target_module(here: &[String], path: &[String]) -> Option<Vec<String>> {
    let (_, modules) = path.split_last()?;
    let mut out = here.to_vec();
    let mut rest = modules;
    match modules.first().map(String::as_str) {
        Some("crate") => {
            out.clear();
            rest = &modules[1..];
        }
        Some("self") => rest = &modules[1..],
        Some("super") => {
            while rest.first().map(String::as_str) == Some("super") {
                out.pop()?;
                rest = &rest[1..];
            }
        }
        _ => {}
    }
    out.extend(rest.iter().cloned());
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(parts: &[&str]) -> Vec<String> {
        parts.iter().map(|part| part.to_string()).collect()
    }

    #[test]
    fn files_map_to_module_paths() {
        assert_eq!(module_of("server/src/api/users.rs"), strings(&["api", "users"]));
        assert_eq!(module_of("src/api/mod.rs"), strings(&["api"]));
        assert!(module_of("src/main.rs").is_empty());
    }

    #[test]
    fn paths_resolve_from_the_current_module() {
        let here = strings(&["api"]);
        assert_eq!(
            target_module(&here, &strings(&["users", "routes"])),
            Some(strings(&["api", "users"]))
        );
        assert_eq!(
            target_module(&here, &strings(&["crate", "health", "routes"])),
            Some(strings(&["health"]))
        );
        assert_eq!(target_module(&here, &strings(&["super", "routes"])), Some(vec![]));
    }
}
