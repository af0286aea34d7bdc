//! The queries a run wants, compiled before its files are read (`compile_wanted`), and
//! remembered in baton's private directory, so that the next run (the bridge runs after every
//! agent, on files of the same kinds) compiles them while git lists its files.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use serde::{Deserialize, Serialize};

use super::catalog;
use super::grammar::Grammar;
use super::joined::{self, Wanted};
use super::rule::Rule;
use crate::bridge::source::Source;
use crate::fsx;

/// The cache's name among the project's caches, before the kind of run.
const CACHE_NAME: &str = "bridge-rules";
/// A list of every rule in every grammar fits many times over.
const MAX_CACHE_BYTES: u64 = 256 * 1024;

/// What the cache holds: the rules (grammar and rule names) the last run in `root` wanted.
#[derive(Serialize, Deserialize)]
struct Remembered {
    version: String,
    root: PathBuf,
    rules: Vec<(String, String)>,
}

/// Where this run's wanted rules go ([`remember`]), set by [`start`].
struct ThisRun {
    path: PathBuf,
    root: PathBuf,
    /// What the cache held.
    before: Vec<(String, String)>,
}

static THIS_RUN: Mutex<Option<ThisRun>> = Mutex::new(None);

/// Starts compiling, on a thread of its own, the rules the last run of the same `kind` in
/// `root` wanted: runs on an agent's changes and runs on files given (often every file, which
/// want many more rules) are remembered apart.
pub fn start(root: &Path, kind: &str) {
    // No private directory: nothing is cached where others could write.
    let Ok(path) = fsx::project_cache_path(root, &format!("{CACHE_NAME}-{kind}")) else {
        return;
    };
    let rules = fsx::read_private(&path, MAX_CACHE_BYTES)
        .ok()
        .and_then(|bytes| serde_json::from_slice::<Remembered>(&bytes).ok())
        .filter(|cached| cached.version == env!("CARGO_PKG_VERSION") && cached.root == root)
        .map(|cached| cached.rules)
        .unwrap_or_default();
    let likely: Vec<Wanted> = rules
        .iter()
        .filter_map(|(grammar, rule)| Some((super::catalog::rule_named(rule)?, Grammar::named(grammar)?)))
        .collect();
    if !likely.is_empty() {
        joined::compile_ahead(likely);
    }
    *THIS_RUN.lock().unwrap_or_else(PoisonError::into_inner) = Some(ThisRun {
        path,
        root: root.to_path_buf(),
        before: rules,
    });
}

/// Records the rules this run wanted for the next run in the project (when they differ from
/// what the cache held).
pub fn remember(wanted: &[Wanted]) {
    let Some(ThisRun { path, root, before }) = THIS_RUN.lock().unwrap_or_else(PoisonError::into_inner).take() else {
        return;
    };
    let mut rules: Vec<(String, String)> = wanted
        .iter()
        .map(|(rule, grammar)| (grammar.name().to_owned(), rule.name.to_owned()))
        .collect();
    rules.sort();
    if rules == before {
        return;
    }
    let cached = Remembered {
        version: env!("CARGO_PKG_VERSION").to_owned(),
        root,
        rules,
    };
    let written = serde_json::to_vec(&cached)
        .map_err(std::io::Error::other)
        .and_then(|json| fsx::write_atomic(&path, &json, 0o600, fsx::Durability::Ephemeral));
    if let Err(e) = written {
        crate::log::note(&format!("bridge: the rules this run wanted were not remembered: {e}"));
    }
}

/// Compiles, in parallel and joined ([`super::joined`]), the queries some of `sources` want (a
/// file in its grammar, the rules its needles pick), so that no file waits for them one after
/// the other; the queries of single-file components' script blocks compile when a block wants
/// them. Returns how many (rule, grammar) pairs the files want, and how many of those were
/// compiled already (ahead of the run, by this module).
pub fn compile_wanted(sources: &[Source<'_>]) -> (usize, usize) {
    let wanted = crate::bridge::parallel::map(sources, |source| {
        let Some(grammar) = Grammar::of_path(source.path) else {
            return Vec::new();
        };
        catalog::for_source(grammar, source.path, source.text)
            .into_iter()
            .map(|rule| (rule.name, grammar))
            .collect()
    });
    let mut pairs: Vec<(&'static Rule, Grammar)> = Vec::new();
    for (name, grammar) in wanted.into_iter().flatten() {
        if let Some(rule) = catalog::rule_named(name)
            && !pairs
                .iter()
                .any(|(have, of)| std::ptr::eq(*have, rule) && *of == grammar)
        {
            pairs.push((rule, grammar));
        }
    }
    // The code files of a grammar some rule reads will want their imports and exports too.
    let grammars: Vec<Grammar> = Grammar::ALL
        .into_iter()
        .filter(|grammar| pairs.iter().any(|(_, of)| of == grammar))
        .collect();
    for grammar in grammars {
        pairs.extend(catalog::on_demand_for(grammar).map(|rule| (rule, grammar)));
    }
    let ready = joined::compile(&pairs);
    remember(&pairs);
    (pairs.len(), ready)
}
