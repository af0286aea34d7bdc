//! The sections of a handoff's texts: one per kind of thing extracted (tables, indexes,
//! endpoints, env vars, …), each with its lines for `contextForNext` and its names for the
//! summary, in the finished agent's domain first.

use super::super::facts::{Column, Facts, Table};
use super::super::handoff::qualified;

/// Lines of one kind written out (more than fit the budget anyway); the rest are counted.
const MAX_SECTION_LINES: usize = 200;

/// One kind of thing extracted: its heading, its lines, and the names the summary counts.
pub(super) struct Section {
    pub(super) domain: &'static str,
    pub(super) title: &'static str,
    pub(super) lines: Vec<String>,
    /// Lines past [`MAX_SECTION_LINES`], not written out.
    pub(super) hidden: usize,
    pub(super) names: Vec<String>,
    pub(super) in_summary: bool,
}

impl Section {
    pub(super) fn noun(&self) -> String {
        let lower = self.title.to_ascii_lowercase();
        if self.names.len() == 1 {
            lower
                .strip_suffix("es")
                .filter(|s| s.ends_with("ss") || s.ends_with('x'))
                .map_or_else(|| lower.strip_suffix('s').unwrap_or(&lower).to_owned(), str::to_owned)
        } else {
            lower
        }
    }
}

/// Every non-empty section, the `domain`'s first.
pub(super) fn sections(facts: &Facts, domain: Option<&str>) -> Vec<Section> {
    let mut all = vec![
        section(
            "db",
            "Tables",
            facts.tables.iter().map(table_line),
            facts.tables.iter().map(table_name),
        ),
        section(
            "db",
            "Indexes",
            facts.indexes.iter().map(|i| {
                let name = i.name.clone().unwrap_or_else(|| "(unnamed)".into());
                let unique = if i.unique { "UNIQUE " } else { "" };
                format!("{name} {unique}ON {} ({})", i.table, i.columns.join(", "))
            }),
            facts
                .indexes
                .iter()
                .map(|i| i.name.clone().unwrap_or_else(|| i.table.clone())),
        ),
        section(
            "db",
            "Enums",
            facts
                .enums
                .iter()
                .map(|e| format!("{} = {}", qualified(&e.schema, &e.name), e.values.join(" | "))),
            facts.enums.iter().map(|e| qualified(&e.schema, &e.name)),
        ),
        section(
            "db",
            "Migrations",
            facts.migrations.iter().cloned(),
            facts.migrations.iter().cloned(),
        ),
        section(
            "backend",
            "Endpoints",
            facts.endpoints.iter().map(|e| {
                let mut line = format!("{} {}", e.method, e.path);
                match (&e.request, &e.response) {
                    (Some(req), Some(res)) => line.push_str(&format!(" ({req} → {res})")),
                    (Some(req), None) => line.push_str(&format!(" (body {req})")),
                    (None, Some(res)) => line.push_str(&format!(" (→ {res})")),
                    (None, None) => {}
                }
                format!("{line} [{}]", e.file)
            }),
            facts.endpoints.iter().map(|e| format!("{} {}", e.method, e.path)),
        ),
        section(
            "backend",
            "Shapes",
            facts.shapes.iter().map(|s| {
                let fields: Vec<String> = s
                    .fields
                    .iter()
                    .map(|f| {
                        let optional = if f.optional { "?" } else { "" };
                        f.data_type.as_ref().map_or(format!("{}{optional}", f.name), |t| {
                            format!("{}{optional}: {t}", f.name)
                        })
                    })
                    .collect();
                format!("{} ({}) {{{}}}", s.name, s.kind, fields.join(", "))
            }),
            facts.shapes.iter().map(|s| s.name.clone()),
        ),
        section(
            "backend",
            "Services",
            facts
                .services
                .iter()
                .map(|s| format!("{}: {} [{}]", s.name, s.methods.join(", "), s.file)),
            facts.services.iter().map(|s| s.name.clone()),
        ),
        section(
            "devops",
            "Env vars",
            grouped(facts.env_vars.iter().map(|e| {
                let place = if e.source.starts_with(".env") {
                    e.file.clone()
                } else {
                    format!("{} in {}", e.source, e.file)
                };
                (e.name.clone(), place)
            })),
            facts.env_vars.iter().map(|e| e.name.clone()),
        ),
        section(
            "frontend",
            "Components",
            facts
                .components
                .iter()
                .map(|c| format!("{} ({}) [{}]", c.name, c.kind, c.file)),
            facts.components.iter().map(|c| c.name.clone()),
        ),
        section(
            "frontend",
            "Routes",
            facts.routes.iter().map(|r| match &r.component {
                Some(c) => format!("{} → {c} ({})", r.path, r.framework),
                None => format!("{} ({})", r.path, r.framework),
            }),
            facts.routes.iter().map(|r| r.path.clone()),
        ),
        section(
            "frontend",
            "State",
            facts.state.iter().map(|s| {
                let mut line = format!("{} ({}): {}", s.name, s.kind, s.keys.join(", "));
                if let Some(provider) = &s.provider {
                    line.push_str(&format!("; provider {provider}"));
                }
                if let Some(hook) = &s.hook {
                    line.push_str(&format!("; hook {hook}"));
                }
                format!("{line} [{}]", s.file)
            }),
            facts.state.iter().map(|s| s.name.clone()),
        ),
        section(
            "frontend",
            "Design system imports",
            facts
                .design_system
                .iter()
                .map(|d| format!("{}: {} [{}]", d.package, d.names.join(", "), d.file)),
            facts.design_system.iter().map(|d| d.package.clone()),
        ),
        section(
            "devops",
            "Pipelines",
            facts.pipelines.iter().map(|p| {
                let name = p.name.as_ref().map(|n| format!(" \"{n}\"")).unwrap_or_default();
                let jobs = if p.jobs.is_empty() {
                    "no jobs".to_owned()
                } else {
                    format!("jobs {}", p.jobs.join(", "))
                };
                format!("{}{name} ({}): {jobs}", p.file, p.kind)
            }),
            facts
                .pipelines
                .iter()
                .map(|p| p.name.clone().unwrap_or_else(|| p.file.clone())),
        ),
        section(
            "devops",
            "Docker stages",
            facts.docker_stages.iter().map(|d| match &d.name {
                Some(n) => format!("{n} FROM {} [{}]", d.base, d.file),
                None => format!("FROM {} [{}]", d.base, d.file),
            }),
            facts
                .docker_stages
                .iter()
                .map(|d| d.name.clone().unwrap_or_else(|| d.base.clone())),
        ),
        section(
            "devops",
            "Pushed images",
            facts.images.iter().map(|i| format!("{} [{}]", i.name, i.file)),
            unique(facts.images.iter().map(|i| i.name.clone())),
        ),
        section(
            "security",
            "Findings",
            grouped(facts.findings.iter().map(|f| (f.id.clone(), f.file.clone()))),
            unique(facts.findings.iter().map(|f| f.id.clone())),
        ),
        section(
            "security",
            "Guards",
            facts
                .guards
                .iter()
                .map(|g| format!("{} ({}) [{}]", g.name, g.kind, g.file)),
            facts.guards.iter().map(|g| g.name.clone()),
        ),
    ];
    all.retain(|s| !s.lines.is_empty());
    // Migrations are listed, not counted, when tables already say what they hold.
    let has_tables = !facts.tables.is_empty();
    for s in &mut all {
        s.in_summary = !(s.title == "Migrations" && has_tables);
    }
    if let Some(domain) = domain {
        all.sort_by_key(|s| s.domain != domain);
    }
    all
}

