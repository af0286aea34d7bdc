//! One rule file: a tree-sitter query with a header of `; key: value` lines that say what it
//! is for, compiled the first time a file holds one of its needles.
//!
//! ```text
//! ; framework: gin                    the facts' framework (a pattern may `#set! framework`)
//! ; language: go                      the grammar the query is written in (`jsx`: JavaScript's
//!                                     alone, not TypeScript's, which has no JSX)
//! ; needles: gin-gonic/gin | .Group(  text a file must hold for the query to run (any of them)
//! ; paths: config/routes.rb           a path must contain one of these (optional)
//! ; inherits: go/common               queries of another rule file prepended (shared fragments)
//! ```

use std::sync::OnceLock;

use tree_sitter::Query;

use super::grammar::Grammar;
use super::lower;

/// A rule file, its header read, its query compiled on first use.
pub struct Rule {
    /// `family/file` without `.scm`, as `inherits:` names it.
    pub name: &'static str,
    pub framework: String,
    pub grammar: Grammar,
    /// Read by its own grammar alone (`language: jsx`), not by those that read its rules.
    alone: bool,
    /// Text a file must hold for the rule to run (any of them; none: every file).
    pub needles: Vec<&'static str>,
    pub paths: Vec<String>,
    /// The query's text with every inherited file's before it.
    source: String,
    /// The query compiled for each grammar that reads it ([`Grammar::reads`]), by
    /// [`Grammar::ALL`] position.
    queries: [OnceLock<Option<Query>>; Grammar::ALL.len()],
}

/// Why a rule file cannot be used; a test compiles every rule, so this never reaches a user.
#[derive(Debug)]
pub struct RuleError(pub String);

impl std::fmt::Display for RuleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl Rule {
    /// Reads a rule file's header; `inherited` gives the text of the files it inherits from.
    pub fn read(
        name: &'static str,
        text: &'static str,
        inherited: impl Fn(&str) -> Option<&'static str>,
    ) -> Result<Rule, RuleError> {
        let mut framework = None;
        let mut grammar = None;
        let mut alone = false;
        let mut needles = Vec::new();
        let mut paths = Vec::new();
        let mut source = String::new();
        for line in text.lines().map_while(|line| line.strip_prefix(';')) {
            let Some((key, value)) = line.split_once(':') else {
                continue;
            };
            let value = value.trim();
            let list = || value.split('|').map(str::trim).filter(|item| !item.is_empty());
            match key.trim() {
                "framework" => framework = Some(value.to_owned()),
                "language" if value == "jsx" => {
                    grammar = Some(Grammar::JavaScript);
                    alone = true;
                }
                "language" => {
                    grammar =
                        Some(Grammar::named(value).ok_or_else(|| RuleError(format!("{name}: no language {value}")))?)
                }
                "needles" => needles.extend(list()),
                "paths" => paths.extend(list().map(str::to_owned)),
                "inherits" => {
                    for parent in list() {
                        let text = inherited(parent)
                            .ok_or_else(|| RuleError(format!("{name}: inherits {parent}, which is no rule file")))?;
                        source.push_str(text);
                        source.push('\n');
                    }
                }
                _ => {}
            }
        }
        source.push_str(text);
        Ok(Rule {
            name,
            framework: framework.ok_or_else(|| RuleError(format!("{name}: no `; framework:` line")))?,
            grammar: grammar.ok_or_else(|| RuleError(format!("{name}: no `; language:` line")))?,
            alone,
            needles,
            paths,
            source,
            queries: Default::default(),
        })
    }

    /// True if the rule may find something in a file in `grammar` at `path`, its needles
    /// aside (the catalog looks for every rule's needles at once): its language reads the
    /// file and the path is one the rule is for.
    pub fn reads(&self, grammar: Grammar, path: &str) -> bool {
        self.read_by(grammar) && (self.paths.is_empty() || self.paths.iter().any(|part| path.contains(part.as_str())))
    }

    /// True if a file in `grammar` is one the rule reads.
    pub fn read_by(&self, grammar: Grammar) -> bool {
        if self.alone {
            grammar == self.grammar
        } else {
            grammar.reads(self.grammar)
        }
    }

    /// The query compiled for a file in `grammar` (one [`Rule::wants`] accepted); `None` if it
    /// does not compile, which the catalog's test rules out.
    pub fn query(&self, grammar: Grammar) -> Option<&Query> {
        self.queries[grammar.index()]
            .get_or_init(|| self.compile(grammar).ok())
            .as_ref()
    }

    /// True once its query for `grammar` is compiled (or failed to).
    pub fn compiled(&self, grammar: Grammar) -> bool {
        self.queries[grammar.index()].get().is_some()
    }

    /// The query's text, with the inherited files' before it.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The query's text as it compiles for `grammar` ([`lower`]ed).
    pub fn lowered(&self, grammar: Grammar) -> String {
        lower::lower(&self.source, &grammar.language())
    }

    /// Compiles the query for `grammar`, saying where it is wrong (in the text as written).
    pub fn compile(&self, grammar: Grammar) -> Result<Query, RuleError> {
        let language = grammar.language();
        if let Ok(query) = Query::new(&language, &self.lowered(grammar)) {
            return Ok(query);
        }
        Query::new(&language, &self.source).map_err(|error| {
            RuleError(format!(
                "{}.scm: line {} column {}: {:?} {}",
                self.name, error.row, error.column, error.kind, error.message
            ))
        })
    }
}
