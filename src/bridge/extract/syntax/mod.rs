//! The syntax layer the code extractors share: which tree-sitter grammar reads a file, one
//! parse per file, and bounded, non-recursive ways to walk the tree and read its text.

pub mod literal;
pub mod python;
pub mod rust;
pub mod script;
mod tree;

pub use tree::{Walk, named_children, walk};

use std::cell::OnceCell;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use tree_sitter::{Node, ParseOptions, Parser, Tree};

use crate::bridge::rules::Hit;
use crate::bridge::source::Source;

/// Largest file the code extractors parse; bigger files are generated, not written by an agent.
pub const MAX_PARSE_BYTES: usize = 2 * 1024 * 1024;

/// Time one file may take to parse before it is given up as pathological.
const PARSE_BUDGET: Duration = Duration::from_secs(2);

/// A language the code extractors read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    TypeScript,
    Tsx,
    /// JavaScript, JSX included.
    JavaScript,
    Python,
    Rust,
}

impl Lang {
    /// The language of a path by its extension (`.ts`, `.tsx`, `.js`, `.jsx`, `.py`, `.rs`, …).
    pub fn of_path(path: &str) -> Option<Lang> {
        let name = path.rsplit('/').next().unwrap_or(path);
        let ext = name.rsplit_once('.')?.1.to_ascii_lowercase();
        match ext.as_str() {
            "ts" | "mts" | "cts" => Some(Lang::TypeScript),
            "tsx" => Some(Lang::Tsx),
            "js" | "jsx" | "mjs" | "cjs" => Some(Lang::JavaScript),
            "py" | "pyi" => Some(Lang::Python),
            "rs" => Some(Lang::Rust),
            _ => None,
        }
    }

    /// True for TypeScript, TSX and JavaScript: the languages that share one module system.
    pub fn is_script(self) -> bool {
        matches!(self, Lang::TypeScript | Lang::Tsx | Lang::JavaScript)
    }

    /// The language's tree-sitter grammar.
    pub fn grammar(self) -> tree_sitter::Language {
        match self {
            Lang::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            Lang::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
            Lang::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
            Lang::Python => tree_sitter_python::LANGUAGE.into(),
            Lang::Rust => tree_sitter_rust::LANGUAGE.into(),
        }
    }
}

/// One source file parsed once; every code extractor reads the same tree.
pub struct ParsedFile<'a> {
    pub path: &'a str,
    pub text: &'a str,
    pub lang: Lang,
    pub tree: Tree,
    /// Its top-level statements' imports, exports and constants, read once on first use
    /// (`code::modules::top_level`).
    pub modules: OnceCell<Vec<Hit<'a>>>,
}

impl<'a> ParsedFile<'a> {
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

/// Why a file was not parsed.
#[derive(Debug, Clone, PartialEq)]
pub enum Unparsed {
    TooLarge(usize),
    GaveUp,
}

/// Parses `text` with `parser` unless it is over [`MAX_PARSE_BYTES`] or takes longer than the
/// parse budget (the parser is then reset for the next file).
pub fn parse_bounded(parser: &mut Parser, text: &str) -> Result<Tree, Unparsed> {
    if text.len() > MAX_PARSE_BYTES {
        return Err(Unparsed::TooLarge(text.len()));
    }
    let started = Instant::now();
    let mut over_budget = |_: &tree_sitter::ParseState| {
        if started.elapsed() > PARSE_BUDGET {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    let options = ParseOptions::new().progress_callback(&mut over_budget);
    let bytes = text.as_bytes();
    let tree = parser.parse_with_options(
        &mut |offset, _| bytes.get(offset..).unwrap_or_default(),
        None,
        Some(options),
    );
    tree.ok_or_else(|| {
        parser.reset();
        Unparsed::GaveUp
    })
}

/// One tree-sitter parser per language, created on first use; a worker thread keeps its own.
#[derive(Default)]
pub struct Parsers {
    parsers: Vec<(Lang, Parser)>,
}

impl Parsers {
    /// Parses one source file with the grammar its extension names; `None` when no grammar does.
    pub fn parse<'a>(&mut self, source: &Source<'a>) -> Option<Result<ParsedFile<'a>, Unparsed>> {
        let lang = Lang::of_path(source.path)?;
        let Some(parser) = self.parser(lang) else {
            return Some(Err(Unparsed::GaveUp));
        };
        Some(parse_bounded(parser, source.text).map(|tree| ParsedFile {
            path: source.path,
            text: source.text,
            lang,
            tree,
            modules: OnceCell::new(),
        }))
    }

    /// The parser of `lang`, made on first use (a bare parse: no time budget).
    pub fn parser(&mut self, lang: Lang) -> Option<&mut Parser> {
        let at = match self.parsers.iter().position(|(have, _)| *have == lang) {
            Some(at) => at,
            None => {
                let mut parser = Parser::new();
                parser.set_language(&lang.grammar()).ok()?;
                self.parsers.push((lang, parser));
                self.parsers.len() - 1
            }
        };
        self.parsers.get_mut(at).map(|(_, parser)| parser)
    }
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
        match Parsers::default().parse(&Source { path, text }) {
            Some(Ok(file)) => file,
            _ => panic!("{path} did not parse"),
        }
    }

    #[test]
    fn language_follows_the_extension() {
        assert_eq!(Lang::of_path("src/app.module.ts"), Some(Lang::TypeScript));
        assert_eq!(Lang::of_path("web/App.TSX"), Some(Lang::Tsx));
        assert_eq!(Lang::of_path("server.cjs"), Some(Lang::JavaScript));
        assert_eq!(Lang::of_path("app/models.py"), Some(Lang::Python));
        assert_eq!(Lang::of_path("src/schema.rs"), Some(Lang::Rust));
        assert_eq!(Lang::of_path("Makefile"), None);
        assert_eq!(Lang::of_path(".env.example"), None);
    }

    #[test]
    fn a_file_over_the_cap_is_not_parsed() {
        let text = "x".repeat(MAX_PARSE_BYTES + 1);
        let source = Source {
            path: "gen.ts",
            text: &text,
        };
        assert!(matches!(
            Parsers::default().parse(&source),
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