fn section(
    domain: &'static str,
    title: &'static str,
    lines: impl Iterator<Item = String>,
    names: impl Iterator<Item = String>,
) -> Section {
    // More lines than the budget can hold are counted, not written.
    let mut lines = unique(lines);
    let shown: Vec<String> = lines.by_ref().take(MAX_SECTION_LINES).collect();
    let hidden = lines.size_hint().1.unwrap_or(0);
    Section {
        domain,
        title,
        lines: shown,
        hidden,
        names: unique(names).collect(),
        in_summary: true,
    }
}

fn table_name(t: &Table) -> String {
    qualified(&t.schema, &t.name)
}

/// `billing.invoices (prisma model Invoice) [file]: id UUID PK, customer_id UUID NOT NULL → customers.id, …`
fn table_line(t: &Table) -> String {
    let mut head = table_name(t);
    match (&t.framework, &t.model) {
        (Some(fw), Some(model)) => head.push_str(&format!(" ({fw} model {model})")),
        (Some(fw), None) => head.push_str(&format!(" ({fw} model)")),
        (None, _) if t.origin == "alter" => head.push_str(" (altered: columns added)"),
        _ => {}
    }
    let columns: Vec<String> = t.columns.iter().map(|c| column_text(c, t)).collect();
    let files = if t.sources.len() > 1 { t.sources.join(", ") } else { t.file.clone() };
    format!("{head} [{files}]: {}", columns.join(", "))
}

fn column_text(c: &Column, t: &Table) -> String {
    let mut text = c.name.clone();
    if let Some(field) = &c.field {
        text.push_str(&format!(" (field {field})"));
    }
    if let Some(ty) = &c.data_type {
        text.push_str(&format!(" {ty}"));
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
            fk.references_table,
            fk.references_columns.join(",")
        ));
    }
    text
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
