//! The languages rule files are written for: which grammar reads a path, and one parser per
//! grammar and worker thread.

use tree_sitter::{Parser, Tree};

use crate::bridge::extract::syntax::{Lang, Unparsed, parse_bounded};

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

    /// The grammar of a code file by its extension: the code extractor's languages as it reads
    /// them, and the rules' own; single-file components are not code files (see `sfc`).
    pub fn of_path(path: &str) -> Option<Grammar> {
        if let Some(lang) = Lang::of_path(path) {
            return Some(Grammar::of_lang(lang));
        }
        let name = path.rsplit('/').next().unwrap_or(path);
        let ext = name.rsplit_once('.')?.1.to_ascii_lowercase();
        Some(match ext.as_str() {
            "go" => Grammar::Go,
            "java" => Grammar::Java,
            "rb" | "rake" => Grammar::Ruby,
            "php" => Grammar::Php,
            _ => return None,
        })
    }

    /// The grammar of a language the code extractor reads (the same tree-sitter grammar).
    pub fn of_lang(lang: Lang) -> Grammar {
        match lang {
            Lang::TypeScript => Grammar::TypeScript,
            Lang::Tsx => Grammar::Tsx,
            Lang::JavaScript => Grammar::JavaScript,
            Lang::Python => Grammar::Python,
            Lang::Rust => Grammar::Rust,
        }
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

/// One parser per grammar, made on first use.
#[derive(Default)]
pub struct Parsers {
    parsers: Vec<(Grammar, Parser)>,
}

impl Parsers {
    /// The tree of `text` in `grammar`, or why there is none (too large, the parser gave up).
    pub fn parse(&mut self, grammar: Grammar, text: &str) -> Result<Tree, Unparsed> {
        let at = match self.parsers.iter().position(|(have, _)| *have == grammar) {
            Some(at) => at,
            None => {
                let mut parser = Parser::new();
                parser.set_language(&grammar.language()).map_err(|_| Unparsed::GaveUp)?;
                self.parsers.push((grammar, parser));
                self.parsers.len() - 1
            }
        };
        let (_, parser) = self.parsers.get_mut(at).ok_or(Unparsed::GaveUp)?;
        parse_bounded(parser, text)
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
        assert_eq!(Grammar::of_path("Gemfile"), None);
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
