//! The code extractor: TypeScript, JavaScript, Python and Rust files, each parsed once with
//! its tree-sitter grammar, every code scanner run over the same tree, then linked across
//! files (mounts, imports, entity references). Files are scanned in
//! parallel; a cheap text check skips files that carry none of the signals.

pub mod design;
#[cfg(test)]
pub mod fixture;
pub mod floor;
#[cfg(test)]
mod hostile;
pub mod link;
pub mod modules;
#[cfg(test)]
mod orm_tests;
mod scan;
#[cfg(test)]
mod tests;

pub use crate::bridge::code_model::{guards, routes, wants};

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Duration;

use self::scan::{FileScan, Prefilter, scan_file};
use self::wants::Wants;
use super::syntax::{Grammar, Parsers};
use super::{Settings, Source};
use crate::bridge::facts::Facts;
use crate::bridge::rules::FileRules;

/// Design-system packages whose imports are reported when the config names none (the
/// `bridge.design_system` list): common component libraries and shadcn/ui's local folder. A
/// package matches itself and its subpaths.
pub const DEFAULT_DESIGN_SYSTEMS: &[&str] = &[
    "@/components/ui",
    "@mui/material",
    "@chakra-ui/react",
    "@mantine/core",
    "antd",
    "@radix-ui",
];

/// The design-system packages a run reports: those configured, else [`DEFAULT_DESIGN_SYSTEMS`].
pub fn design_systems(configured: &[String]) -> Vec<String> {
    if configured.is_empty() {
        DEFAULT_DESIGN_SYSTEMS.iter().map(|p| p.to_string()).collect()
    } else {
        configured.to_vec()
    }
}

/// How many of `sources` are code files (of a grammar the code extractor parses).
pub fn code_files(sources: &[Source<'_>]) -> usize {
    sources
        .iter()
        .filter(|s| Grammar::of_code_path(s.path).is_some())
        .count()
}

/// Extracts the code facts of `sources` with the default settings (the tests'; a run uses
/// [`extract_timed`]).
#[cfg(test)]
pub fn extract(sources: &[Source<'_>]) -> Facts {
    extract_with(sources, &Settings::default())
}

/// Extracts the code facts of `sources`: every file scanned once (spread over the cores), then
/// linked across files.
#[cfg(test)]
pub fn extract_with(sources: &[Source<'_>], settings: &Settings) -> Facts {
    extract_timed(sources, settings).0
}

/// How the parsing went, for `baton bridge --timings`: how many of the code files were parsed
/// (the others carried no signal, or were too large), and the CPU time the parses took
/// (summed over the threads).
#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub struct Parsing {
    pub parsed: usize,
    pub code_files: usize,
    pub time: Duration,
}

/// The code facts of `sources` (every file scanned once, spread over the cores, then linked
/// across files), with how the parsing went and what the rule engine's rules found on the
/// same parses (for `bridge::rules::extract_after_code`).
pub fn extract_timed(sources: &[Source<'_>], settings: &Settings) -> (Facts, Parsing, Vec<FileRules>) {
    extract_prefiltered(sources, settings, Wants::of)
}

/// [`extract_with`] with every code file parsed and every scanner run on it
/// ([`Wants::unfiltered`]): what the pre-filter must never change.
#[cfg(test)]
pub fn extract_unfiltered(sources: &[Source<'_>], settings: &Settings) -> Facts {
    extract_prefiltered(sources, settings, Wants::unfiltered).0
}

fn extract_prefiltered(
    sources: &[Source<'_>],
    settings: &Settings,
    prefilter: Prefilter,
) -> (Facts, Parsing, Vec<FileRules>) {
    let design_systems = design_systems(&settings.design_system);
    let scans = crate::bridge::parallel::map(sources, |source| {
        catch_unwind(AssertUnwindSafe(|| {
            Parsers::with(|parsers| scan_file(source, parsers, &design_systems, prefilter))
        }))
        .unwrap_or_else(|_| Some(FileScan::failed(source.path)))
    });
    let mut scans: Vec<FileScan> = scans.into_iter().flatten().collect();
    let mut rules: Vec<FileRules> = scans.iter_mut().filter_map(|scan| scan.rules.take()).collect();
    // The rules find the shapes; the routes name them.
    let shapes = crate::bridge::rules::link_shapes(&mut rules);
    let parse_times: Vec<Duration> = scans.iter().filter_map(|scan| scan.parse_time).collect();
    let parsing = Parsing {
        parsed: parse_times.len(),
        code_files: code_files(sources),
        time: parse_times.iter().sum(),
    };
    (link::link(scans, shapes), parsing, rules)
}
