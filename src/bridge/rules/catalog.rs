//! The rule files compiled into the binary, which of them a source wants, and the support
//! table the user guide shows (generated from the rule files themselves).

use std::collections::BTreeMap;
use std::sync::LazyLock;

use super::grammar::Grammar;
use super::rule::Rule;

/// `(name, text)` of a file under `families/`.
macro_rules! rule_files {
    ($($name:literal),* $(,)?) => {
        &[$(($name, include_str!(concat!("families/", $name, ".scm")))),*]
    };
}

/// Rule files run on their own.
const RULES: &[(&str, &str)] = rule_files![
    "go/net-http",
    "go/gin",
    "go/echo",
    "go/chi",
    "go/fiber",
    "go/env",
    "go/gorm",
    "go/validation",
    "rails/routes",
    "rails/migrations",
    "rails/controllers",
    "rails/controller-bases",
    "rails/models",
    "rails/env",
    "laravel/routes",
    "laravel/api-prefix",
    "laravel/migrations",
    "laravel/requests",
    "laravel/env",
    "laravel/controllers",
];

/// Shared fragments: queries rule files `; inherits:`, never run alone.
const FRAGMENTS: &[(&str, &str)] = rule_files!["go/routes", "go/use"];

/// Every rule, read once per process.
static CATALOG: LazyLock<Vec<Rule>> = LazyLock::new(|| {
    let inherited = |name: &str| {
        FRAGMENTS
            .iter()
            .chain(RULES)
            .find(|(have, _)| *have == name)
            .map(|(_, text)| *text)
    };
    RULES
        .iter()
        // A rule file that does not read is a build defect the tests catch; it is left out.
        .filter_map(|(name, text)| Rule::read(name, text, inherited).ok())
        .collect()
});

/// The rules a source in `grammar` at `path` holding `text` may interest (see [`Rule::wants`]).
pub fn for_source(grammar: Grammar, path: &str, text: &str) -> Vec<&'static Rule> {
    CATALOG.iter().filter(|rule| rule.wants(grammar, path, text)).collect()
}

/// A Markdown table of the frameworks the rules know: language, framework, and the facts
/// their captures name.
pub fn support_table() -> String {
    let mut rows: BTreeMap<(usize, String), Vec<String>> = BTreeMap::new();
    for rule in CATALOG.iter() {
        let order = Grammar::ALL
            .iter()
            .position(|g| *g == rule.grammar)
            .unwrap_or(usize::MAX);
        let facts = rows.entry((order, rule.framework.clone())).or_default();
        if let Some(query) = rule.query(rule.grammar) {
            for name in query.capture_names() {
                if let Some(fact) = name.split('.').next().filter(|fact| !fact.starts_with('_'))
                    && !facts.iter().any(|have| have == fact)
                {
                    facts.push(fact.to_owned());
                }
            }
        }
    }
    let mut table = String::from("| Language | Framework | Facts |\n|---|---|---|\n");
    for ((order, framework), mut facts) in rows {
        facts.sort_unstable();
        let language = Grammar::ALL.get(order).map_or("", |g| g.name());
        table.push_str(&format!("| {language} | {framework} | {} |\n", facts.join(", ")));
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_file_reads_and_compiles_for_each_grammar_that_reads_it() {
        let inherited = |name: &str| FRAGMENTS.iter().chain(RULES).find(|(n, _)| *n == name).map(|(_, t)| *t);
        for (name, text) in RULES {
            let rule = Rule::read(name, text, inherited).unwrap_or_else(|e| panic!("{}", e.0));
            for grammar in Grammar::ALL.into_iter().filter(|g| g.reads(rule.grammar)) {
                if let Err(error) = rule.compile(grammar) {
                    panic!("{}", error.0);
                }
            }
        }
        assert_eq!(CATALOG.len(), RULES.len());
    }
}
