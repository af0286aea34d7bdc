//! The languages the bridge reads: which tree-sitter grammar reads a path, and one parser per
//! grammar and worker thread, bounded in size and time.

use std::cell::RefCell;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use tree_sitter::{ParseOptions, Parser, Tree};

/// Largest file the bridge parses; bigger files are generated, not written by an agent.
pub const MAX_PARSE_BYTES: usize = 2 * 1024 * 1024;

/// Time one file may take to parse before it is given up as pathological.
const PARSE_BUDGET: Duration = Duration::from_secs(2);

/// A grammar rule files name in their `; language:` line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grammar {
    Go,
    Java,
    Ruby,
    Php,
    TypeScript,
    Tsx,
    JavaScript,
    Python,
    Rust,
    /// The top level of Vue and Svelte single-file components (their `<script>` blocks).
    Html,
}

impl Grammar {
    /// Every grammar, in the order the support table lists them.
    pub const ALL: [Grammar; 10] = [
        Grammar::Go,
        Grammar::Java,
        Grammar::Ruby,
        Grammar::Php,
        Grammar::TypeScript,
        Grammar::Tsx,
        Grammar::JavaScript,
        Grammar::Python,
        Grammar::Rust,
        Grammar::Html,
    ];

    /// The grammar of a file by its extension (`.ts`, `.tsx`, `.js`, `.jsx`, `.py`, `.rs`, `.go`,
    /// …); single-file components have none (see `sfc`).
    pub fn of_path(path: &str) -> Option<Grammar> {
        let name = path.rsplit('/').next().unwrap_or(path);
        let ext = name.rsplit_once('.')?.1.to_ascii_lowercase();
        Some(match ext.as_str() {
            "ts" | "mts" | "cts" => Grammar::TypeScript,
            "tsx" => Grammar::Tsx,
            "js" | "jsx" | "mjs" | "cjs" => Grammar::JavaScript,
            "py" | "pyi" => Grammar::Python,
            "rs" => Grammar::Rust,
            "go" => Grammar::Go,
            "java" => Grammar::Java,
            "rb" | "rake" => Grammar::Ruby,
            "php" => Grammar::Php,
            _ => return None,
        })
    }

    /// The grammar of a code file, one the code extractor reads (TypeScript, TSX, JavaScript,
    /// Python, Rust), by its extension.
    pub fn of_code_path(path: &str) -> Option<Grammar> {
        Grammar::of_path(path)
            .filter(|grammar| grammar.is_script() || matches!(grammar, Grammar::Python | Grammar::Rust))
    }

    /// True for TypeScript, TSX and JavaScript: the languages that share one module system.
    pub fn is_script(self) -> bool {
        matches!(self, Grammar::TypeScript | Grammar::Tsx | Grammar::JavaScript)
    }

    /// Its position in [`Grammar::ALL`] (which lists the grammars in the order they are declared).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The name rule files use for it.
    pub fn name(self) -> &'static str {
        match self {
            Grammar::Go => "go",
            Grammar::Java => "java",
            Grammar::Ruby => "ruby",
            Grammar::Php => "php",
            Grammar::TypeScript => "typescript",
            Grammar::Tsx => "tsx",
            Grammar::JavaScript => "javascript",
            Grammar::Python => "python",
            Grammar::Rust => "rust",
            Grammar::Html => "html",
        }
    }

    /// The grammar a rule file's `; language:` names.
    pub fn named(name: &str) -> Option<Grammar> {
        Grammar::ALL.into_iter().find(|grammar| grammar.name() == name)
    }

    /// The tree-sitter language.
    pub fn language(self) -> tree_sitter::Language {
        match self {
            Grammar::Go => tree_sitter_go::LANGUAGE.into(),
            Grammar::Java => tree_sitter_java::LANGUAGE.into(),
            Grammar::Ruby => tree_sitter_ruby::LANGUAGE.into(),
            Grammar::Php => tree_sitter_php::LANGUAGE_PHP.into(),
            Grammar::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            Grammar::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
            Grammar::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
            Grammar::Python => tree_sitter_python::LANGUAGE.into(),
            Grammar::Rust => tree_sitter_rust::LANGUAGE.into(),
            Grammar::Html => tree_sitter_html::LANGUAGE.into(),
        }
    }

    /// Rules written for `rules_for` also read files of this grammar: TypeScript rules read
    /// TSX, JavaScript rules read TypeScript and TSX (the TypeScript grammars extend
    /// JavaScript's, so a query over JavaScript's node kinds compiles for them too).
    pub fn reads(self, rules_for: Grammar) -> bool {
        self == rules_for
            || matches!(
                (rules_for, self),
                (Grammar::TypeScript, Grammar::Tsx) | (Grammar::JavaScript, Grammar::TypeScript | Grammar::Tsx)
            )
    }
}

