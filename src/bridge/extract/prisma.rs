//! Prisma schemas (`*.prisma`): models (tables, with `@@map`/`@@schema`), their scalar
//! fields (columns, `@map`, `?`, `@id`, `@unique`, `@db.*` native types), `@relation`
//! foreign keys, `@@id`, `@@unique`, `@@index`, enums, and the variables `env("…")` reads.
//! The `tree-sitter-prisma-io` grammar parses a schema and the query `prisma/schema.scm` gives
//! its declarations; this module resolves them: mapped names, and relations as foreign keys to
//! models of any schema file.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use streaming_iterator::StreamingIterator;
use tree_sitter::{Node, Parser, Query, QueryCursor, QueryMatch};

use super::Source;
use super::syntax::{MAX_PARSE_BYTES, Unparsed, Walk, named_children, walk};
use crate::bridge::facts::{Column, EnumType, EnvVar, Facts, ForeignKey, Index, Table, qualified};

/// The query whose captures are a schema's declarations.
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
    let mut schema = Schema::default();
    let mut parser = Parser::new();
    if parser.set_language(&tree_sitter_prisma_io::LANGUAGE.into()).is_err() {
        return facts;
    }
    for source in sources.iter().filter(|s| s.extension() == "prisma") {
        schema.read(&mut parser, source, &mut facts);
    }
    for model in &schema.models {
        facts.tables.push(schema.table_of(model, &mut facts.indexes));
    }
    facts
}

/// What the schema files declare.
#[derive(Default)]
struct Schema<'a> {
    models: Vec<Model<'a>>,
    /// The composite types' names (`type Address { … }`).
    composites: Vec<&'a str>,
}

/// A model or view.
#[derive(Default)]
struct Model<'a> {
    name: &'a str,
    file: &'a str,
    /// `@@map("users")`.
    table: Option<String>,
    /// `@@schema("billing")`.
    schema: Option<String>,
    /// By place in the file.
    fields: BTreeMap<usize, Field<'a>>,
    /// `@@id`, `@@unique`, `@@index`: the kind, the fields, the name (`map:` or `name:`).
    keys: Vec<(&'a str, Vec<&'a str>, Option<String>)>,
}

/// A field of a model.
#[derive(Default)]
struct Field<'a> {
    name: &'a str,
    /// The type without `?` or `[]`.
    type_name: &'a str,
    optional: bool,
    /// `@map("created_at")`.
    column: Option<String>,
    /// `@db.VarChar(255)`.
    native: Option<&'a str>,
    id: bool,
    unique: bool,
    /// `@relation(…)`: the fields and the fields of the related model they reference.
    relation: Option<(Vec<&'a str>, Vec<&'a str>)>,
}

