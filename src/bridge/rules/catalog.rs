//! The rule files compiled into the binary, which of them a source wants, and the support
//! table the user guide shows (generated from the rule files themselves).

use std::collections::BTreeMap;
use std::sync::{LazyLock, OnceLock};

use aho_corasick::AhoCorasick;

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
    "react/components-jsx",
    "react/components-tsx",
    "react/re-exports",
    "react-router/routes",
    "react-router/elements-jsx",
    "react-router/elements-tsx",
    "react-router/config",
    "tanstack/routes",
    "next/app",
    "next/middleware",
    "remix/routes",
    "services/script",
    "services/typescript",
    "services/python",
    "services/rust",
    "django/environ",
    "django/views",
    "python/routes",
    "fastapi/routers",
    "flask/blueprints",
    "django/urls",
    "django/models",
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
    "nest/controllers",
    "node/receivers",
    "node/guards",
    "express/routes",
    "koa/routes",
    "fastify/routes",
    "axum/routes",
    "actix/routes",
    "zod/schemas",
    "joi/schemas",
    "typebox/schemas",
    "typescript/shapes",
    "typescript/types",
    "pydantic/models",
    "marshmallow/schemas",
    "wtforms/forms",
    "django/serializers",
    "serde/structs",
    "typeorm/entities",
    "sqlalchemy/models",
    "sqlalchemy/sqlmodel",
    "alembic/migrations",
    "seaorm/entities",
    "diesel/schema",
];

/// Shared fragments: queries rule files `; inherits:`, never run alone.
const FRAGMENTS: &[(&str, &str)] = rule_files![
    "go/routes",
    "go/groups",
    "go/use",
    "rust/routers",
    "vue/route-table",
    "react/providers",
    "react/components",
    "react-router/table",
    "react-router/elements",
    "next/pages",
    "next/handler-body",
    "sqlalchemy/columns",
];

/// Rule files a step of the code extractor runs when it needs them ([`on_demand`]), never
/// picked by needles: the imports and exports that resolve names across files.
const ON_DEMAND: &[(&str, &str)] = rule_files!["modules/script", "modules/python", "modules/rust"];

/// The on-demand rule files (see [`ON_DEMAND`]), read on first use.
static ON_DEMAND_RULES: LazyLock<Vec<Rule>> = LazyLock::new(|| {
    ON_DEMAND
        .iter()
        .filter_map(|(name, text)| Rule::read(name, text, |_| None).ok())
        .collect()
});

/// The on-demand rule file `name` (see [`ON_DEMAND`]).
pub fn on_demand(name: &str) -> Option<&'static Rule> {
    ON_DEMAND_RULES.iter().find(|rule| rule.name == name)
}

/// True for an on-demand rule file: it runs on its own query, never joined.
pub fn is_on_demand(rule: &Rule) -> bool {
    ON_DEMAND_RULES.iter().any(|have| std::ptr::eq(have, rule))
}

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

/// The rules a source in `grammar` at `path` holding `text` may interest: rules its grammar
/// reads ([`Rule::reads`]) whose needles the text holds, or that have none.
pub fn for_source(grammar: Grammar, path: &str, text: &str) -> Vec<&'static Rule> {
    let index = NEEDLES[grammar.index()].get_or_init(|| NeedleIndex::of(grammar));
    let mut hit = index.needless.clone();
    if let Some(automaton) = &index.automaton {
        let mut left = index.with_needles;
        for found in automaton.find_overlapping_iter(text) {
            if let Some(&rule) = index.rules_of.get(found.pattern().as_usize())
                && let Some(slot) = hit.get_mut(rule)
                && !*slot
            {
                *slot = true;
                left -= 1;
            }
            if left == 0 {
                break;
            }
        }
    }
    CATALOG
        .iter()
        .zip(hit)
        .filter(|(rule, hit)| *hit && rule.reads(grammar, path))
        .map(|(rule, _)| rule)
        .collect()
}

/// The on-demand rule files `grammar` reads (a code file's imports and exports).
pub fn on_demand_for(grammar: Grammar) -> impl Iterator<Item = &'static Rule> {
    ON_DEMAND_RULES.iter().filter(move |rule| rule.read_by(grammar))
}

/// The rule file named `name` (`express/routes`), on-demand ones too.
pub fn rule_named(name: &str) -> Option<&'static Rule> {
    CATALOG
        .iter()
        .find(|rule| rule.name == name)
        .or_else(|| on_demand(name))
}

