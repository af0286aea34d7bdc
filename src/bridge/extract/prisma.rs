//! Prisma schemas (`*.prisma`): models (tables, with `@@map`/`@@schema`), their scalar
//! fields (columns, `@map`, `?`, `@id`, `@unique`, `@db.*` native types), `@relation`
//! foreign keys, `@@id`, `@@unique`, `@@index`, enums, and the variables `env("…")` reads.
//! A small block reader: top-level `model|view|enum|type Name { … }` blocks, then one field
//! or block attribute per line, with strings and nested brackets respected in arguments (a
//! tree-sitter grammar for Prisma, `tree-sitter-prisma-io`, would let a rule file do this).

use std::collections::BTreeMap;

use super::{Source, is_identifier};
use crate::bridge::facts::{Column, EnumType, EnvVar, Facts, ForeignKey, Index, Table, qualified};

/// Extracts models and enums from the Prisma schema files among `sources`. Models that
/// relate across files (a multi-file schema) are resolved together.
pub fn extract(sources: &[Source<'_>]) -> Facts {
    let mut facts = Facts::default();
    let mut blocks = Vec::new();
    for source in sources.iter().filter(|s| s.extension() == "prisma") {
        blocks.extend(read_blocks(source, &mut facts.unparsed));
        facts.env_vars.extend(env_reads(source));
    }
    let models: BTreeMap<&str, Model<'_>> = blocks
        .iter()
        .filter(|b| matches!(b.kind, "model" | "view"))
        .map(|b| (b.name, Model::of(b)))
        .collect();
    for block in &blocks {
        match block.kind {
            "enum" => facts.enums.push(enum_of(block)),
            "model" | "view" => facts.tables.push(table_of(
                block,
                &models,
                &blocks,
                &mut facts.indexes,
                &mut facts.unparsed,
            )),
            _ => {}
        }
    }
    facts
}

/// The variables a schema reads with `env("DATABASE_URL")` (a datasource's `url`,
/// `directUrl`, `shadowDatabaseUrl`, a generator's settings), once each.
fn env_reads(source: &Source<'_>) -> Vec<EnvVar> {
    let mut out: Vec<EnvVar> = Vec::new();
    for line in source.text.lines().map(strip_comment) {
        let mut rest = line;
        while let Some(at) = rest.find("env(") {
            let standalone = !rest[..at].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_');
            let after = &rest[at + 4..];
            if standalone
                && let Some(name) = first_string(&after[..closing(after)])
                && !out.iter().any(|e| e.name == name)
            {
                out.push(EnvVar {
                    name,
                    source: "prisma env()".into(),
                    file: source.path.to_owned(),
                });
            }
            rest = after;
        }
    }
    out
}

/// A top-level `kind Name { … }` block: its body's lines (comments removed) with their numbers.
struct Block<'a> {
    kind: &'static str,
    name: &'a str,
    file: &'a str,
    lines: Vec<(usize, &'a str)>,
}

impl<'a> Block<'a> {
    /// The arguments of the block attribute `@@key(…)`.
    fn attribute(&self, key: &str) -> Option<&'a str> {
        let prefix = format!("@@{key}(");
        self.lines
            .iter()
            .find_map(|(_, l)| l.strip_prefix(&prefix).map(|rest| &rest[..closing(rest)]))
    }

    /// The name the block attribute `@@key("name")` gives.
    fn mapped(&self, key: &str) -> Option<String> {
        first_string(self.attribute(key)?)
    }
}

/// The table name (`@@map`), schema (`@@schema`) and column names (`@map`) of a model.
struct Model<'a> {
    table: String,
    schema: Option<String>,
    columns: BTreeMap<&'a str, String>,
}

impl<'a> Model<'a> {
    fn of(block: &Block<'a>) -> Self {
        let columns = block
            .lines
            .iter()
            .filter_map(|(_, line)| {
                let (field, rest) = field(line)?;
                Some((
                    field,
                    attribute(rest, "map")
                        .and_then(first_string)
                        .unwrap_or_else(|| field.to_owned()),
                ))
            })
            .collect();
        Self {
            table: block.mapped("map").unwrap_or_else(|| block.name.to_owned()),
            schema: block.mapped("schema"),
            columns,
        }
    }

    fn column(&self, field: &str) -> String {
        self.columns.get(field).cloned().unwrap_or_else(|| field.to_owned())
    }

    fn qualified(&self) -> String {
        qualified(&self.schema, &self.table)
    }
}

