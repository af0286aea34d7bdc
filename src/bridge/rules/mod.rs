//! The bridge's rule engine: framework knowledge kept as data. Each framework family is a
//! folder of tree-sitter queries (`families/<family>/*.scm`, compiled into the binary) whose
//! captures name facts (see [`assemble`] for the capture names); one engine selects the rule
//! files a source may interest by their needles, runs them over one parse of the file and
//! turns the captures into [`Facts`]. Rust stays for what is semantics, not syntax: prefixes
//! and groups, naming conventions, resource expansion, file-system routes.

mod assemble;
mod catalog;
mod controllers;
mod erb;
mod grammar;
mod hits;
pub mod naming;
mod options;
mod prefixes;
mod resources;
mod rule;
mod schema_dump;
mod sfc;
mod tags;

use std::cell::RefCell;
use std::panic::{AssertUnwindSafe, catch_unwind};

use self::grammar::{Grammar, Parsers};
use self::hits::Hit;
use super::extract::Source;
use super::facts::Facts;

pub use self::catalog::support_table;

/// Extracts the facts the rule files find in `sources`: every source the rules' languages
/// read is parsed once (in parallel), its rules run, and the hits assembled file by file.
pub fn extract(sources: &[Source<'_>]) -> Facts {
    let found = crate::bridge::parallel::map(sources, |source| {
        catch_unwind(AssertUnwindSafe(|| {
            PARSERS.with_borrow_mut(|parsers| extract_file(source, parsers))
        }))
        .unwrap_or_else(|_| {
            let failed = Facts {
                unparsed: vec![format!("{}: the extractor failed on this file", source.path)],
                ..Facts::default()
            };
            (failed, controllers::Declared::default())
        })
    });
    let mut facts = Facts::default();
    let mut declared = controllers::Declared::default();
    for (file, controllers) in found {
        facts.append(file);
        declared.extend(controllers);
    }
    controllers::apply(&mut facts.endpoints, &declared);
    schema_dump::prefer_dump(&mut facts.tables);
    once_each(&mut facts.guards);
    count_guarded(&mut facts);
    facts
}

/// Each guard once: the same guard named again in another file (every controller's
/// `before_action :authenticate_user!`) keeps its first place.
fn once_each(guards: &mut Vec<crate::bridge::facts::Guard>) {
    let mut seen = std::collections::HashSet::new();
    guards.retain(|guard| seen.insert((guard.name.clone(), guard.kind.clone(), guard.framework.clone())));
}

/// How many endpoints each guard is put on, over every file (a guard defined in one file
/// guards routes registered in others).
fn count_guarded(facts: &mut Facts) {
    for guard in &mut facts.guards {
        guard.endpoints = facts
            .endpoints
            .iter()
            .filter(|endpoint| endpoint.guards.contains(&guard.name))
            .count();
    }
}

/// The facts of one source: its code (or, for a single-file component, each script block)
/// parsed and matched against the rules whose needles it holds; and the guards its
/// controllers declare (joined to the endpoints once every file is read).
fn extract_file(source: &Source<'_>, parsers: &mut Parsers) -> (Facts, controllers::Declared) {
    let mut facts = Facts::default();
    let mut declared = controllers::Declared::default();
    let blocks = match sfc::Kind::of_path(source.path) {
        Some(kind) => {
            facts.components.extend(sfc::component(source, kind));
            sfc::script_blocks(source, parsers)
        }
        None => match Grammar::of_path(source.path) {
            Some(grammar) => vec![sfc::Block {
                grammar,
                text: source.text.to_owned(),
            }],
            None => match erb::ruby_block(source.path, source.text) {
                Some(block) => vec![block],
                None => return (facts, declared),
            },
        },
    };
    for block in blocks {
        let rules = catalog::for_source(block.grammar, source.path, &block.text);
        if rules.is_empty() {
            continue;
        }
        let Some(tree) = parsers.parse(block.grammar, &block.text) else {
            facts.unparsed.push(format!("{}: parser gave up", source.path));
            continue;
        };
        let hits: Vec<Hit<'_>> = rules
            .iter()
            .flat_map(|rule| hits::run(rule, block.grammar, &tree, &block.text))
            .collect();
        facts.append(assemble::facts(source.path, &hits));
        declared.extend(controllers::declared(&hits));
    }
    (facts, declared)
}

thread_local! {
    /// Each worker thread's parsers, one per grammar, made on first use.
    static PARSERS: RefCell<Parsers> = RefCell::new(Parsers::default());
}
