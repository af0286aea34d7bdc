//! The handoff: `{agent, summary, artifacts[], contextForNext, structured}`, the field names
//! of BMAD's story-context bridge, plus where it came from (domain, ticket, run, files read
//! and skipped). Artifacts are the files the agent changed, each with the names it holds.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use serde::{Deserialize, Serialize};

use super::facts::{Facts, Index, qualified};
use super::read::ReadStats;
use super::ticket::Ticket;

/// What one finished agent hands to the next.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Handoff {
    pub agent: String,
    pub summary: String,
    pub artifacts: Vec<Artifact>,
    /// What the next agent should know, naming concrete things; bounded in length.
    pub context_for_next: String,
    /// Everything extracted, for programs.
    pub structured: Facts,
    pub domain: Option<String>,
    pub ticket: Option<Ticket>,
    /// The ledger run the files came from.
    pub run_id: Option<String>,
    pub files: ReadStats,
    /// RFC 3339 UTC.
    pub created_at: String,
    /// Set when `structured` and `artifacts` were cut to fit the ledger.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
}

/// A file the agent wrote or changed, with what it holds.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Artifact {
    pub path: String,
    /// `migration`, `schema`, `api`, `ui`, `pipeline`, `dockerfile`, `env`, `security`,
    /// `file` (read, nothing named), `deleted` or `skipped`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The names extracted from it, in order.
    pub names: Vec<String>,
}

/// `items` as `(file, name, kind)`.
fn each<'f, T>(
    items: &'f [T],
    kind: &'static str,
    named: impl Fn(&'f T) -> (&'f String, String),
) -> impl Iterator<Item = (&'f String, String, &'static str)> {
    items.iter().map(move |item| {
        let (file, name) = named(item);
        (file, name, kind)
    })
}

/// One artifact per path of `paths` (sorted): the names each file holds and its kind.
pub fn artifacts(paths: &[String], read: &BTreeSet<&str>, facts: &Facts, top: &std::path::Path) -> Vec<Artifact> {
    let mut names: BTreeMap<&str, (Vec<String>, &'static str)> = BTreeMap::new();
    // Each name once per file (a file may name tens of thousands of routes).
    let mut seen: HashSet<(&str, String)> = HashSet::new();
    let mut add = |file: &'_ str, name: String, kind: &'static str| {
        let key = paths.get(paths.binary_search_by(|p| p.as_str().cmp(file)).ok()?)?;
        let entry = names.entry(key.as_str()).or_insert_with(|| (Vec::new(), kind));
        if seen.insert((key.as_str(), name.clone())) {
            entry.0.push(name);
        }
        Some(())
    };
    let index_name = |i: &Index| i.name.clone().unwrap_or_else(|| format!("index on {}", i.table));
    let jobs = facts
        .pipelines
        .iter()
        .flat_map(|p| p.jobs.iter().map(|job| (&p.file, job.clone(), "pipeline")));
    let named = each(&facts.tables, "schema", |t| (&t.file, qualified(&t.schema, &t.name)))
        .chain(each(&facts.enums, "schema", |e| {
            (&e.file, qualified(&e.schema, &e.name))
        }))
        .chain(each(&facts.indexes, "schema", |i| (&i.file, index_name(i))))
        .chain(each(&facts.endpoints, "api", |e| {
            (&e.file, format!("{} {}", e.method, e.path))
        }))
        .chain(each(&facts.shapes, "api", |s| (&s.file, s.name.clone())))
        .chain(each(&facts.services, "api", |s| (&s.file, s.name.clone())))
        .chain(each(&facts.components, "ui", |c| (&c.file, c.name.clone())))
        .chain(each(&facts.routes, "ui", |r| (&r.file, r.path.clone())))
        .chain(each(&facts.state, "ui", |s| (&s.file, s.name.clone())))
        .chain(jobs)
        .chain(each(&facts.docker_stages, "dockerfile", |d| {
            (&d.file, d.name.clone().unwrap_or_else(|| d.base.clone()))
        }))
        .chain(each(&facts.images, "pipeline", |i| (&i.file, i.name.clone())))
        .chain(each(&facts.env_vars, "env", |e| (&e.file, e.name.clone())))
        .chain(each(&facts.guards, "security", |g| (&g.file, g.name.clone())))
        .chain(
            each(&facts.findings, "security", |f| (&f.file, f.id.clone()))
                .filter(|(file, ..)| !file.starts_with("commit ")),
        );
    for (file, name, kind) in named {
        add(file, name, kind);
    }
    let migrations: BTreeSet<&str> = facts.migrations.iter().map(String::as_str).collect();
    paths
        .iter()
        .map(|path| {
            let (found, kind) = names.remove(path.as_str()).unwrap_or_default();
            let kind = if migrations.contains(path.as_str()) {
                "migration"
            } else if !found.is_empty() {
                kind
            } else if read.contains(path.as_str()) {
                "file"
            } else if !top.join(path).exists() {
                "deleted"
            } else {
                "skipped"
            };
            Artifact {
                path: path.clone(),
                kind: kind.into(),
                names: found,
            }
        })
        .collect()
}