/// The blocks of one file; a block that is never closed ends the file's reading.
fn read_blocks<'a>(source: &Source<'a>, unparsed: &mut Vec<String>) -> Vec<Block<'a>> {
    let mut blocks = Vec::new();
    let mut lines = source.text.lines().map(strip_comment).enumerate();
    while let Some((n, line)) = lines.next() {
        let mut words = line.split_whitespace();
        let first = words.next();
        let Some(kind) = ["model", "view", "enum", "type"]
            .into_iter()
            .find(|k| Some(*k) == first)
        else {
            continue;
        };
        let Some(name) = words
            .next()
            .map(|w| w.trim_end_matches('{'))
            .filter(|w| is_identifier(w))
        else {
            continue;
        };
        let Some((_, inline)) = line.split_once('{') else {
            continue;
        };
        let mut block = Block {
            kind,
            name,
            file: source.path,
            lines: Vec::new(),
        };
        if let Some((inner, _)) = inline.split_once('}') {
            block.lines.push((n + 1, inner.trim()));
            blocks.push(block);
            continue;
        }
        let closed = lines.by_ref().any(|(m, line)| {
            let line = line.trim();
            if line != "}" && !line.is_empty() {
                block.lines.push((m + 1, line));
            }
            line == "}"
        });
        if !closed {
            unparsed.push(format!("{}:{}: {kind} {name} is not closed", source.path, n + 1));
            break;
        }
        blocks.push(block);
    }
    blocks
}

fn enum_of(block: &Block<'_>) -> EnumType {
    let values = block
        .lines
        .iter()
        .filter(|(_, l)| !l.starts_with('@'))
        .flat_map(|(_, l)| l.split_whitespace().take_while(|w| !w.starts_with('@')))
        .map(str::to_owned)
        .collect();
    EnumType {
        name: block.mapped("map").unwrap_or_else(|| block.name.to_owned()),
        values,
        framework: "prisma".into(),
        file: block.file.into(),
        ..EnumType::default()
    }
}

/// A model as a table: scalar fields are columns, relation fields foreign keys, `@@id`,
/// `@@unique` and `@@index` keys and indexes.
fn table_of(
    block: &Block<'_>,
    models: &BTreeMap<&str, Model<'_>>,
    blocks: &[Block<'_>],
    indexes: &mut Vec<Index>,
    unparsed: &mut Vec<String>,
) -> Table {
    let model = &models[block.name];
    let mut table = Table {
        name: model.table.clone(),
        schema: model.schema.clone(),
        model: (model.table != block.name).then(|| block.name.to_owned()),
        origin: "model".into(),
        framework: Some("prisma".into()),
        file: block.file.into(),
        ..Table::default()
    };
    let composite = |name: &str| blocks.iter().any(|b| b.kind == "type" && b.name == name);
    for (n, line) in &block.lines {
        if let Some(attribute) = line.strip_prefix("@@") {
            block_attribute(attribute, &mut table, model, indexes);
            continue;
        }
        let Some((name, declaration)) = field(line) else {
            unparsed.push(format!("{}:{n}: {line}", block.file));
            continue;
        };
        let (type_word, attributes) = declaration.split_once(char::is_whitespace).unwrap_or((declaration, ""));
        let base = type_word.trim_end_matches('?').trim_end_matches("[]");
        if let Some(target) = models.get(base).filter(|_| !composite(base)) {
            if let Some(args) = attribute(attributes, "relation") {
                let names = |key| list(argument(args, Some(key)).unwrap_or_default());
                table.foreign_keys.push(ForeignKey {
                    name: None,
                    columns: names("fields").iter().map(|f| model.column(f)).collect(),
                    references_table: target.qualified(),
                    references_columns: names("references").iter().map(|f| target.column(f)).collect(),
                });
            }
            continue;
        }
        let column = model.column(name);
        let native = attributes.find("@db.").map(|at| {
            let rest = &attributes[at..];
            let name_end = rest.find(|c: char| c == '(' || c.is_whitespace()).unwrap_or(rest.len());
            match rest[name_end..].strip_prefix('(') {
                Some(args) => &rest[..name_end + 2 + closing(args)],
                None => &rest[..name_end],
            }
        });
        let is_id = has_attribute(attributes, "id");
        if is_id {
            table.primary_key.push(column.clone());
        }
        table.columns.push(Column {
            field: (column != name).then(|| name.to_owned()),
            name: column,
            data_type: Some(native.map_or_else(|| base.to_owned(), |n| format!("{base} {n}"))),
            nullable: Some(type_word.ends_with('?')),
            primary_key: is_id,
            unique: has_attribute(attributes, "unique"),
        });
    }
    table
}

/// `(name, the rest)` of a field line: `email String @unique` → (`email`, `String @unique`).
fn field(line: &str) -> Option<(&str, &str)> {
    let (name, rest) = line.split_once(char::is_whitespace)?;
    (is_identifier(name) && !rest.trim().is_empty()).then(|| (name, rest.trim()))
}

fn block_attribute(attribute: &str, table: &mut Table, model: &Model<'_>, indexes: &mut Vec<Index>) {
    let (name, args) = attribute.split_once('(').unwrap_or((attribute, ""));
    let args = &args[..closing(args)];
    let listed = argument(args, None).or_else(|| argument(args, Some("fields")));
    let columns: Vec<String> = list(listed.unwrap_or_default())
        .iter()
        .map(|c| model.column(c))
        .collect();
    let index_name = argument(args, Some("map"))
        .or_else(|| argument(args, Some("name")))
        .and_then(first_string);
    match name.trim() {
        "id" => table.primary_key = columns,
        kind @ ("unique" | "index") => indexes.push(Index {
            name: index_name,
            table: model.qualified(),
            columns,
            unique: kind == "unique",
            file: table.file.clone(),
        }),
        _ => {}
    }
}

/// The arguments of attribute `@name(…)` (not `@@name`, not `@name.x`) in `text`.
fn attribute<'t>(text: &'t str, name: &str) -> Option<&'t str> {
    let needle = format!("@{name}(");
    let mut from = 0;
    while let Some(at) = text[from..].find(&needle) {
        let start = from + at;
        if start == 0 || text.as_bytes()[start - 1] != b'@' {
            let open = start + needle.len();
            return Some(&text[open..open + closing(&text[open..])]);
        }
        from = start + needle.len();
    }
    None
}

