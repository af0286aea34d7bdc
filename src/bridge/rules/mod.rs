//! The bridge's rule engine: framework knowledge kept as data. Each framework family is a
//! folder of tree-sitter queries (`families/<family>/*.scm`, compiled into the binary) whose
//! captures name facts (see [`assemble`] for the capture names); one engine selects the rule
//! files a source may interest by their needles, runs them over one parse of the file and
//! turns the captures into [`Facts`]. Rust stays for what is semantics, not syntax: prefixes
//! and groups, naming conventions, resource expansion, file-system routes.

mod alembic;
#[cfg(test)]
mod alembic_tests;
mod assemble;
mod catalog;
mod columns;
mod components;
mod controllers;
pub mod django;
mod django_models;
mod django_urls;
#[cfg(test)]
mod django_urls_tests;
mod erb;
mod file_routes;
mod hits;
#[cfg(test)]
mod hostile;
mod inherit;
mod join_naming;
mod joined;
mod links;
mod lower;
mod matchers;
pub mod naming;
mod nest;
#[cfg(test)]
mod nest_tests;
mod nuxt_components;
mod options;
mod paths;
mod placeholders;
mod prefixes;
#[cfg(test)]
mod python_tests;
pub mod python_types;
#[cfg(test)]
mod react_tests;
mod resources;
mod route_units;
mod rule;
mod schema_dump;
mod scopes;
mod services;
mod sfc;
mod shapes;
mod signatures;
mod spring_config;
mod stores;
mod tags;
mod text;
mod validated;
mod warm;

use std::panic::{AssertUnwindSafe, catch_unwind};

use tree_sitter::Tree;

pub use self::hits::Hit;
use self::links::Links;
use crate::bridge::code_model::wants::{is_generated_path, is_test_path};
// Rule files share the code extractor's grammars and parsers (`super::grammar` below).
use super::facts::Facts;
use super::source::Source;
use crate::bridge::code_model::syntax::grammar::{self, Grammar, Parsers};

pub use self::catalog::support_table;
pub use self::route_units::Render;
pub use self::warm::compile_wanted;
pub use self::warm::start as compile_ahead;
use crate::bridge::code_model::routes::RouteScan;

/// Extracts the facts the rule files find in `sources`: every source the rules' languages
/// read is parsed once (in parallel), its rules run, and the hits assembled file by file, then
/// what spans files is put together (the routers' mounts by the code extractor's linker).
#[cfg(test)]
pub fn extract(sources: &[Source<'_>]) -> Facts {
    let link_routes = crate::bridge::extract::code::link::link_routes;
    link(sources, per_file(sources, true), Vec::new(), link_routes)
}

/// The endpoints and guards of the routers the rules read alone (Go's), linked by the code
/// extractor's linker (`extract::code::link::link_routes`), which sits above the rules.
pub type LinkRoutes = fn(Vec<(String, RouteScan)>) -> Facts;

/// [`extract`] for the files the code extractor did not parse: it ran the rules of the code
/// files it parsed on its own trees ([`on_tree`]), which come as `code_files`.
pub fn extract_after_code(sources: &[Source<'_>], code_files: Vec<FileRules>, link_routes: LinkRoutes) -> Facts {
    link(sources, per_file(sources, false), code_files, link_routes)
}

/// What the rules find in one file, before what spans files is put together.
#[derive(Default)]
pub struct FileRules {
    facts: Facts,
    pending: Pending,
    /// The routers, routes and mounts the file's rules found, for the mount graph
    /// (`route_units`; only when the code extractor runs them on its parse, see [`on_tree`]).
    pub routes: RouteScan,
}

impl std::fmt::Debug for FileRules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FileRules")
            .field("facts", &self.facts)
            .finish_non_exhaustive()
    }
}

/// The rules a code file (one the code extractor reads, in `grammar`) may interest; none for
/// build output and installed packages.
pub fn wanted(grammar: Grammar, path: &str, text: &str) -> Wanted {
    if is_generated_path(path) {
        return Wanted(Vec::new());
    }
    Wanted(catalog::for_source(grammar, path, text))
}

