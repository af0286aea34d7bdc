//! Prisma schemas (`*.prisma`): models (tables, with `@@map`/`@@schema`), their scalar
//! fields (columns, `@map`, `?`, `@id`, `@unique`, `@db.*` native types), `@relation`
//! foreign keys, `@@id`, `@@unique`, `@@index`, enums, and the variables `env("…")` reads.
//! The `tree-sitter-prisma-io` grammar parses a schema and the query `prisma/schema.scm` says
//! what its blocks declare; this module resolves it: mapped names, and relations as foreign
//! keys to models of any schema file.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use streaming_iterator::StreamingIterator;
use tree_sitter::{Parser, Query, QueryCursor};

use super::Source;
use super::syntax::{MAX_PARSE_BYTES, Unparsed};
use crate::bridge::facts::{Column, EnumType, EnvVar, Facts, ForeignKey, Index, Table, push_once, qualified};

/// The query whose captures say what a schema declares.
static QUERY: LazyLock<Query> = LazyLock::new(|| {
    Query::new(
        &tree_sitter_prisma_io::LANGUAGE.into(),
        include_str!("prisma/schema.scm"),
    )
    .expect("the Prisma query compiles")
});

/// How deep below a file's root a match may start: a block's statements are at depth 3, the
/// `env(…)` call of a setting at 4. The cursor skips what lies deeper (nothing a schema needs
/// but arguments nested without end, as hostile input may be).
const MAX_START_DEPTH: u32 = 4;

/// Extracts models and enums from the Prisma schema files among `sources`. Models that
/// relate across files (a multi-file schema) are resolved together.
pub fn extract(sources: &[Source<'_>]) -> Facts {
    let mut facts = Facts::default();
    let mut blocks = Vec::new();
    for source in sources.iter().filter(|s| s.extension() == "prisma") {
        let file = read(source).unwrap_or_else(|unparsed| {
            facts.unparsed.push(unparsed.note(source.path));
            Said::default()
        });
        for name in file.all("env") {
            let (name, source, file) = (name.to_owned(), "prisma env()".into(), source.path.to_owned());
            push_once(&mut facts.env_vars, EnvVar { name, source, file });
        }
        blocks.extend(file.parts.into_values());
    }
    // The models a field's type may name (the last of a name; none a composite type shadows).
    let composites: Vec<&str> = blocks.iter().filter_map(|b| b.get("composite")).collect();
    let models: BTreeMap<&str, &Said<'_>> = blocks
        .iter()
        .filter(|b| !b.has("unclosed"))
        .filter_map(|b| Some((b.get("model")?, b)))
        .filter(|(name, _)| !composites.contains(name))
        .collect();
    for block in &blocks {
        let name = block.get("model").or(block.get("enum")).unwrap_or_default();
        if let Some(kind) = block.get("unclosed") {
            let line = block.line;
            facts
                .unparsed
                .push(format!("{}:{line}: {kind} {name} is not closed", block.file));
        } else if block.has("enum") {
            facts.enums.push(EnumType {
                name: block.get("map").unwrap_or(name).to_owned(),
                values: block.all("value").map(str::to_owned).collect(),
                framework: "prisma".into(),
                file: block.file.into(),
                ..EnumType::default()
            });
        } else if block.has("model") {
            add_table(block, &models, &mut facts);
        }
    }
    facts
}

/// What the query's matches say about a file, one of its blocks, or one part of a block (a
/// field, a block attribute): the texts captured (strings without their quotes), by capture
/// name, in the file's order.
#[derive(Default)]
struct Said<'a> {
    file: &'a str,
    line: usize,
    /// Its text, when it did not parse.
    broken: Option<&'a str>,
    said: Vec<(&'static str, &'a str)>,
    /// Its blocks (a file's) or parts (a block's), by place.
    parts: BTreeMap<usize, Said<'a>>,
}

impl<'a> Said<'a> {
    /// The first text captured as `name`.
    fn get(&self, name: &str) -> Option<&'a str> {
        self.all(name).next()
    }

    /// Every text captured as `name`.
    fn all(&self, name: &str) -> impl Iterator<Item = &'a str> {
        self.said
            .iter()
            .filter(move |(have, _)| *have == name)
            .map(|(_, text)| *text)
    }

    fn has(&self, name: &str) -> bool {
        self.get(name).is_some()
    }
}

