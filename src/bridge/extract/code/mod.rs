//! The code extractor: TypeScript, JavaScript, Python and Rust files, each parsed once with
//! its tree-sitter grammar, every code scanner run over the same tree, then linked across
//! files (mounts, imports, entity references, shape inheritance). Files are scanned in
//! parallel; a cheap text check skips files that carry none of the signals.

#[cfg(test)]
pub mod fixture;
pub mod modules;
pub mod routes;
mod scan;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;

use self::scan::{FileScan, scan_file};
use super::Source;
use super::syntax::Parsers;
use crate::bridge::facts::Facts;

/// Design-system packages whose imports are reported when the config names none: common
/// component libraries and shadcn/ui's local folder. A package matches itself and its subpaths.
/// TODO(lead): read the list from the bridge's config key once the framework defines it
/// (`extract_with` takes it).
pub const DEFAULT_DESIGN_SYSTEMS: &[&str] = &[
    "@acme/ui",
    "@/components/ui",
    "@mui/material",
    "@chakra-ui/react",
    "@mantine/core",
    "antd",
    "@radix-ui",
];

/// Files per worker thread below which one thread does the whole run.
const FILES_PER_WORKER: usize = 32;

/// What the code extractor is told by the config.
#[derive(Debug, Clone)]
pub struct CodeOptions {
    /// Package prefixes of the design system (`@acme/ui` matches `@acme/ui` and `@acme/ui/button`).
    pub design_systems: Vec<String>,
}

impl Default for CodeOptions {
    fn default() -> Self {
        CodeOptions {
            design_systems: DEFAULT_DESIGN_SYSTEMS.iter().map(|p| p.to_string()).collect(),
        }
    }
}

/// Extracts the code facts of `sources` with the default options.
pub fn extract(sources: &[Source<'_>]) -> Facts {
    extract_with(sources, &CodeOptions::default())
}

/// Extracts the code facts of `sources`: every file scanned once, then linked across files.
pub fn extract_with(sources: &[Source<'_>], options: &CodeOptions) -> Facts {
    let scans = scan_all(sources, options);
    scan::link(scans)
}

/// Scans every source, in parallel when there are many; results keep the sources' order.
fn scan_all(sources: &[Source<'_>], options: &CodeOptions) -> Vec<FileScan> {
    let workers = thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(sources.len().div_ceil(FILES_PER_WORKER))
        .max(1);
    if workers == 1 {
        let mut parsers = Parsers::default();
        return sources
            .iter()
            .filter_map(|source| scan_file(source, &mut parsers, options))
            .collect();
    }
    let next = AtomicUsize::new(0);
    let mut found: Vec<(usize, FileScan)> = thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut parsers = Parsers::default();
                    let mut mine = Vec::new();
                    loop {
                        let at = next.fetch_add(1, Ordering::Relaxed);
                        let Some(source) = sources.get(at) else { break };
                        if let Some(scan) = scan_file(source, &mut parsers, options) {
                            mine.push((at, scan));
                        }
                    }
                    mine
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|handle| handle.join().unwrap_or_default())
            .collect()
    });
    found.sort_by_key(|(at, _)| *at);
    found.into_iter().map(|(_, scan)| scan).collect()
}
