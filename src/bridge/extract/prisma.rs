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
use crate::bridge::facts::{Column, EnumType, EnvVar, Facts, ForeignKey, Index, Table, qualified};

/// The query whose captures say what a schema declares.
static QUERY: LazyLock<Query> = LazyLock::new(|| {
    Query::new(
        &tree_sitter_prisma_io::LANGUAGE.into(),
        include_str!("prisma/schema.scm"),
    )
    .expect("the Prisma query compiles")
});

/// Extracts models and enums from the Prisma schema files among `sources`. Models that
/// relate across files (a multi-file schema) are resolved together.
pub fn extract(sources: &[Source<'_>]) -> Facts {
    let mut facts = Facts::default();
    let mut parser = Parser::new();
    if parser.set_language(&tree_sitter_prisma_io::LANGUAGE.into()).is_err() {
        return facts;
    }
    let mut blocks = Vec::new();
    for source in sources.iter().filter(|s| s.extension() == "prisma") {
        let file = match read(&mut parser, source) {
            Ok(file) => file,
            Err(unparsed) => {
                facts.unparsed.push(unparsed.note(source.path));
                continue;
            }
        };
        for name in file.all("env").map(string) {
            if !facts.env_vars.iter().any(|e| e.name == name && e.file == source.path) {
                let (source, file) = ("prisma env()".into(), source.path.to_owned());
                facts.env_vars.push(EnvVar { name, source, file });
            }
        }
        blocks.extend(file.parts.into_values());
    }
    let schema = Schema {
        models: blocks.iter().filter(|b| b.has("model") && !b.has("unclosed")).collect(),
        composites: blocks.iter().filter_map(|b| b.get("composite")).collect(),
    };
    for block in &blocks {
        let name = block.get("model").or(block.get("enum")).unwrap_or_default();
        if let Some(kind) = block.get("unclosed") {
            let line = block.line;
            facts
                .unparsed
                .push(format!("{}:{line}: {kind} {name} is not closed", block.file));
        } else if block.has("enum") {
            facts.enums.push(EnumType {
                name: block.get("map").map_or_else(|| name.to_owned(), string),
                values: block.all("value").map(str::to_owned).collect(),
                framework: "prisma".into(),
                file: block.file.into(),
                ..EnumType::default()
            });
        } else if block.has("model") {
            facts
                .tables
                .push(schema.table_of(block, &mut facts.indexes, &mut facts.unparsed));
        }
    }
    facts
}

/// What the query's matches say about a file, one of its blocks, or one part of a block (a
/// field, a block attribute): the texts captured, by capture name, in the file's order.
#[derive(Default)]
struct Said<'a> {
    file: &'a str,
    line: usize,
    text: &'a str,
    /// It did not parse.
    broken: bool,
    said: Vec<(&'static str, &'a str)>,
    /// Its blocks (a file's) or parts (a block's), by place.
    parts: BTreeMap<usize, Said<'a>>,
}

impl<'a> Said<'a> {
    fn get(&self, name: &str) -> Option<&'a str> {
        self.all(name).next()
    }

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
fn read<'a>(parser: &mut Parser, source: &Source<'a>) -> Result<Said<'a>, Unparsed> {
    let text = source.text;
    if text.len() > MAX_PARSE_BYTES {
        return Err(Unparsed::TooLarge(text.len()));
    }
    let tree = parser.parse(text, None).ok_or(Unparsed::GaveUp)?;
    let mut file = Said::default();
    let mut cursor = QueryCursor::new();
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
                text: text.get(node.byte_range()).unwrap_or(""),
                broken: group == "part" && node.has_error(),
                ..Said::default()
            });
        }
        for capture in found.captures {
            let name = names[capture.index as usize];
            if !matches!(name, "block" | "part") && !name.starts_with('_') {
                about
                    .said
                    .push((name, text.get(capture.node.byte_range()).unwrap_or("")));
            }
        }
    }
    Ok(file)
}

/// The models (and views) and composite types of every schema file.
struct Schema<'s, 'a> {
    models: Vec<&'s Said<'a>>,
    composites: Vec<&'a str>,
}

impl<'a> Schema<'_, 'a> {
    /// A model as a table: scalar fields are columns, relation fields foreign keys, `@@id`,
    /// `@@unique` and `@@index` keys and indexes; the parts that did not parse are recorded.
    fn table_of(&self, model: &Said<'a>, indexes: &mut Vec<Index>, unparsed: &mut Vec<String>) -> Table {
        let (name, mapped) = (model.get("model").unwrap_or_default(), table_name(model));
        let mut table = Table {
            model: (mapped != name).then(|| name.to_owned()),
            name: mapped,
            schema: model.get("schema").map(string),
            origin: "model".into(),
            framework: Some("prisma".into()),
            file: model.file.into(),
            ..Table::default()
        };
        for part in model.parts.values() {
            if part.broken {
                unparsed.push(format!("{}:{}: {}", part.file, part.line, part.text));
            } else if let Some(kind) = part.get("key") {
                let columns = part.all("key.field").map(|f| column(model, f)).collect();
                match kind {
                    "id" => table.primary_key = columns,
                    kind => indexes.push(Index {
                        name: part.get("key.map").or(part.get("key.name")).map(string),
                        table: qualified(&table.schema, &table.name),
                        columns,
                        unique: kind == "unique",
                        file: model.file.into(),
                    }),
                }
            } else if let (Some(field), Some(type_name)) = (part.get("field"), part.get("type")) {
                if let Some(target) = self.model(type_name) {
                    if part.has("relation") {
                        table.foreign_keys.push(ForeignKey {
                            name: None,
                            columns: part.all("relation.field").map(|f| column(model, f)).collect(),
                            references_table: qualified(&target.get("schema").map(string), &table_name(target)),
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
                    data_type: Some(match part.get("native") {
                        Some(native) => format!("{type_name} {native}"),
                        None => type_name.to_owned(),
                    }),
                    nullable: Some(part.has("optional")),
                    primary_key: is_id,
                    unique: part.all("flag").any(|f| f == "unique"),
                });
            }
        }
        table
    }

    /// The model (or view) a field's type names, unless a composite type has that name.
    fn model(&self, type_name: &str) -> Option<&Said<'a>> {
        if self.composites.contains(&type_name) {
            return None;
        }
        self.models
            .iter()
            .rev()
            .find(|model| model.get("model") == Some(type_name))
            .copied()
    }
}

/// A model's table name: `@@map`'s, or the model's own.
fn table_name(model: &Said<'_>) -> String {
    model
        .get("map")
        .map_or_else(|| model.get("model").unwrap_or_default().to_owned(), string)
}

/// The column a model's field is stored in (`@map`), the field's name when it is no field.
fn column(model: &Said<'_>, field: &str) -> String {
    let part = model.parts.values().find(|part| part.get("field") == Some(field));
    part.and_then(|part| part.get("column"))
        .map_or_else(|| field.to_owned(), string)
}

/// A string literal's content, unescaped.
fn string(literal: &str) -> String {
    let inner = literal.get(1..literal.len().saturating_sub(1)).unwrap_or("");
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.extend(chars.next()),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests;
