//! Extractors: each reads the sources it understands and returns [`Facts`]; the bridge
//! merges them. Contract: every extractor module has
//! `pub fn extract(sources: &[Source<'_>]) -> Facts`, ignores files it does not understand,
//! never panics on any input, and records files it could not parse in `Facts::unparsed`.

use super::facts::Facts;

/// One file to extract from: its path relative to the work tree's top (with `/`), and its text.
#[derive(Debug, Clone, Copy)]
pub struct Source<'a> {
    pub path: &'a str,
    pub text: &'a str,
}

/// Runs every extractor over `sources` and returns what they found, in extractor order.
pub fn all(sources: &[Source<'_>]) -> Vec<Facts> {
    let extractors: &[fn(&[Source<'_>]) -> Facts] = &[code::extract];
    extractors.iter().map(|extract| extract(sources)).collect()
}

pub mod code;
pub mod syntax;