impl<'a> Schema<'a> {
    /// Reads one schema file's declarations, its enums and env reads into `facts`.
    fn read(&mut self, parser: &mut Parser, source: &Source<'a>, facts: &mut Facts) {
        let text = source.text;
        let tree = match text.len() {
            len if len > MAX_PARSE_BYTES => Err(Unparsed::TooLarge(len)),
            _ => parser.parse(text, None).ok_or(Unparsed::GaveUp),
        };
        let tree = match tree {
            Ok(tree) => tree,
            Err(unparsed) => {
                facts.unparsed.push(unparsed.note(source.path));
                return;
            }
        };
        let at = |node: Node<'_>| text.get(node.byte_range()).unwrap_or("");
        let mut models: BTreeMap<usize, Model<'a>> = BTreeMap::new();
        let mut enums: BTreeMap<usize, EnumType> = BTreeMap::new();
        let mut unclosed = Vec::new();
        let mut cursor = QueryCursor::new();
        let mut matches = cursor.matches(&QUERY, tree.root_node(), text.as_bytes());
        while let Some(found) = matches.next() {
            let node = |name| captured(found, name);
            if let Some(block) = node("unclosed") {
                let (kind, name) = (
                    node("unclosed.kind").map_or("", at),
                    node("unclosed.name").map_or("", at),
                );
                let line = block.start_position().row + 1;
                facts
                    .unparsed
                    .push(format!("{}:{line}: {kind} {name} is not closed", source.path));
                unclosed.push(block.start_byte());
            } else if let Some(name) = node("env") {
                let name = string(at(name));
                if !facts.env_vars.iter().any(|e| e.name == name && e.file == source.path) {
                    facts.env_vars.push(EnvVar {
                        name,
                        source: "prisma env()".into(),
                        file: source.path.to_owned(),
                    });
                }
            } else if let Some(name) = node("composite") {
                self.composites.push(at(name));
            } else if let Some(declaration) = node("enum") {
                let declared = enums.entry(declaration.start_byte()).or_insert_with(|| EnumType {
                    framework: "prisma".into(),
                    file: source.path.into(),
                    ..EnumType::default()
                });
                for capture in found.captures {
                    let value = at(capture.node);
                    match QUERY.capture_names()[capture.index as usize] {
                        "enum.name" if declared.name.is_empty() => declared.name = value.to_owned(),
                        "enum.map" => declared.name = string(value),
                        "enum.value" => declared.values.push(value.to_owned()),
                        _ => {}
                    }
                }
            } else if let Some(declaration) = node("model") {
                let model = models.entry(declaration.start_byte()).or_insert_with(|| Model {
                    file: source.path,
                    ..Model::default()
                });
                match node("field") {
                    Some(field) if !field.has_error() => {
                        model.fields.entry(field.start_byte()).or_default().add(found, at);
                    }
                    Some(_) => {}
                    None => model.add(found, at, &mut facts.unparsed),
                }
            }
        }
        for (start, model) in models {
            if !model.name.is_empty() && !unclosed.contains(&start) {
                self.models.push(model);
            }
        }
        facts.enums.extend(
            enums
                .into_iter()
                .filter(|(start, _)| !unclosed.contains(start))
                .map(|(_, e)| e),
        );
    }

    /// A model as a table: scalar fields are columns, relation fields foreign keys, `@@id`,
    /// `@@unique` and `@@index` keys and indexes.
    fn table_of(&self, model: &Model<'a>, indexes: &mut Vec<Index>) -> Table {
        let name = model.table();
        let mut table = Table {
            model: (name != model.name).then(|| model.name.to_owned()),
            name,
            schema: model.schema.clone(),
            origin: "model".into(),
            framework: Some("prisma".into()),
            file: model.file.into(),
            ..Table::default()
        };
        for field in model.fields.values() {
            if let Some(target) = self.model(field.type_name) {
                if let Some((fields, references)) = &field.relation {
                    table.foreign_keys.push(ForeignKey {
                        name: None,
                        columns: fields.iter().map(|f| model.column(f)).collect(),
                        references_table: target.qualified(),
                        references_columns: references.iter().map(|f| target.column(f)).collect(),
                    });
                }
                continue;
            }
            let column = model.column(field.name);
            if field.id {
                table.primary_key.push(column.clone());
            }
            table.columns.push(Column {
                field: (column != field.name).then(|| field.name.to_owned()),
                name: column,
                data_type: Some(match field.native {
                    Some(native) => format!("{} {native}", field.type_name),
                    None => field.type_name.to_owned(),
                }),
                nullable: Some(field.optional),
                primary_key: field.id,
                unique: field.unique,
            });
        }
        for (kind, fields, name) in &model.keys {
            let columns = fields.iter().map(|f| model.column(f)).collect();
            match *kind {
                "id" => table.primary_key = columns,
                kind => indexes.push(Index {
                    name: name.clone(),
                    table: model.qualified(),
                    columns,
                    unique: kind == "unique",
                    file: model.file.into(),
                }),
            }
        }
        table
    }

    /// The model (or view) a field's type names, unless a composite type has that name.
    fn model(&self, type_name: &str) -> Option<&Model<'a>> {
        if self.composites.contains(&type_name) {
            return None;
        }
        self.models.iter().rev().find(|model| model.name == type_name)
    }
}

