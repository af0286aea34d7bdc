//! The sections of a handoff's texts: one per kind of thing extracted (tables, indexes,
//! endpoints, env vars, …), each with its lines for `contextForNext` and its names for the
//! summary; the finished agent's domain first, then the most specific kinds (tables,
//! endpoints, components before indexes, env vars, file lists), and last what no parser
//! could read. Every name, type, path and file a line holds passes through [`safe::shown`] (text from files is data).

use super::super::facts::qualified;
use super::super::facts::{Column, Endpoint, Facts, Pipeline, Shape, StateStore, Table};
use super::{LINE_BUDGET, NOT_PARSED, clip};
use crate::bridge::safe::{self, Kind};

/// Lines of one kind written out (more than fit the budget anyway); the rest are counted.
const MAX_SECTION_LINES: usize = 200;

/// One kind of thing extracted (or the files that could not be read): its heading, its lines
/// as `contextForNext` lists them, and the names the summary counts.
pub(super) struct Section {
    pub(super) domain: &'static str,
    pub(super) title: &'static str,
    pub(super) lines: Vec<String>,
    /// Lines past [`MAX_SECTION_LINES`], not written out.
    pub(super) hidden: usize,
    pub(super) names: Vec<String>,
    pub(super) in_summary: bool,
    /// Its weight in sharing the budget: the kinds the next agent calls or queries by name,
    /// and the finished agent's own domain, weigh more.
    pub(super) weight: usize,
}

/// `Tables` → `table` for one, `tables` for more; `Indexes` → `index`.
pub(super) fn noun(title: &str, count: usize) -> String {
    let lower = title.to_ascii_lowercase();
    if count == 1 {
        lower
            .strip_suffix("es")
            .filter(|s| s.ends_with("ss") || s.ends_with('x'))
            .map_or_else(|| lower.strip_suffix('s').unwrap_or(&lower).to_owned(), str::to_owned)
    } else {
        lower
    }
}

fn name(text: &str) -> String {
    safe::shown(text, Kind::Name)
}

fn file(text: &str) -> String {
    safe::shown(text, Kind::File)
}

fn path(text: &str) -> String {
    safe::shown(text, Kind::Path)
}

fn ty(text: &str) -> String {
    safe::shown(text, Kind::Type)
}

fn names(items: &[String]) -> String {
    items.iter().map(|i| name(i)).collect::<Vec<_>>().join(", ")
}

