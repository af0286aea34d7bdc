//! One file's scan: which scanners want it (a cheap text check before any parse), the parse,
//! the scanners over the one tree (the link step that puts all files' scans together is
//! [`super::link`]).

use std::cell::OnceCell;
use std::time::{Duration, Instant};

use super::design;
use super::modules::constants::{Exported, exported};
use super::modules::python::PythonModule;
use super::modules::rust::RustModule;
use super::modules::script::ScriptModule;
use super::routes::RouteScan;
use super::wants::Wants;
use crate::bridge::extract::Source;
use crate::bridge::extract::syntax::literal::Constants;
use crate::bridge::extract::syntax::{Grammar, ParsedFile, Parsers, Unparsed};
use crate::bridge::facts::Facts;
use crate::bridge::rules::FileRules;

/// Everything one file yields before files are linked.
#[derive(Debug, Default)]
pub struct FileScan {
    pub path: String,
    pub module: OwnedModule,
    pub routes: RouteScan,
    /// The string constants the file offers other files, by dotted name.
    pub constants: Exported,
    /// Facts that need no other file.
    pub facts: Facts,
    /// The parse's CPU time (wall time where the system does not tell a thread's), `None`
    /// if the file was not parsed (no signal, or too large).
    pub parse_time: Option<Duration>,
    /// What the rule engine's rules found on the same parse (see `bridge::rules::on_tree`).
    pub rules: Option<FileRules>,
}

impl FileScan {
    /// The scan of a file a scanner failed on: only the note that it could not be read.
    pub fn failed(path: &str) -> FileScan {
        let mut scan = FileScan {
            path: path.to_owned(),
            ..FileScan::default()
        };
        scan.facts
            .unparsed
            .push(format!("{path}: the extractor failed on this file"));
        scan
    }
}

/// A file's module table in its language.
#[derive(Debug, Default)]
pub enum OwnedModule {
    Script(ScriptModule),
    Python(PythonModule),
    Rust(RustModule),
    #[default]
    None,
}

impl OwnedModule {
    /// The module table of a parsed file.
    fn read(file: &ParsedFile<'_>) -> OwnedModule {
        match file.grammar {
            Grammar::Python => OwnedModule::Python(PythonModule::read(file)),
            Grammar::Rust => OwnedModule::Rust(RustModule::read(file)),
            _ => OwnedModule::Script(ScriptModule::read(file)),
        }
    }
}

/// Which scanners a file may interest, judged before it is parsed: [`Wants::of`], or in tests
/// every scanner for every file (the extraction without the pre-filter).
pub type Prefilter = fn(Grammar, &str, &str, &[String]) -> Wants;

/// Scans one source; `None` when it is no code file or `prefilter` finds none of the signals.
pub fn scan_file(
    source: &Source<'_>,
    parsers: &mut Parsers,
    design_systems: &[String],
    prefilter: Prefilter,
) -> Option<FileScan> {
    let grammar = Grammar::of_code_path(source.path)?;
    let wants = prefilter(grammar, source.path, source.text, design_systems);
    // The rule engine's rules read the same tree: one parse serves both.
    let rules = crate::bridge::rules::wanted(grammar, source.path, source.text);
    if !wants.any() && rules.is_empty() {
        return None;
    }
    let mut scan = FileScan {
        path: source.path.to_owned(),
        ..FileScan::default()
    };
    let started = (crate::platform::process::thread_cpu_time(), Instant::now());
    let parsed = ParsedFile::parse(parsers, source)?;
    if !matches!(parsed, Err(Unparsed::TooLarge(_))) {
        scan.parse_time = Some(match (started.0, crate::platform::process::thread_cpu_time()) {
            (Some(from), Some(to)) => to.saturating_sub(from),
            _ => started.1.elapsed(),
        });
    }
    let file = match parsed {
        Ok(file) => file,
        Err(unparsed) => {
            scan.facts.unparsed.push(unparsed.note(source.path));
            return Some(scan);
        }
    };
    // A file read (by the scanners or the rules) that does not parse whole is noted.
    scan.facts.unparsed.extend(file.syntax_error());
    let constants = OnceCell::new();
    let constants = || constants.get_or_init(|| Constants::of(&file));
    if !rules.is_empty() {
        let render = |at: &std::ops::Range<usize>, prefix: bool| {
            let node = file.tree.root_node().descendant_for_byte_range(at.start, at.end)?;
            constants().render_path(&file, node, prefix)
        };
        let mut found = crate::bridge::rules::on_tree(source, grammar, &rules, &file.tree, &render);
        scan.routes = std::mem::take(&mut found.routes);
        scan.rules = Some(found);
    }
    if wants.any() {
        if wants.constants && file.grammar != Grammar::Rust {
            scan.constants = exported(&file, constants());
        }
        if wants.design && file.grammar.is_script() {
            design::scan(&file, design_systems, &mut scan.facts.design_system);
        }
        scan.module = OwnedModule::read(&file);
    }
    let routes = &scan.routes;
    if !routes.units.is_empty() || !routes.foreign.is_empty() || !routes.django.views.is_empty() {
        // The mount graph links the routers (and Django views' bases) through the file's
        // imports and constants.
        if matches!(scan.module, OwnedModule::None) {
            scan.module = OwnedModule::read(&file);
        }
        if scan.constants.is_empty() {
            scan.constants = exported(&file, constants());
        }
    }
    Some(scan)
}