fn has_attribute(text: &str, name: &str) -> bool {
    text.split_whitespace().any(|w| {
        w.strip_prefix('@')
            .is_some_and(|a| a == name || a.starts_with(&format!("{name}(")))
    })
}

/// Length of the text up to the `)` closing an already opened parenthesis (strings and
/// nested brackets skipped); the whole text when it is never closed.
fn closing(text: &str) -> usize {
    top_level(text, &[')', ']']).unwrap_or(text.len())
}

/// Where the first of `stops` outside strings and nested brackets is.
fn top_level(text: &str, stops: &[char]) -> Option<usize> {
    let (mut depth, mut in_string, mut escaped) = (0i32, false, false);
    for (i, c) in text.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if in_string => escaped = true,
            '"' => in_string = !in_string,
            _ if in_string => {}
            c if depth == 0 && stops.contains(&c) => return Some(i),
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// Top-level comma-separated arguments.
fn arguments(args: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = args;
    while !rest.trim().is_empty() {
        let end = top_level(rest, &[',']).unwrap_or(rest.len());
        out.push(rest[..end].trim());
        rest = rest.get(end + 1..).unwrap_or("");
    }
    out
}

/// The argument named `key` (`fields: [a]`), or with no key the first one without a name.
fn argument<'t>(args: &'t str, key: Option<&str>) -> Option<&'t str> {
    arguments(args).into_iter().find_map(|arg| {
        let named = arg.split_once(':').filter(|(k, _)| is_identifier(k.trim()));
        match (named, key) {
            (Some((k, value)), Some(key)) if k.trim() == key => Some(value.trim()),
            (None, None) => Some(arg),
            _ => None,
        }
    })
}

/// The names in `[a, b(sort: Desc), c]`.
fn list(text: &str) -> Vec<String> {
    let inner = text.trim().trim_start_matches('[').trim_end_matches(']');
    arguments(inner)
        .into_iter()
        .map(|item| item.split('(').next().unwrap_or("").trim().to_owned())
        .filter(|item| !item.is_empty())
        .collect()
}

/// The first `"string"` in `text`, unescaped.
fn first_string(text: &str) -> Option<String> {
    let start = text.find('"')? + 1;
    let mut out = String::new();
    let mut chars = text[start..].chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some(out),
            '\\' => out.extend(chars.next()),
            _ => out.push(c),
        }
    }
    None
}

/// The line without its `//` comment (a `//` inside a string stays).
fn strip_comment(line: &str) -> &str {
    let bytes = line.as_bytes();
    let mut in_string = false;
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'"' if i == 0 || bytes[i - 1] != b'\\' => in_string = !in_string,
            b'/' if !in_string && bytes.get(i + 1) == Some(&b'/') => return &line[..i],
            _ => {}
        }
    }
    line
}

#[cfg(test)]
mod tests;