/// Runs the query over one schema file: what it says of the file, its blocks and their parts.
fn read<'a>(source: &Source<'a>) -> Result<Said<'a>, Unparsed> {
    let text = source.text;
    if text.len() > MAX_PARSE_BYTES {
        return Err(Unparsed::TooLarge(text.len()));
    }
    let mut parser = Parser::new();
    let language = tree_sitter_prisma_io::LANGUAGE.into();
    parser.set_language(&language).map_err(|_| Unparsed::GaveUp)?;
    let tree = parser.parse(text, None).ok_or(Unparsed::GaveUp)?;
    let mut file = Said::default();
    let mut cursor = QueryCursor::new();
    cursor.set_max_start_depth(Some(MAX_START_DEPTH));
    let mut matches = cursor.matches(&QUERY, tree.root_node(), text.as_bytes());
    let names = QUERY.capture_names();
    while let Some(found) = matches.next() {
        let mut about = &mut file;
        for group in ["block", "part"] {
            let index = QUERY.capture_index_for_name(group);
            let Some(node) = index.and_then(|i| found.nodes_for_capture_index(i).next()) else {
                continue;
            };
            about = about.parts.entry(node.start_byte()).or_insert_with(|| Said {
                file: source.path,
                line: node.start_position().row + 1,
                broken: (group == "part" && node.has_error()).then(|| text.get(node.byte_range()).unwrap_or("")),
                ..Said::default()
            });
        }
        for capture in found.captures {
            let name = names[capture.index as usize];
            let said = text.get(capture.node.byte_range()).unwrap_or("");
            // A string's text is without its quotes.
            let said = match capture.node.kind() {
                "string" => said.get(1..said.len().saturating_sub(1)).unwrap_or(""),
                _ => said,
            };
            if !matches!(name, "block" | "part") && !name.starts_with('_') {
                about.said.push((name, said));
            }
        }
    }
    Ok(file)
}

/// A model as a table: scalar fields are columns, relation fields foreign keys to the
/// `models` their type names, `@@id`, `@@unique` and `@@index` keys and indexes; the parts
/// that did not parse are recorded.
fn add_table(model: &Said<'_>, models: &BTreeMap<&str, &Said<'_>>, facts: &mut Facts) {
    let (name, mapped) = (model.get("model").unwrap_or_default(), table_name(model));
    let mut table = Table {
        model: (mapped != name).then(|| name.to_owned()),
        name: mapped.to_owned(),
        schema: model.get("schema").map(str::to_owned),
        origin: "model".into(),
        framework: Some("prisma".into()),
        file: model.file.into(),
        ..Table::default()
    };
    for part in model.parts.values() {
        if let Some(text) = part.broken {
            facts.unparsed.push(format!("{}:{}: {text}", model.file, part.line));
        } else if let Some(kind) = part.get("key") {
            let columns = part.all("key.field").map(|f| column(model, f)).collect();
            match kind {
                "id" => table.primary_key = columns,
                kind => facts.indexes.push(Index {
                    name: part.get("key.map").or(part.get("key.name")).map(str::to_owned),
                    table: qualified(&table.schema, &table.name),
                    columns,
                    unique: kind == "unique",
                    file: model.file.into(),
                }),
            }
        } else if let (Some(field), Some(type_name)) = (part.get("field"), part.get("type")) {
            if let Some(target) = models.get(type_name) {
                if part.has("relation") {
                    table.foreign_keys.push(ForeignKey {
                        name: None,
                        columns: part.all("relation.field").map(|f| column(model, f)).collect(),
                        references_table: qualified(&target.get("schema").map(str::to_owned), table_name(target)),
                        references_columns: part.all("relation.reference").map(|f| column(target, f)).collect(),
                    });
                }
                continue;
            }
            let (name, is_id) = (column(model, field), part.all("flag").any(|f| f == "id"));
            if is_id {
                table.primary_key.push(name.clone());
            }
            table.columns.push(Column {
                field: (name != field).then(|| field.to_owned()),
                name,
                data_type: Some(
                    part.get("native")
                        .map_or_else(|| type_name.to_owned(), |n| format!("{type_name} {n}")),
                ),
                nullable: Some(part.has("optional")),
                primary_key: is_id,
                unique: part.all("flag").any(|f| f == "unique"),
            });
        }
    }
    facts.tables.push(table);
}

/// A model's table name: `@@map`'s, or the model's own.
fn table_name<'a>(model: &Said<'a>) -> &'a str {
    model.get("map").or(model.get("model")).unwrap_or_default()
}

/// The column a model's field is stored in (`@map`), the field's name when it is no field.
fn column(model: &Said<'_>, field: &str) -> String {
    let part = model.parts.values().find(|part| part.get("field") == Some(field));
    part.and_then(|part| part.get("column")).unwrap_or(field).to_owned()
}

#[cfg(test)]
mod tests;
