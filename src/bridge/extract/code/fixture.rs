//! Test support: the fixture projects under `tests/fixtures/bridge/`, read as sources and run
//! through the code extractor the way the bridge runs it.

use std::path::Path;

use super::extract_with;
use crate::bridge::extract::{Settings, Source};
use crate::bridge::facts::Facts;

/// Every file of fixture project `name` (its `project/` folder) as `(path relative to the
/// project, text)`, sorted.
pub fn files(name: &str) -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/bridge")
        .join(name)
        .join("project");
    let mut out = Vec::new();
    let mut pending = vec![root.clone()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|err| panic!("{}: {err}", dir.display())) {
            let path = entry.expect("dir entry").path();
            if path.is_dir() {
                pending.push(path);
            } else if let Ok(text) = std::fs::read_to_string(&path) {
                let relative = path
                    .strip_prefix(&root)
                    .expect("under root")
                    .to_string_lossy()
                    .replace('\\', "/");
                out.push((relative, text));
            }
        }
    }
    out.sort();
    out
}

/// The code facts of fixture project `name` with the default settings.
pub fn extract(name: &str) -> Facts {
    extract_settings(name, &Settings::default())
}

/// The code facts of fixture project `name` with `settings`.
pub fn extract_settings(name: &str, settings: &Settings) -> Facts {
    let files = files(name);
    let sources: Vec<Source<'_>> = files.iter().map(|(path, text)| Source { path, text }).collect();
    extract_with(&sources, settings)
}

/// The code facts of files given as `(path, text)`.
pub fn extract_texts(files: &[(&str, &str)]) -> Facts {
    let sources: Vec<Source<'_>> = files.iter().map(|(path, text)| Source { path, text }).collect();
    super::extract(&sources)
}

/// The facts of fixture project `name` from the code extractor and then the rule engine, as
/// the bridge runs them (env vars come from rules).
pub fn extract_with_rules(name: &str) -> Facts {
    let files = files(name);
    let sources: Vec<Source<'_>> = files.iter().map(|(path, text)| Source { path, text }).collect();
    let (mut facts, _, code_rules) = super::extract_timed(&sources, &Settings::default());
    facts.append(crate::bridge::rules::extract_after_code(
        &sources,
        code_rules,
        super::link::link_routes,
    ));
    facts
}

/// `METHOD path` of every endpoint, sorted, for comparing with an expected list.
pub fn endpoint_lines(facts: &Facts) -> Vec<String> {
    let mut lines: Vec<String> = facts
        .endpoints
        .iter()
        .map(|e| format!("{} {}", e.method, e.path))
        .collect();
    lines.sort();
    lines
}
