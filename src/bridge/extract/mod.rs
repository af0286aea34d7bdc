//! Extractors: each reads the sources it understands and returns [`Facts`]; the bridge
//! merges them. Contract: every extractor module has
//! `pub fn extract(sources: &[Source<'_>]) -> Facts`, ignores files it does not understand,
//! never panics on any input, and records files it could not parse in `Facts::unparsed`.
//! An extractor that needs baton's config also has `extract_with(sources, &Settings)`.
//! Work done file by file goes through [`per_file`], which spreads it over the cores.

pub mod code;
pub mod compose;
pub mod continuation;
pub mod dockerfile;
pub mod dotenv;
pub mod findings;
pub mod migrations;
pub mod pipelines;
pub mod prisma;
pub mod push;
pub mod syntax;

use std::time::{Duration, Instant};

use super::facts::Facts;
pub use super::parallel::per_file;
pub use super::source::Source;
pub use super::sql;

/// What extractors may be configured with (the `bridge` section of baton's config).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Settings {
    /// Prefixes of the team's own finding ids (`SEC` finds `SEC-123`), beside CVE and GHSA ids.
    pub finding_prefixes: Vec<String>,
    /// Package prefixes of the design system (`@acme/ui`), for the frontend extractor.
    pub design_system: Vec<String>,
}

/// An extractor: `extract(sources)`.
type Extract = fn(&[Source<'_>]) -> Facts;

/// Runs every extractor over `sources`: what each found (in extractor order), and how long
/// each took by name, with the code extractor's parsing on a line of its own.
pub fn all_timed(sources: &[Source<'_>], settings: &Settings) -> (Vec<Facts>, Vec<(String, Duration)>) {
    let extractors: &[(&str, Extract)] = &[
        ("sql", sql::extract),
        ("prisma", prisma::extract),
        ("migrations", migrations::extract),
        ("pipelines", pipelines::extract),
        ("dockerfile", dockerfile::extract),
        ("compose", compose::extract),
        ("dotenv", dotenv::extract),
    ];
    let mut found = Vec::new();
    let mut took = Vec::new();
    let mut timed = |name: &str, run: &dyn Fn() -> Facts| {
        let started = Instant::now();
        found.push(run());
        took.push((name.to_owned(), started.elapsed()));
    };
    for (name, extract) in extractors {
        timed(name, &|| extract(sources));
    }
    timed("findings", &|| findings::extract_with(sources, settings));
    // The rules' queries the files want, compiled up front on every core.
    let started = Instant::now();
    let (wanted, ready) = crate::bridge::rules::compile_wanted(sources);
    took.push((
        format!("rules: compile {wanted} rules, {ready} compiled ahead"),
        started.elapsed(),
    ));
    let started = Instant::now();
    let (facts, parsing, code_rules) = code::extract_timed(sources, settings);
    found.push(facts);
    took.push(("code".to_owned(), started.elapsed()));
    took.push((
        format!("code: parse {} of {} files", parsing.parsed, parsing.code_files),
        parsing.time,
    ));
    // After the code extractor (within a file, what the rules find follows what it finds),
    // which ran the rules of the code files it parsed on its own trees.
    let started = Instant::now();
    found.push(crate::bridge::rules::extract_after_code(
        sources,
        code_rules,
        code::link::link_routes,
    ));
    took.push(("rules".to_owned(), started.elapsed()));
    (found, took)
}

/// A plain identifier: an ASCII letter or `_`, then ASCII letters, digits and `_`.
pub fn is_identifier(word: &str) -> bool {
    let mut chars = word.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The YAML document of `source`, or the facts that say it is not YAML.
pub fn yaml(source: &Source<'_>) -> Result<serde_norway::Value, Box<Facts>> {
    serde_norway::from_str(source.text).map_err(|e| {
        Box::new(Facts {
            unparsed: vec![format!("{}: not YAML ({e})", source.path)],
            ..Facts::default()
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bridge::facts::Finding;

    #[test]
    fn per_file_keeps_source_order_and_survives_a_panicking_file() {
        let names: Vec<String> = (0..200).map(|i| format!("f{i:03}.txt")).collect();
        let sources: Vec<Source<'_>> = names.iter().map(|n| Source { path: n, text: "" }).collect();
        let facts = per_file(&sources, |s| {
            assert!(s.path != "f007.txt", "boom");
            Facts {
                findings: vec![Finding {
                    id: s.path.to_owned(),
                    file: s.path.to_owned(),
                    line: None,
                }],
                ..Facts::default()
            }
        });
        let ids: Vec<&str> = facts.findings.iter().map(|f| f.id.as_str()).collect();
        let expected: Vec<&str> = names.iter().map(String::as_str).filter(|n| *n != "f007.txt").collect();
        assert_eq!(ids, expected);
        assert_eq!(facts.unparsed, ["f007.txt: the extractor failed on this file"]);
    }

    #[test]
    fn file_names_and_extensions() {
        let s = Source {
            path: "db/Migrations/001_Init.SQL",
            text: "",
        };
        assert_eq!((s.file_name(), s.extension().as_str()), ("001_Init.SQL", "sql"));
        let dot = Source {
            path: "app/.env",
            text: "",
        };
        assert_eq!(dot.extension(), "");
    }
}
