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
mod file_routes;
mod grammar;
mod hits;
mod inherit;
mod links;
mod matchers;
mod mounts;
pub mod naming;
mod nuxt_components;
mod options;
mod pages_dirs;
mod paths;
mod placeholders;
mod prefixes;
mod resources;
mod rule;
mod schema_dump;
mod sfc;
mod spring_config;
mod stores;
mod tags;
mod text;
mod validated;

use std::cell::RefCell;
use std::panic::{AssertUnwindSafe, catch_unwind};

use self::grammar::{Grammar, Parsers};
use self::hits::Hit;
use self::links::Links;
use self::mounts::Mounts;
use super::extract::code::wants::{is_generated_path, is_test_path};
use super::extract::syntax::Unparsed;
use super::facts::Facts;
use super::source::Source;

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
            (failed, Pending::default())
        })
    });
    let mut facts = Facts::default();
    let mut pending = Pending::default();
    for (file, file_pending) in found {
        facts.append(file);
        pending.append(file_pending);
    }
    facts.endpoints.extend(pending.mounts.link());
    facts.append(spring_config::extract(sources));
    pending.links.apply(&mut facts);
    controllers::apply(&mut facts.endpoints, &pending.declared);
    schema_dump::prefer_dump(&mut facts.tables);
    assemble::relations(&mut facts.tables);
    file_routes::extract(sources, &mut facts);
    count_guarded(&mut facts);
    facts
}

/// What one file leaves for the step across files: routes waiting for their mounts, what
/// other files complete (Spring), the guards controllers declare for their actions (Rails,
/// Laravel).
#[derive(Default)]
struct Pending {
    mounts: Mounts,
    links: Links,
    declared: controllers::Declared,
}

impl Pending {
    fn append(&mut self, other: Pending) {
        self.mounts.append(other.mounts);
        self.links.append(other.links);
        self.declared.extend(other.declared);
    }
}

/// Each guard once (a framework's rule and a shared one may both see it; every controller
/// names `before_action :authenticate_user!` again), in its first place, with how many
/// endpoints it is put on over every file (a guard defined in one file guards routes
/// registered in others).
fn count_guarded(facts: &mut Facts) {
    let mut seen = std::collections::HashSet::new();
    facts
        .guards
        .retain(|guard| seen.insert((guard.name.clone(), guard.kind.clone())));
    for guard in &mut facts.guards {
        guard.endpoints = facts
            .endpoints
            .iter()
            .filter(|endpoint| endpoint.guards.contains(&guard.name))
            .count();
    }
}

/// The facts of one source: its code (or, for a single-file component, each script block)
/// parsed and matched against the rules whose needles it holds.
fn extract_file(source: &Source<'_>, parsers: &mut Parsers) -> (Facts, Pending) {
    // Build output and installed packages are not the code written; a test file's routes and
    // guards are the test's, not the application's (as the code extractor reads them).
    if is_generated_path(source.path) {
        return (Facts::default(), Pending::default());
    }
    let (mut facts, mut pending) = extract_code(source, parsers);
    if is_test_path(source.path) {
        facts.routes.clear();
        facts.endpoints.clear();
        facts.guards.clear();
        pending = Pending::default();
    }
    (facts, pending)
}

/// What the rules whose needles `source` holds find in it, with what it says that other
/// files complete.
fn extract_code(source: &Source<'_>, parsers: &mut Parsers) -> (Facts, Pending) {
    let mut facts = Facts::default();
    let mut pending = Pending::default();
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
                None => return (facts, pending),
            },
        },
    };
    for block in blocks {
        let rules = catalog::for_source(block.grammar, source.path, &block.text);
        if rules.is_empty() {
            continue;
        }
        let tree = match parsers.parse(block.grammar, &block.text) {
            Ok(tree) => tree,
            Err(Unparsed::TooLarge(bytes)) => {
                facts
                    .unparsed
                    .push(format!("{}: too large to parse ({bytes} bytes)", source.path));
                continue;
            }
            Err(Unparsed::GaveUp) => {
                facts.unparsed.push(format!("{}: parser gave up", source.path));
                continue;
            }
        };
        let mut hits: Vec<Hit<'_>> = rules
            .iter()
            .flat_map(|rule| hits::run(rule, block.grammar, &tree, &block.text))
            .collect();
        // In the file's order, whichever rule found them.
        hits.sort_by_key(|hit| hit.captures.first().map(|capture| capture.range.start));
        facts.append(assemble::facts(source.path, &hits, &mut pending.mounts));
        pending.links.append(Links::of(source.path, &hits));
        pending.declared.extend(controllers::declared(&hits));
    }
    (facts, pending)
}

thread_local! {
    /// Each worker thread's parsers, one per grammar, made on first use.
    static PARSERS: RefCell<Parsers> = RefCell::new(Parsers::default());
}
