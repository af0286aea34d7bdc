//! Which file a name comes from: each language's imports and exports, read per file, and the
//! resolution of an import to another file of the same run (relative paths, package paths,
//! Rust module paths). Names that lead outside the run's files stay unresolved.

pub mod constants;
pub mod python;
pub mod rust;
pub mod script;
pub mod script_resolve;

use tree_sitter::Node;

pub use crate::bridge::code_model::modules::{PathIndex, join_relative, parent_dir};
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
