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
    "go/mounts",
    "env/script",
    "env/python",
    "env/rust",
    "react/redux",
    "react/zustand",
    "react/context",
    "react/providers-jsx",
    "react/providers-tsx",
    "services/script",
    "services/typescript",
    "services/python",
    "services/rust",
    "django/environ",
    "vue/router",
    "vue/route-modules",
    "vue/vuex",
    "vue/pinia",
    "vue/nuxt-config",
    "svelte/stores",
    "svelte/env",
    "svelte/env-dynamic",
    "svelte/server",
    "svelte/actions",
    "svelte/hooks",
    "spring/mvc",
    "spring/security",
    "spring/filter-chain",
    "spring/jpa",
    "spring/validation",
    "spring/env",
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
    "typeorm/entities",
    "seaorm/entities",
    "diesel/schema",
];

/// Shared fragments: queries rule files `; inherits:`, never run alone.
const FRAGMENTS: &[(&str, &str)] =
    rule_files!["go/routes", "go/groups", "go/use", "vue/route-table", "react/providers"];

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

/// The kind of fact a capture's prefix finds, as the handoff names it; `None` for captures
/// that only place others (groups, prefixes, mounts, aliases).
fn fact_of(capture: &str) -> Option<&'static str> {
    Some(match capture {
        "endpoint" => "endpoints",
        "guard" => "guards",
        "env" => "env vars",
        "table" | "column" | "fk" | "join" | "index" => "tables",
        "shape" | "field" => "shapes",
        "component" => "components",
        "client_route" => "client routes",
        "store" => "state",
        "service" => "services",
        _ => return None,
    })
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
                if let Some(fact) = name.split('.').next().and_then(fact_of)
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
            for grammar in Grammar::ALL.into_iter().filter(|g| rule.read_by(*g)) {
                let query = rule.compile(grammar).unwrap_or_else(|error| panic!("{}", error.0));
                for pattern in 0..query.pattern_count() {
                    for predicate in query.general_predicates(pattern) {
                        assert!(
                            super::super::hits::PREDICATES
                                .iter()
                                .any(|(op, _)| *op == &*predicate.operator),
                            "{name}.scm: no predicate #{}",
                            predicate.operator
                        );
                    }
                }
            }
        }
        assert_eq!(CATALOG.len(), RULES.len());
    }

    /// The user guide's support table is this one; `BATON_BLESS=1 cargo test --lib
    /// support_table` writes it there after a rule file changes.
    #[test]
    fn the_guides_support_table_is_generated_from_the_rule_files() {
        let page = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/bridge-frameworks.md");
        let text = std::fs::read_to_string(&page).unwrap();
        let (begin, end) = ("<!-- rules:begin -->\n", "<!-- rules:end -->");
        let from = text.find(begin).expect("the begin marker") + begin.len();
        let to = text.find(end).expect("the end marker");
        let table = support_table();
        if std::env::var_os("BATON_BLESS").is_some() {
            std::fs::write(&page, format!("{}{table}{}", &text[..from], &text[to..])).unwrap();
        } else {
            assert_eq!(
                &text[from..to],
                table,
                "docs/bridge-frameworks.md is stale: BATON_BLESS=1 cargo test --lib support_table"
            );
        }
    }
}