/// Every non-empty section, the `domain`'s first, then by how specific its kind is; what
/// could not be parsed last.
pub(super) fn sections(facts: &Facts, domain: Option<&str>) -> Vec<Section> {
    let mut all = vec![
        listed("db", "Tables", &facts.tables, table_line, table_name),
        listed("backend", "Endpoints", &facts.endpoints, endpoint_line, |e| {
            format!("{} {}", name(&e.method), path(&e.path))
        }),
        listed(
            "frontend",
            "Components",
            &facts.components,
            |c| format!("{} ({}) [{}]", name(&c.name), name(&c.kind), file(&c.file)),
            |c| name(&c.name),
        ),
        listed(
            "frontend",
            "Routes",
            &facts.routes,
            |r| match &r.component {
                Some(c) => format!("{} → {} ({})", path(&r.path), name(c), name(&r.framework)),
                None => format!("{} ({})", path(&r.path), name(&r.framework)),
            },
            |r| path(&r.path),
        ),
        section(
            "security",
            "Findings",
            grouped(facts.findings.iter().map(|f| {
                let place = match f.line {
                    Some(line) if !f.file.starts_with("commit ") => format!("{}:{line}", file(&f.file)),
                    _ => file(&f.file),
                };
                (name(&f.id), place)
            })),
            facts.findings.iter().map(|f| name(&f.id)),
        ),
        listed(
            "security",
            "Guards",
            &facts.guards,
            |g| format!("{} ({}) [{}]", name(&g.name), name(&g.kind), file(&g.file)),
            |g| name(&g.name),
        ),
        listed("backend", "Shapes", &facts.shapes, shape_line, |s| name(&s.name)),
        listed("frontend", "State", &facts.state, state_line, |s| name(&s.name)),
        listed(
            "db",
            "Indexes",
            &facts.indexes,
            |i| {
                let index = i.name.as_deref().map_or_else(|| "(unnamed)".to_owned(), name);
                let unique = if i.unique { "UNIQUE " } else { "" };
                format!("{index} {unique}ON {} ({})", name(&i.table), names(&i.columns))
            },
            |i| name(i.name.as_deref().unwrap_or(&i.table)),
        ),
        listed(
            "db",
            "Enums",
            &facts.enums,
            |e| format!("{} = {}", name(&qualified(&e.schema, &e.name)), values(&e.values)),
            |e| name(&qualified(&e.schema, &e.name)),
        ),
        listed(
            "db",
            "Dropped",
            &facts.dropped,
            |d| format!("{} {} [{}]", d.kind, name(&d.name), file(&d.file)),
            |d| name(&d.name),
        ),
        listed(
            "backend",
            "Services",
            &facts.services,
            |s| format!("{}: {} [{}]", name(&s.name), names(&s.methods), file(&s.file)),
            |s| name(&s.name),
        ),
        section(
            "devops",
            "Env vars",
            grouped(facts.env_vars.iter().map(|e| {
                let place = if e.source.starts_with(".env") {
                    file(&e.file)
                } else {
                    format!("{} in {}", e.source, file(&e.file))
                };
                (name(&e.name), place)
            })),
            facts.env_vars.iter().map(|e| name(&e.name)),
        ),
        listed("devops", "Pipelines", &facts.pipelines, pipeline_line, |p| {
            name(p.name.as_deref().unwrap_or(&p.file))
        }),
        listed(
            "devops",
            "Pushed images",
            &facts.images,
            |i| format!("{} [{}]", path(&i.name), file(&i.file)),
            |i| path(&i.name),
        ),
        listed(
            "devops",
            "Docker stages",
            &facts.docker_stages,
            |d| match &d.name {
                Some(n) => format!("{} FROM {} [{}]", name(n), path(&d.base), file(&d.file)),
                None => format!("FROM {} [{}]", path(&d.base), file(&d.file)),
            },
            |d| name(d.name.as_deref().unwrap_or(&d.base)),
        ),
        listed(
            "frontend",
            "Design system imports",
            &facts.design_system,
            |d| format!("{}: {} [{}]", name(&d.package), names(&d.names), file(&d.file)),
            |d| name(&d.package),
        ),
        listed("db", "Migrations", &facts.migrations, |m| file(m), |m| file(m)),
        section(
            "",
            NOT_PARSED,
            facts.unparsed.iter().map(|u| safe::shown(u, Kind::Line)),
            std::iter::empty(),
        ),
    ];
    all.retain(|s| !s.lines.is_empty());
    // Migrations are listed, not counted, when tables already say what they hold.
    let has_tables = !facts.tables.is_empty();
    for s in &mut all {
        s.in_summary = !(s.title == "Migrations" && has_tables) && s.title != NOT_PARSED;
        let specific = matches!(
            s.title,
            "Tables" | "Endpoints" | "Components" | "Routes" | "Findings" | "Guards"
        );
        let own = domain == Some(s.domain);
        s.weight = (1 + usize::from(specific)) * (1 + usize::from(own));
    }
    if let Some(domain) = domain {
        all.sort_by_key(|s| s.domain != domain);
    }
    all
}

/// The section of `items`, each shown as `line` and named as `name`.
fn listed<T>(
    domain: &'static str,
    title: &'static str,
    items: &[T],
    line: impl Fn(&T) -> String,
    name: impl Fn(&T) -> String,
) -> Section {
    section(domain, title, items.iter().map(line), items.iter().map(name))
}

fn section(
    domain: &'static str,
    title: &'static str,
    lines: impl Iterator<Item = String>,
    names: impl Iterator<Item = String>,
) -> Section {
    // More lines than the budget can hold are counted, not written (nor formatted: the
    // count is of the items left).
    let mut lines = unique(lines);
    let shown = lines
        .by_ref()
        .take(MAX_SECTION_LINES)
        .map(|l| format!("- {}", clip(&l, LINE_BUDGET)));
    let shown: Vec<String> = shown.collect();
    let hidden = lines.size_hint().1.unwrap_or(0);
    Section {
        domain,
        title,
        lines: shown,
        hidden,
        names: unique(names).collect(),
        in_summary: true,
        weight: 1,
    }
}

fn endpoint_line(e: &Endpoint) -> String {
    let mut line = format!("{} {}", name(&e.method), path(&e.path));
    match (&e.request, &e.response) {
        (Some(req), Some(res)) => line.push_str(&format!(" ({} → {})", ty(req), ty(res))),
        (Some(req), None) => line.push_str(&format!(" (body {})", ty(req))),
        (None, Some(res)) => line.push_str(&format!(" (→ {})", ty(res))),
        (None, None) => {}
    }
    format!("{line} [{}]", file(&e.file))
}

fn shape_line(s: &Shape) -> String {
    let fields: Vec<String> = s
        .fields
        .iter()
        .map(|f| {
            let optional = if f.optional { "?" } else { "" };
            f.data_type
                .as_ref()
                .map_or(format!("{}{optional}", name(&f.name)), |t| {
                    format!("{}{optional}: {}", name(&f.name), ty(t))
                })
        })
        .collect();
    format!("{} ({}) {{{}}}", name(&s.name), name(&s.kind), fields.join(", "))
}

fn state_line(s: &StateStore) -> String {
    let mut line = format!("{} ({}): {}", name(&s.name), name(&s.kind), names(&s.keys));
    if let Some(provider) = &s.provider {
        line.push_str(&format!("; provider {}", name(provider)));
    }
    if let Some(hook) = &s.hook {
        line.push_str(&format!("; hook {}", name(hook)));
    }
    format!("{line} [{}]", file(&s.file))
}

