//! The syntax layer the code extractors share: which tree-sitter grammar reads a file, one
//! parse per file, and bounded, non-recursive ways to walk the tree and read its text.

pub mod literal;
mod tree;

pub use crate::bridge::code_model::syntax::grammar::{Grammar, MAX_PARSE_BYTES, Parsers, Unparsed};
pub use crate::bridge::code_model::syntax::{grammar, python, rust, script};
pub use tree::{Walk, named_children, walk};

use std::cell::OnceCell;

use tree_sitter::{Node, Tree};

use crate::bridge::rules::Hit;
use crate::bridge::source::Source;

/// One source file parsed once; every code extractor reads the same tree.
pub struct ParsedFile<'a> {
    pub path: &'a str,
    pub text: &'a str,
    pub grammar: Grammar,
    pub tree: Tree,
    /// Its top-level statements' imports, exports and constants, read once on first use
    /// (`code::modules::top_level`).
    pub modules: OnceCell<Vec<Hit<'a>>>,
}

impl<'a> ParsedFile<'a> {
    /// Parses a code file (one [`Grammar::of_code_path`] names); `None` when it is none.
    pub fn parse(parsers: &mut Parsers, source: &Source<'a>) -> Option<Result<ParsedFile<'a>, Unparsed>> {
        let grammar = Grammar::of_code_path(source.path)?;
        Some(parsers.parse(grammar, source.text).map(|tree| ParsedFile {
            path: source.path,
            text: source.text,
            grammar,
            tree,
            modules: OnceCell::new(),
        }))
    }

    /// The tree's root node.
    pub fn root(&self) -> Node<'_> {
        self.tree.root_node()
    }

    /// The source text a node spans.
    pub fn text(&self, node: Node<'_>) -> &'a str {
        self.text.get(node.byte_range()).unwrap_or("")
    }

    /// The text of a node's field, if it has that field.
    pub fn field_text(&self, node: Node<'_>, field: &'static str) -> Option<&'a str> {
        node.child_by_field_name(field).map(|child| self.text(child))
    }

    /// `path: syntax error at line N` when the tree has an error, naming the first one.
    pub fn syntax_error(&self) -> Option<String> {
        let root = self.root();
        if !root.has_error() {
            return None;
        }
        // The first missing token, or the first piece inside an error region that is not a
        // whole statement (the parser keeps complete statements around the damage).
        let mut line = None;
        walk(root, |node| {
            let inside_error = node.parent().is_some_and(|parent| parent.is_error());
            let fragment = inside_error && !node.has_error() && !is_statement(node.kind());
            if node.is_missing() || fragment || (node.is_error() && node.child_count() == 0) {
                line = Some(node.start_position().row + 1);
                return Walk::Stop;
            }
            if node.has_error() { Walk::Enter } else { Walk::Skip }
        });
        Some(match line {
            Some(line) => format!("{}: syntax error at line {line}", self.path),
            None => format!("{}: syntax error", self.path),
        })
    }
}

/// Kinds that stand as whole statements or items in the five grammars.
fn is_statement(kind: &str) -> bool {
    kind.ends_with("_statement")
        || kind.ends_with("_declaration")
        || kind.ends_with("_definition")
        || kind.ends_with("_item")
        || kind.ends_with("comment")
        || kind == "decorator"
}

#[cfg(test)]
pub mod tests {
    use super::*;

    /// Visits every node under `root` that parsed cleanly (no error or missing token inside
    /// it), in document order: complete statements the parser kept inside an error-recovered
    /// region are visited, the broken pieces around them are not.
    fn walk_clean<'t>(root: Node<'t>, mut visit: impl FnMut(Node<'t>)) {
        walk(root, |node| {
            if !node.has_error() {
                visit(node);
            }
            Walk::Enter
        });
    }

    /// Parses `text` as if it were a file at `path` (test helper).
    pub fn parsed<'a>(path: &'a str, text: &'a str) -> ParsedFile<'a> {
        match ParsedFile::parse(&mut Parsers::default(), &Source { path, text }) {
            Some(Ok(file)) => file,
            _ => panic!("{path} did not parse"),
        }
    }

    #[test]
    fn a_file_over_the_cap_is_not_parsed() {
        let text = "x".repeat(MAX_PARSE_BYTES + 1);
        let source = Source {
            path: "gen.ts",
            text: &text,
        };
        assert!(matches!(
            ParsedFile::parse(&mut Parsers::default(), &source),
            Some(Err(Unparsed::TooLarge(_)))
        ));
    }

    #[test]
    fn deep_nesting_walks_without_recursion() {
        // Deep enough that a recursive walk overflows a test thread's 2 MiB stack, small
        // enough to parse within PARSE_BUDGET on a loaded machine.
        let text = format!("x = {}1{}", "[".repeat(20_000), "]".repeat(20_000));
        let file = parsed("deep.js", &text);
        let mut count = 0usize;
        walk_clean(file.root(), |_| count += 1);
        assert!(count > 20_000);
    }

    #[test]
    fn a_syntax_error_names_its_line_and_clean_code_is_still_visited() {
        let file = parsed("broken.ts", "const a = 1;\nfunction (\nconst b = 2;\n");
        assert_eq!(
            file.syntax_error().as_deref(),
            Some("broken.ts: syntax error at line 2")
        );
        let mut declarators = Vec::new();
        walk_clean(file.root(), |node| {
            if node.kind() == "variable_declarator" {
                declarators.push(file.text(node));
            }
        });
        assert!(declarators.contains(&"a = 1"), "{declarators:?}");
    }
}