impl<'a> Model<'a> {
    /// Takes a match on the model itself: its name (recording the statements of its block
    /// that did not parse), a block attribute.
    fn add(&mut self, found: &QueryMatch<'_, '_>, at: impl Fn(Node<'_>) -> &'a str, unparsed: &mut Vec<String>) {
        let node = |name| captured(found, name);
        if let (Some(name), Some(body)) = (node("model.name"), node("model.body")) {
            self.name = at(name);
            for statement in named_children(body).into_iter().filter(Node::has_error) {
                let line = statement.start_position().row + 1;
                unparsed.push(format!("{}:{line}: {}", self.file, at(statement)));
            }
        } else if let Some(arguments) = node("model.map") {
            self.table = first_string(arguments, &at);
        } else if let Some(arguments) = node("model.schema") {
            self.schema = first_string(arguments, &at);
        } else if let (Some(kind), Some(arguments)) = (node("model.key"), node("key.arguments")) {
            let listed = argument(arguments, None, &at).or_else(|| argument(arguments, Some("fields"), &at));
            let name = argument(arguments, Some("map"), &at).or_else(|| argument(arguments, Some("name"), &at));
            let name = name.and_then(|name| first_string(name, &at));
            self.keys
                .push((at(kind), listed.map(|l| names(l, &at)).unwrap_or_default(), name));
        }
    }

    /// The table name: `@@map`'s, or the model's own.
    fn table(&self) -> String {
        self.table.clone().unwrap_or_else(|| self.name.to_owned())
    }

    fn qualified(&self) -> String {
        qualified(&self.schema, &self.table())
    }

    /// The column a field is stored in (`@map`), the field's name when it is no field.
    fn column(&self, name: &str) -> String {
        let field = self.fields.values().find(|f| f.name == name);
        field.and_then(|f| f.column.clone()).unwrap_or_else(|| name.to_owned())
    }
}

impl<'a> Field<'a> {
    /// Takes a match on the field: its name and type, or one of its attributes.
    fn add(&mut self, found: &QueryMatch<'_, '_>, at: impl Fn(Node<'_>) -> &'a str) {
        for capture in found.captures {
            let node = capture.node;
            match QUERY.capture_names()[capture.index as usize] {
                "field.name" => self.name = at(node),
                "field.type" => self.type_name = at(node),
                "field.optional" => self.optional = true,
                "field.map" => self.column = first_string(node, &at),
                "field.key" if at(node) == "id" => self.id = true,
                "field.key" => self.unique = true,
                "field.native" if self.native.is_none() => self.native = Some(at(node)),
                "field.relation" => {
                    let listed = |key| {
                        argument(node, Some(key), &at)
                            .map(|l| names(l, &at))
                            .unwrap_or_default()
                    };
                    self.relation = Some((listed("fields"), listed("references")));
                }
                _ => {}
            }
        }
    }
}

/// The node a match captured as `name`.
fn captured<'t>(found: &QueryMatch<'_, 't>, name: &str) -> Option<Node<'t>> {
    let index = QUERY.capture_index_for_name(name)?;
    found.nodes_for_capture_index(index).next()
}

/// The argument named `key` (`fields: [a]`), or with no key the first one without a name.
fn argument<'t, 'a>(arguments: Node<'t>, key: Option<&str>, at: &impl Fn(Node<'_>) -> &'a str) -> Option<Node<'t>> {
    named_children(arguments).into_iter().find_map(|argument| {
        let named = (argument.kind() == "type_expression").then(|| named_children(argument));
        match (named.as_deref(), key) {
            (Some([name, value]), Some(key)) if at(*name) == key => Some(*value),
            (None, None) => Some(argument),
            _ => None,
        }
    })
}

/// The names in `[a, b(sort: Desc), c]` (or a lone name).
fn names<'a>(list: Node<'_>, at: &impl Fn(Node<'_>) -> &'a str) -> Vec<&'a str> {
    let items = match list.kind() {
        "array" => named_children(list),
        _ => vec![list],
    };
    let name = |item: Node<'_>| match item.kind() {
        "call_expression" => item.named_child(0).map(at),
        _ => Some(at(item)),
    };
    items.into_iter().filter_map(name).collect()
}

/// The first string inside `node` (`("users")`, `(name: "users")`), unescaped.
fn first_string<'a>(node: Node<'_>, at: &impl Fn(Node<'_>) -> &'a str) -> Option<String> {
    let mut found = None;
    walk(node, |node| match node.kind() {
        "string" => {
            found = Some(string(at(node)));
            Walk::Stop
        }
        _ => Walk::Enter,
    });
    found
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