fn table_name(t: &Table) -> String {
    name(&qualified(&t.schema, &t.name))
}

/// `billing.invoices (prisma model Invoice) [files]: id UUID PK, customer_id UUID NOT NULL → customers.id, …`
fn table_line(t: &Table) -> String {
    let mut head = table_name(t);
    let mut notes = Vec::new();
    match (&t.framework, &t.model) {
        (Some(fw), Some(model)) => notes.push(format!("{} model {}", name(fw), name(model))),
        (Some(fw), None) => notes.push(format!("{} model", name(fw))),
        (None, _) if t.origin == "alter" => notes.push("altered".to_owned()),
        _ => {}
    }
    if let Some(from) = &t.renamed_from {
        notes.push(format!("renamed from {}", name(from)));
    }
    if !notes.is_empty() {
        head.push_str(&format!(" ({})", notes.join("; ")));
    }
    let columns: Vec<String> = t.columns.iter().map(|c| column_text(c, t)).collect();
    let files = match t.sources.as_slice() {
        [] => file(&t.file),
        [one] => file(one),
        [first, second] => format!("{}, {}", file(first), file(second)),
        [first, .., last] => format!("{}, {} +{} more", file(first), file(last), t.sources.len() - 2),
    };
    format!("{head} [{files}]: {}", columns.join(", "))
}

fn column_text(c: &Column, t: &Table) -> String {
    let mut text = name(&c.name);
    if let Some(field) = &c.field {
        text.push_str(&format!(" (field {})", name(field)));
    }
    if let Some(data_type) = &c.data_type {
        text.push_str(&format!(" {}", ty(data_type)));
    }
    if c.primary_key || t.primary_key.contains(&c.name) {
        text.push_str(" PK");
    } else if c.nullable == Some(false) {
        text.push_str(" NOT NULL");
    }
    if c.unique {
        text.push_str(" UNIQUE");
    }
    for fk in t
        .foreign_keys
        .iter()
        .filter(|fk| fk.columns.len() == 1 && fk.columns[0] == c.name)
    {
        text.push_str(&format!(
            " → {}.{}",
            name(&fk.references_table),
            names(&fk.references_columns).replace(", ", ",")
        ));
    }
    text
}

/// `file "name" (kind): stages a, b; jobs x, y; scans snyk (job scan), trivy; 6 named steps`.
fn pipeline_line(p: &Pipeline) -> String {
    let title = p.name.as_deref().map_or_else(String::new, |n| match name(n) {
        quoted if quoted.starts_with('"') => format!(" {quoted}"),
        plain => format!(" \"{plain}\""),
    });
    let mut parts = Vec::new();
    if !p.stages.is_empty() {
        parts.push(format!("stages {}", names(&p.stages)));
    }
    parts.push(if p.jobs.is_empty() {
        "no jobs".to_owned()
    } else {
        format!("jobs {}", names(&p.jobs))
    });
    if !p.scans.is_empty() {
        let scans: Vec<String> = p
            .scans
            .iter()
            .map(|s| match (&s.job, &s.step) {
                (Some(job), Some(step)) => format!("{} (job {}, step {})", name(&s.tool), name(job), name(step)),
                (Some(job), None) => format!("{} (job {})", name(&s.tool), name(job)),
                (None, Some(step)) => format!("{} ({})", name(&s.tool), name(step)),
                (None, None) => name(&s.tool),
            })
            .collect();
        parts.push(format!("scans {}", scans.join(", ")));
    }
    if !p.steps.is_empty() {
        parts.push(format!("steps {}", names(&p.steps)));
    }
    format!("{}{title} ({}): {}", file(&p.file), name(&p.kind), parts.join("; "))
}

/// `a | b | c`, each value shown safely.
fn values(items: &[String]) -> String {
    items.iter().map(|v| name(v)).collect::<Vec<_>>().join(" | ")
}

/// `NAME (place; place)`, one line per name in first-seen order.
fn grouped(items: impl Iterator<Item = (String, String)>) -> impl Iterator<Item = String> {
    let mut lines: Vec<(String, Vec<String>)> = Vec::new();
    let mut index: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for (name, place) in items {
        match index.get(&name) {
            Some(&i) if !lines[i].1.contains(&place) => lines[i].1.push(place),
            Some(_) => {}
            None => {
                index.insert(name.clone(), lines.len());
                lines.push((name, vec![place]));
            }
        }
    }
    lines
        .into_iter()
        .map(|(name, places)| format!("{name} ({})", places.join("; ")))
}

/// The items once each, in first-seen order.
fn unique(items: impl Iterator<Item = String>) -> impl Iterator<Item = String> {
    let mut seen = std::collections::HashSet::new();
    items.filter(move |item| seen.insert(item.clone()))
}