/// The rules a file may interest ([`wanted`]).
pub struct Wanted(Vec<&'static rule::Rule>);

impl Wanted {
    /// True if no rule wants the file (it need not be parsed for them).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Runs the `wanted` rules over a code file the code extractor parsed in `grammar`; `render`
/// reads the paths its routers' calls write (see [`Render`]).
pub fn on_tree(source: &Source<'_>, grammar: Grammar, wanted: &Wanted, tree: &Tree, render: Render<'_>) -> FileRules {
    let mut found = FileRules::default();
    run_rules(source, grammar, source.text, &wanted.0, tree, &mut found, Some(render));
    finish(source, found)
}

/// The hits of the on-demand rule file `name` (`modules/script`, see `catalog::on_demand`) in
/// a code file parsed in `grammar`, in the file's order; with `top_level`, only those of the
/// file's top-level statements that hold no syntax error, each statement the root of its
/// matches (a pattern rooted at the file's root would keep the cursor's states alive over the
/// whole file).
pub fn on_demand<'t>(name: &str, grammar: Grammar, tree: &Tree, text: &'t str, top_level: bool) -> Vec<Hit<'t>> {
    let query = catalog::on_demand(name).and_then(|rule| Some((rule, rule.query(grammar)?)));
    let mut hits = query.map_or_else(Vec::new, |(rule, query)| {
        let root = tree.root_node();
        if !top_level {
            return hits::run_from(query, root, text, None, |_| Some(rule));
        }
        let mut walk = root.walk();
        root.children(&mut walk)
            .filter(|statement| !statement.has_error())
            .flat_map(|statement| hits::run_from(query, statement, text, Some(0), |_| Some(rule)))
            .collect()
    });
    hits.sort_by_key(|hit| hit.captures.first().map(|capture| capture.range.start));
    hits
}

