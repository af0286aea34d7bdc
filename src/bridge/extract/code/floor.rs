//! The floor of the bridge's time: tree-sitter's bare parse (no progress callback, no
//! scanner, no linking) of the code files the bridge would parse, those that carry a signal,
//! on the same pool of threads. `bench/bridge.sh` compares a whole `baton bridge` run with
//! this (`baton bridge --parse-floor`): nothing the bridge does can take less.

use std::time::{Duration, Instant};

use super::wants::Wants;
use crate::bridge::extract::Source;
use crate::bridge::extract::syntax::{Grammar, MAX_PARSE_BYTES, Parsers};

/// How the bare parse of a run's signal files went.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Floor {
    /// Code files among the sources.
    pub code_files: usize,
    /// Those parsed: the ones with a signal, not too large.
    pub parsed: usize,
    /// From the first parse's start to the last one's end, all threads together.
    pub wall: Duration,
}

/// Parses the signal files of `sources` (chosen as the bridge chooses them) on the bridge's
/// pool and nothing else.
pub fn measure(sources: &[Source<'_>], design_systems: &[String]) -> Floor {
    let design = super::design_systems(design_systems);
    let started = Instant::now();
    let parsed = crate::bridge::parallel::map(sources, |source| {
        let grammar = Grammar::of_code_path(source.path)?;
        if source.text.len() > MAX_PARSE_BYTES || !Wants::of(grammar, source.path, source.text, &design).any() {
            return None;
        }
        Parsers::with(|parsers| {
            let tree = parsers.parser(grammar)?.parse(source.text, None)?;
            Some(tree.root_node().child_count())
        })
    });
    Floor {
        code_files: super::code_files(sources),
        parsed: parsed.iter().flatten().count(),
        wall: started.elapsed(),
    }
}