/// Why a file was not parsed.
#[derive(Debug, Clone, PartialEq)]
pub enum Unparsed {
    TooLarge(usize),
    GaveUp,
}

impl Unparsed {
    /// The note a run lists for the file at `path`.
    pub fn note(&self, path: &str) -> String {
        match self {
            Unparsed::TooLarge(bytes) => format!("{path}: too large to parse ({bytes} bytes)"),
            Unparsed::GaveUp => format!("{path}: parser gave up"),
        }
    }
}

/// One parser per grammar, made on first use.
#[derive(Default)]
pub struct Parsers {
    parsers: Vec<(Grammar, Parser)>,
}

thread_local! {
    /// Each worker thread's parsers.
    static PARSERS: RefCell<Parsers> = RefCell::new(Parsers::default());
}

impl Parsers {
    /// Runs `f` with this thread's parsers (not to be called again inside `f`).
    pub fn with<R>(f: impl FnOnce(&mut Parsers) -> R) -> R {
        PARSERS.with_borrow_mut(f)
    }

    /// The parser of `grammar`, made on first use (a bare parse: no bounds).
    pub fn parser(&mut self, grammar: Grammar) -> Option<&mut Parser> {
        let at = match self.parsers.iter().position(|(have, _)| *have == grammar) {
            Some(at) => at,
            None => {
                let mut parser = Parser::new();
                parser.set_language(&grammar.language()).ok()?;
                self.parsers.push((grammar, parser));
                self.parsers.len() - 1
            }
        };
        self.parsers.get_mut(at).map(|(_, parser)| parser)
    }

    /// The tree of `text` in `grammar`, unless it is over [`MAX_PARSE_BYTES`] or takes longer
    /// than the parse budget (the parser is then reset for the next file).
    pub fn parse(&mut self, grammar: Grammar, text: &str) -> Result<Tree, Unparsed> {
        if text.len() > MAX_PARSE_BYTES {
            return Err(Unparsed::TooLarge(text.len()));
        }
        let parser = self.parser(grammar).ok_or(Unparsed::GaveUp)?;
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_extension_names_the_grammar() {
        assert_eq!(Grammar::of_path("internal/api/server.go"), Some(Grammar::Go));
        assert_eq!(Grammar::of_path("app/Http/Kernel.php"), Some(Grammar::Php));
        assert_eq!(Grammar::of_path("config/routes.rb"), Some(Grammar::Ruby));
        assert_eq!(Grammar::of_path("src/stores/cart.ts"), Some(Grammar::TypeScript));
        assert_eq!(Grammar::of_path("src/App.vue"), None);
        assert_eq!(Grammar::of_path("web/App.TSX"), Some(Grammar::Tsx));
        assert_eq!(Grammar::of_path("server.cjs"), Some(Grammar::JavaScript));
        assert_eq!(Grammar::of_path("app/models.py"), Some(Grammar::Python));
        assert_eq!(Grammar::of_path("src/schema.rs"), Some(Grammar::Rust));
        assert_eq!(Grammar::of_code_path("internal/api/server.go"), None);
        assert_eq!(Grammar::of_path(".env.example"), None);
        assert_eq!(Grammar::of_path("Gemfile"), None);
    }

    #[test]
    fn a_grammar_is_at_its_index() {
        for (at, grammar) in Grammar::ALL.into_iter().enumerate() {
            assert_eq!(grammar.index(), at);
        }
    }

    #[test]
    fn every_grammar_parses() {
        let mut parsers = Parsers::default();
        for grammar in Grammar::ALL {
            assert!(parsers.parse(grammar, "x").is_ok(), "{grammar:?}");
            assert_eq!(Grammar::named(grammar.name()), Some(grammar));
        }
    }
}