/// Every source's rules run (the code files' too when `code_files`), in parallel.
fn per_file(sources: &[Source<'_>], code_files: bool) -> Vec<FileRules> {
    crate::bridge::parallel::map(sources, |source| {
        catch_unwind(AssertUnwindSafe(|| {
            Parsers::with(|parsers| extract_file(source, parsers, code_files))
        }))
        .unwrap_or_else(|_| FileRules {
            facts: Facts {
                unparsed: vec![format!("{}: the extractor failed on this file", source.path)],
                ..Facts::default()
            },
            ..FileRules::default()
        })
    })
}

/// The files' facts put together, with what spans files: routes mounted elsewhere, what
/// other files complete, controllers' guards, relations, file-system routes.
fn link(sources: &[Source<'_>], files: Vec<FileRules>, code_files: Vec<FileRules>, link_routes: LinkRoutes) -> Facts {
    let mut facts = Facts::default();
    let mut pending = Pending::default();
    for file in code_files.into_iter().chain(files) {
        facts.append(file.facts);
        pending.append(file.pending);
    }
    facts.append(link_routes(std::mem::take(&mut pending.routes)));
    facts.append(spring_config::extract(sources));
    facts.append(shapes::link(std::mem::take(&mut pending.shapes)));
    let paths: Vec<&str> = sources.iter().map(|source| source.path).collect();
    pending.links.apply(&mut facts, &paths);
    controllers::apply(&mut facts.endpoints, &pending.declared);
    schema_dump::prefer_dump(&mut facts.tables);
    assemble::relations(&mut facts.tables);
    file_routes::extract(sources, &mut facts);
    count_guarded(&mut facts);
    // A check a handler calls is named where the run defines it (`export async function requireUserId`).
    for guard in facts.guards.iter_mut().filter(|guard| guard.kind == "check") {
        let defines = |source: &&Source<'_>| {
            [format!("function {}(", guard.name), format!("const {} =", guard.name)]
                .iter()
                .any(|definition| source.text.contains(definition.as_str()))
        };
        if let Some(source) = sources.iter().filter(|s| !is_test_path(s.path)).find(defines) {
            guard.file = source.path.to_owned();
        }
    }
    facts
}

/// The shapes of code files the code extractor parsed, bases resolved across them, with their
/// validation guards and the environment variables settings classes read: its routes name
/// the shapes (taken out of `files`, which keep the rest).
pub fn link_shapes(files: &mut [FileRules]) -> Facts {
    shapes::link(
        files
            .iter_mut()
            .flat_map(|file| std::mem::take(&mut file.pending.shapes))
            .collect(),
    )
}

pub use self::shapes::bodies_only;

/// What one file leaves for the step across files: its routers for the mount graph (Go's:
/// the code extractor reads the others), what other files complete (Spring), the guards
/// controllers declare for their actions (Rails, Laravel).
#[derive(Default)]
struct Pending {
    routes: Vec<(String, RouteScan)>,
    links: Links,
    declared: controllers::Declared,
    shapes: Vec<shapes::PendingShape>,
}

impl Pending {
    fn append(&mut self, other: Pending) {
        self.routes.extend(other.routes);
        self.links.append(other.links);
        self.declared.extend(other.declared);
        self.shapes.extend(other.shapes);
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
    // A check called outside any handler guards nothing.
    facts
        .guards
        .retain(|guard| guard.kind != "check" || guard.endpoints > 0);
}

/// The facts of one source: its code (or, for a single-file component, each script block)
/// parsed and matched against the rules whose needles it holds; a code file of the code
/// extractor's only when `code_files` (else it ran them on its own parse).
fn extract_file(source: &Source<'_>, parsers: &mut Parsers, code_files: bool) -> FileRules {
    let mut found = FileRules::default();
    // Build output and installed packages are not the code written.
    if is_generated_path(source.path) || (!code_files && Grammar::of_code_path(source.path).is_some()) {
        return found;
    }
    let blocks = match sfc::Kind::of_path(source.path) {
        Some(kind) => {
            found.facts.components.extend(sfc::component(source, kind));
            sfc::script_blocks(source, parsers)
        }
        None => match Grammar::of_path(source.path) {
            Some(grammar) => vec![sfc::Block {
                grammar,
                text: source.text.into(),
            }],
            None => match erb::ruby_block(source.path, source.text) {
                Some(block) => vec![block],
                None => return found,
            },
        },
    };
    for block in blocks {
        let rules = catalog::for_source(block.grammar, source.path, &block.text);
        if rules.is_empty() {
            continue;
        }
        match parsers.parse(block.grammar, &block.text) {
            Ok(tree) => run_rules(source, block.grammar, &block.text, &rules, &tree, &mut found, None),
            Err(unparsed) => found.facts.unparsed.push(unparsed.note(source.path)),
        }
    }
    finish(source, found)
}

/// Runs `rules` over the tree of `text` (a source's code, or a block of it) and assembles
/// the hits, in the file's order whichever rule found them; with `render`, also the routers
/// for the mount graph.
fn run_rules(
    source: &Source<'_>,
    grammar: Grammar,
    text: &str,
    rules: &[&'static rule::Rule],
    tree: &Tree,
    found: &mut FileRules,
    render: Option<Render<'_>>,
) {
    let (groups, alone) = joined::covering(grammar, rules);
    let wanted = |rule: &'static rule::Rule| rules.iter().any(|want| std::ptr::eq(*want, rule)).then_some(rule);
    let mut hits: Vec<Hit<'_>> = groups
        .iter()
        .flat_map(|group| {
            hits::run_query(&group.query, tree, text, |pattern| {
                group.owner(pattern).and_then(wanted)
            })
        })
        .chain(alone.iter().flat_map(|rule| hits::run(rule, grammar, tree, text)))
        .collect();
    // In the file's order, and at one place in the rules' order (whichever query found them).
    hits.sort_by_key(|hit| {
        let start = hit.captures.first().map(|capture| capture.range.start);
        (start, rules.iter().position(|want| std::ptr::eq(*want, hit.rule)))
    });
    found.facts.append(assemble::facts(source.path, &hits));
    found.pending.shapes.extend(shapes::of_file(source.path, &hits));
    found.pending.links.append(Links::of(source.path, &hits));
    found.pending.declared.extend(controllers::declared(&hits));
    if grammar == Grammar::Go {
        // Go's paths are the strings written.
        let written = |at: &std::ops::Range<usize>, _| {
            text.get(at.clone())
                .filter(|t| t.starts_with(['"', '`']))
                .map(text::literal)
        };
        let routes = route_units::scan(source.path, &hits, &written);
        found.pending.routes.push((source.path.to_owned(), routes));
    }
    if let Some(render) = render {
        found.routes = route_units::scan(source.path, &hits, render);
        nest::scan(source.path, &hits, render, &mut found.routes);
        django_urls::scan(source.path, &hits, render, &mut found.routes);
    }
    django::views(source.path, &hits, &mut found.routes);
}

/// A test file's routes and guards are the test's, not the application's (as the code
/// extractor reads them).
fn finish(source: &Source<'_>, mut found: FileRules) -> FileRules {
    if is_test_path(source.path) {
        found.facts.routes.clear();
        found.facts.endpoints.clear();
        found.facts.guards.clear();
        // Its shapes are the application's (fixtures, factories), and its Django models.
        found.pending = Pending {
            shapes: std::mem::take(&mut found.pending.shapes),
            links: std::mem::take(&mut found.pending.links).django_only(),
            ..Pending::default()
        };
        found.routes = RouteScan::default();
    }
    found
}