/// Every needle of the rules one grammar reads in one automaton, so that a file's text is
/// searched once however many rules there are.
struct NeedleIndex {
    /// `None` when no rule of the grammar has needles.
    automaton: Option<AhoCorasick>,
    /// The catalog position of the rule each needle (by pattern id) is a needle of (a needle
    /// of several rules is a pattern for each: the automaton reports each).
    rules_of: Vec<usize>,
    /// By catalog position: the rule runs whatever the text (the grammar reads it and it has
    /// no needles).
    needless: Vec<bool>,
    /// How many rules have needles, the most a text can hit.
    with_needles: usize,
}

/// A [`NeedleIndex`] per grammar, by [`Grammar::ALL`] position, built on first use.
static NEEDLES: [OnceLock<NeedleIndex>; Grammar::ALL.len()] = [const { OnceLock::new() }; Grammar::ALL.len()];

impl NeedleIndex {
    fn of(grammar: Grammar) -> NeedleIndex {
        let mut needles: Vec<&str> = Vec::new();
        let mut rules_of: Vec<usize> = Vec::new();
        let mut needless = vec![false; CATALOG.len()];
        let mut with_needles = 0;
        for (at, rule) in CATALOG.iter().enumerate() {
            if !rule.read_by(grammar) {
                continue;
            }
            if rule.needles.is_empty() {
                needless[at] = true;
                continue;
            }
            with_needles += 1;
            for needle in &rule.needles {
                needles.push(needle);
                rules_of.push(at);
            }
        }
        // Building fails only past the automaton's size limits, far above a few hundred
        // needles; a grammar's rules would then run on every file rather than on none.
        let automaton = AhoCorasick::new(&needles).ok();
        if automaton.is_none() {
            for (at, rule) in CATALOG.iter().enumerate() {
                needless[at] |= rule.read_by(grammar);
            }
        }
        NeedleIndex {
            automaton: automaton.filter(|_| !needles.is_empty()),
            rules_of,
            needless,
            with_needles,
        }
    }
}

