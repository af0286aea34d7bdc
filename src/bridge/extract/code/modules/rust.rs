//! Rust modules: `use` bindings and the module path of a file (`src/api/users.rs` → `api::users`),
//! so a call like `users::routes()` can be matched to the file that defines `routes`.

use std::collections::HashMap;

use tree_sitter::Node;

use super::{captured, top_level};
pub use crate::bridge::code_model::modules::rust::{module_of, segments, target_module};
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
