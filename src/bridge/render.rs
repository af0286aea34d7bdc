//! The words of a handoff: a one-paragraph `summary` and `contextForNext`, the text the next
//! agent is given. Both name concrete things (tables with their columns, endpoints with
//! their methods, …) in the finished agent's domain first, and stay within a budget: long
//! lists are cut with a count of what was left out and where to find it.

use super::facts::{Column, Facts, Table};
use super::handoff::qualified;
use super::read::ReadStats;
use super::ticket::Ticket;

/// Longest `contextForNext`, in characters: several agents' handoffs fit in the 10,000
/// characters Claude Code accepts from one hook.
pub const CONTEXT_BUDGET: usize = 3_000;
/// Lines of one kind written out (more than fit the budget anyway); the rest are counted.
const MAX_SECTION_LINES: usize = 200;
/// Longest line of `contextForNext`.
const LINE_BUDGET: usize = 600;
/// The summary's prefix when nothing was extracted (BMAD's fallback).
pub const UNSTRUCTURED: &str = "(unstructured) ";
/// Names listed per kind in the summary.
const SUMMARY_NAMES: usize = 4;

/// Who the handoff is from, for both texts.
pub struct Heading<'a> {
    pub agent: &'a str,
    pub domain: Option<&'a str>,
    pub ticket: Option<&'a Ticket>,
}

impl Heading<'_> {
    fn text(&self) -> String {
        let mut text = self.agent.to_owned();
        if let Some(domain) = self.domain {
            text.push_str(&format!(" ({domain})"));
        }
        if let Some(label) = self.ticket.and_then(Ticket::label) {
            text.push_str(&format!(" for {label}"));
        }
        text
    }
}

/// What a run did, in words: `(summary, contextForNext)`.
pub struct Texts {
    pub summary: String,
    pub context_for_next: String,
}

/// Both texts of a handoff (the sections are built once for both).
pub fn texts(
    heading: &Heading<'_>,
    facts: &Facts,
    files: usize,
    stats: &ReadStats,
    message: Option<&str>,
    run_id: Option<&str>,
) -> Texts {
    let sections = sections(facts, heading.domain);
    Texts {
        summary: summary(heading, facts, &sections, files, stats, message),
        context_for_next: context_for_next(heading, facts, &sections, message, run_id),
    }
}

/// The summary: who, for which ticket, how many files, and the names by kind.
fn summary(
    heading: &Heading<'_>,
    facts: &Facts,
    sections: &[Section],
    files: usize,
    stats: &ReadStats,
    message: Option<&str>,
) -> String {
    if facts.is_empty() {
        return format!("{UNSTRUCTURED}{}", message.unwrap_or("").trim());
    }
    let counts: Vec<String> = sections
        .iter()
        .filter(|s| s.in_summary)
        .map(|s| {
            let shown: Vec<&str> = s.names.iter().take(SUMMARY_NAMES).map(String::as_str).collect();
            let more = if s.names.len() > SUMMARY_NAMES { ", …" } else { "" };
            format!("{} {} ({}{more})", s.names.len(), s.noun(), shown.join(", "))
        })
        .collect();
    let mut text = format!(
        "{} changed {files} file{}: {}.",
        heading.text(),
        if files == 1 { "" } else { "s" },
        counts.join("; ")
    );
    if !facts.unparsed.is_empty() {
        text.push_str(&format!(" {} could not be parsed.", facts.unparsed.len()));
    }
    if let Some(skipped) = stats.describe_skipped() {
        text.push_str(&format!(" Files {skipped}."));
    }
    text
}

/// `contextForNext`: a heading line, then one line per item the next agent needs, within
/// [`CONTEXT_BUDGET`].
fn context_for_next(
    heading: &Heading<'_>,
    facts: &Facts,
    sections: &[Section],
    message: Option<&str>,
    run_id: Option<&str>,
) -> String {
    let mut lines = vec![format!("Handoff from {}:", heading.text())];
    if facts.is_empty() {
        lines.push(format!(
            "{UNSTRUCTURED}{}",
            message.unwrap_or("(no final message)").trim()
        ));
    } else {
        for section in sections {
            lines.push(format!("{}:", section.title));
            lines.extend(section.lines.iter().map(|l| format!("- {l}")));
            if section.hidden > 0 {
                lines.push(format!("- … {} more", section.hidden));
            }
        }
        lines.push("Use these exact names; the files listed hold the details.".into());
    }
    if !facts.unparsed.is_empty() {
        lines.push("Not parsed (read these by hand):".into());
        lines.extend(facts.unparsed.iter().map(|u| format!("- {u}")));
    }
    fit(lines, CONTEXT_BUDGET, run_id)
}

/// Joins `lines`, cutting long lines and, past `budget`, the tail (with a note of how many
/// lines were left out and how to see them).
fn fit(lines: Vec<String>, budget: usize, run_id: Option<&str>) -> String {
    let more = |n: usize| {
        let how = run_id.map_or("`baton bridge --json`".to_owned(), |id| {
            format!("`baton bridge --agent {id} --json`")
        });
        format!(
            "… {n} more line{} left out; {how} has everything.",
            if n == 1 { "" } else { "s" }
        )
    };
    let total = lines.len();
    let mut out = String::new();
    for (i, line) in lines.into_iter().enumerate() {
        let line = clip(&line, LINE_BUDGET);
        let reserve = if i + 1 < total {
            more(total - i).chars().count() + 1
        } else {
            0
        };
        if out.chars().count() + line.chars().count() + 1 + reserve > budget && i > 0 {
            out.push_str(&more(total - i));
            return out;
        }
        out.push_str(&line);
        out.push('\n');
    }
    out.trim_end().to_owned()
}

/// One kind of thing extracted: its heading, its lines, and the names the summary counts.
struct Section {
    domain: &'static str,
    title: &'static str,
    lines: Vec<String>,
    /// Lines past [`MAX_SECTION_LINES`], not written out.
    hidden: usize,
    names: Vec<String>,
    in_summary: bool,
}

impl Section {
    fn noun(&self) -> String {
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
fn sections(facts: &Facts, domain: Option<&str>) -> Vec<Section> {
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
    format!("{head} [{}]: {}", t.file, columns.join(", "))
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

fn clip(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests;