/// The kind of fact a capture's prefix finds, as the handoff names it; `None` for captures
/// that only place others (groups, prefixes, mounts, aliases).
fn fact_of(capture: &str) -> Option<&'static str> {
    Some(match capture {
        "endpoint" | "route" | "view" => "endpoints",
        "guard" | "check" | "middleware" => "guards",
        "env" => "env vars",
        "table" | "column" | "fk" | "join" | "model" | "index" => "tables",
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
        let facts = rows.entry((rule.grammar.index(), rule.framework.clone())).or_default();
        if let Some(query) = rule.query(rule.grammar) {
            for name in query.capture_names() {
                // Middleware a route or mount names (`route.guard`, `include.guard`) guards it.
                let family = if name.ends_with(".guard") {
                    "guard"
                } else {
                    name.split('.').next().unwrap_or(name)
                };
                if let Some(fact) = fact_of(family)
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
        for (name, text) in RULES.iter().chain(ON_DEMAND) {
            let rule = Rule::read(name, text, inherited).unwrap_or_else(|e| panic!("{}", e.0));
            for grammar in Grammar::ALL.into_iter().filter(|g| rule.read_by(*g)) {
                rule.compile(grammar).unwrap_or_else(|error| panic!("{}", error.0));
                // As it runs: lowered (a lowering the grammar refuses would fall back to the
                // text as written, compiled at full cost).
                let query = tree_sitter::Query::new(&grammar.language(), &rule.lowered(grammar))
                    .unwrap_or_else(|error| panic!("{name}.scm lowered for {}: {error}", grammar.name()));
                for pattern in 0..query.pattern_count() {
                    for predicate in query.general_predicates(pattern) {
                        assert!(
                            super::super::hits::PREDICATES
                                .iter()
                                .any(|(op, _)| *op == &*predicate.operator)
                                || &*predicate.operator == super::super::lower::KIND_PREDICATE,
                            "{name}.scm: no predicate #{}",
                            predicate.operator
                        );
                    }
                }
            }
        }
        assert_eq!(CATALOG.len(), RULES.len());
    }

    /// The one pass over a file picks the rules that looking for each rule's needles on its
    /// own would: a text holding one needle wants every rule of the grammar with that needle
    /// (and the needless ones), and a text holding none only the needless ones.
    #[test]
    fn one_pass_over_the_needles_picks_what_each_rule_would() {
        let needless = |grammar: Grammar, path: &str| -> Vec<&str> {
            CATALOG
                .iter()
                .filter(|rule| rule.needles.is_empty() && rule.reads(grammar, path))
                .map(|rule| rule.name)
                .collect()
        };
        let picked = |grammar: Grammar, path: &str, text: &str| -> Vec<&str> {
            for_source(grammar, path, text)
                .into_iter()
                .map(|rule| rule.name)
                .collect()
        };
        for rule in CATALOG.iter() {
            for grammar in Grammar::ALL.into_iter().filter(|g| rule.read_by(*g)) {
                // A path every rule's `paths:` accepts.
                let path = rule
                    .paths
                    .first()
                    .map_or("src/x".to_owned(), |part| format!("{part}/x"));
                assert_eq!(
                    picked(grammar, &path, "nothing here"),
                    needless(grammar, &path),
                    "{}",
                    rule.name
                );
                for needle in &rule.needles {
                    let text = format!("// before\n{needle}\n// after");
                    let expected: Vec<&str> = CATALOG
                        .iter()
                        .filter(|other| {
                            other.reads(grammar, &path)
                                && (other.needles.is_empty() || other.needles.iter().any(|n| text.contains(n)))
                        })
                        .map(|other| other.name)
                        .collect();
                    assert!(expected.contains(&rule.name));
                    assert_eq!(
                        picked(grammar, &path, &text),
                        expected,
                        "{} needle {needle:?}",
                        rule.name
                    );
                }
            }
        }
    }

    /// What each rule file costs to compile, for whoever writes one (the user guide's "What a
    /// rule costs"): `cargo test --release --lib rule_compile_costs -- --ignored --nocapture`
    /// prints the thread's CPU time of each rule file's query in each grammar that reads it.
    #[test]
    #[ignore = "a measurement, not a check"]
    fn rule_compile_costs() {
        for rule in CATALOG.iter().chain(ON_DEMAND_RULES.iter()) {
            for grammar in Grammar::ALL.into_iter().filter(|g| rule.read_by(*g)) {
                let started = crate::platform::process::thread_cpu_time();
                let query = rule.compile(grammar).unwrap_or_else(|error| panic!("{}", error.0));
                let took = crate::platform::process::thread_cpu_time()
                    .zip(started)
                    .map_or(0.0, |(to, from)| to.saturating_sub(from).as_secs_f64() * 1e3);
                println!(
                    "{took:8.1} ms  {:>3} patterns  {:<11} {}",
                    query.pattern_count(),
                    grammar.name(),
                    rule.name
                );
            }
        }
    }

    /// Compiles the query in the file `BATON_QUERY` (lowered as a rule's is) for the grammar
    /// `BATON_GRAMMAR`, once: run under `valgrind --tool=callgrind` to count what a variant of a
    /// rule costs to compile (an empty file gives the baseline to subtract).
    #[test]
    #[ignore = "a measuring tool"]
    fn compile_one_query() {
        let (Some(path), Some(grammar)) = (std::env::var_os("BATON_QUERY"), std::env::var("BATON_GRAMMAR").ok()) else {
            return;
        };
        let grammar = Grammar::named(&grammar).expect("a grammar name");
        let text = std::fs::read_to_string(path).unwrap();
        // `BATON_QUERY_RAW` compiles the text as it is.
        let lowered = match std::env::var_os("BATON_QUERY_RAW") {
            Some(_) => text,
            None => super::super::lower::lower(&text, &grammar.language()),
        };
        let query = tree_sitter::Query::new(&grammar.language(), &lowered).unwrap();
        println!("{} patterns", query.pattern_count());
        // With `BATON_MATCH_FILES` (a file listing source files), also every match of it in
        // each of those files (their parse counts too: subtract a run with an empty query).
        let Some(list) = std::env::var_os("BATON_MATCH_FILES") else {
            return;
        };
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(&grammar.language()).unwrap();
        let mut matches = 0;
        for path in std::fs::read_to_string(list).unwrap().lines() {
            let text = std::fs::read_to_string(path).unwrap();
            let tree = parser.parse(&text, None).unwrap();
            let mut cursor = tree_sitter::QueryCursor::new();
            let mut found = cursor.matches(&query, tree.root_node(), text.as_bytes());
            while streaming_iterator::StreamingIterator::next(&mut found).is_some() {
                matches += 1;
            }
        }
        println!("{matches} matches");
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
