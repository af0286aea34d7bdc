//! SQLAlchemy (and Flask-SQLAlchemy) models: declarative classes with `__tablename__`, their
//! `Column(…)` attributes and 2.0 `Mapped[…] = mapped_column(…)` ones, `ForeignKey`s,
//! `__table_args__` schemas; and classic `Table("name", metadata, Column(…))` tables.

use tree_sitter::Node;

use super::{ModelRef, PendingKey, PendingTable};
use crate::bridge::extract::syntax::literal::string;
use crate::bridge::extract::syntax::python::{assignment, body_statements, keyword, last_segment, positional};
use crate::bridge::extract::syntax::{Fields, NodeIndex, ParsedFile, named_children};
use crate::bridge::facts::{Column, ForeignKey, Index, Table};

/// Reads the SQLAlchemy tables of one file into `out`.
pub fn scan(file: &ParsedFile<'_>, index: &NodeIndex<'_>, out: &mut Vec<PendingTable>) {
    index.each(&["class_definition", "call"], |node| match node.kind() {
        "class_definition" => {
            if let Some(table) = declarative(file, node) {
                out.push(table);
            }
        }
        "call"
            if file
                .field_text(node, "function")
                .is_some_and(|f| last_segment(f) == "Table") =>
        {
            if let Some(table) = classic(file, node) {
                out.push(table);
            }
        }
        _ => {}
    });
}

fn new_table(file: &ParsedFile<'_>, name: String, model: Option<&str>) -> PendingTable {
    PendingTable {
        table: Table {
            name,
            model: model.map(str::to_owned),
            origin: "model".into(),
            framework: Some("sqlalchemy".into()),
            file: file.path.to_owned(),
            ..Table::default()
        },
        ..PendingTable::default()
    }
}

/// `class User(Base): __tablename__ = "users"` and its column attributes.
fn declarative(file: &ParsedFile<'_>, class: Node<'_>) -> Option<PendingTable> {
    let statements = body_statements(class);
    let parts: Vec<_> = statements.iter().filter_map(|s| assignment(file, *s)).collect();
    let name = parts
        .iter()
        .find(|(name, _, _)| name == "__tablename__")
        .and_then(|(_, _, v)| string(file, (*v)?))?;
    let mut pending = new_table(file, name, file.field_text(class, "name"));
    for (attribute, annotation, value) in &parts {
        match attribute.as_str() {
            "__table_args__" => pending.table.schema = value.and_then(|args| table_schema(file, args)),
            name if name.starts_with("__") => {}
            name => {
                let mapped = annotation.map(|a| file.text(a)).and_then(mapped_inner);
                let call = value.filter(|v| v.kind() == "call");
                let callee = call.and_then(|c| file.field_text(c, "function")).map(last_segment);
                match (callee, mapped) {
                    (Some("Column" | "mapped_column"), _) => add_column(file, &mut pending, name, call, mapped),
                    (None, Some(_)) if value.is_none() => add_column(file, &mut pending, name, None, mapped),
                    _ => {}
                }
            }
        }
    }
    Some(pending)
}

/// `users = Table("users", metadata, Column("id", Integer, primary_key=True), …, schema="x")`.
fn classic(file: &ParsedFile<'_>, call: Node<'_>) -> Option<PendingTable> {
    let args = positional(call);
    let name = string(file, *args.first()?)?;
    if !args.iter().skip(1).any(|arg| is_column_call(file, *arg)) {
        return None;
    }
    let mut pending = new_table(file, name, None);
    pending.table.schema = keyword(file, call, "schema").and_then(|s| string(file, s));
    for arg in args.into_iter().filter(|arg| is_column_call(file, *arg)) {
        let Some(column_name) = positional(arg).first().and_then(|n| string(file, *n)) else {
            continue;
        };
        add_column(file, &mut pending, &column_name, Some(arg), None);
    }
    Some(pending)
}

fn is_column_call(file: &ParsedFile<'_>, node: Node<'_>) -> bool {
    node.kind() == "call"
        && file
            .field_text(node, "function")
            .is_some_and(|f| last_segment(f) == "Column")
}

/// `Mapped[Optional[str]]` → `Optional[str]`.
fn mapped_inner(annotation: &str) -> Option<&str> {
    annotation.strip_prefix("Mapped[")?.strip_suffix(']').map(str::trim)
}

fn optional_type(text: &str) -> bool {
    text.starts_with("Optional[") || text.contains("| None") || text.contains("None |")
}

/// `{"schema": "billing"}` or a tuple ending in one.
fn table_schema(file: &ParsedFile<'_>, args: Node<'_>) -> Option<String> {
    let dictionary = match args.kind() {
        "dictionary" => args,
        "tuple" => named_children(args)
            .into_iter()
            .rev()
            .find(|item| item.kind() == "dictionary")?,
        _ => return None,
    };
    named_children(dictionary).into_iter().find_map(|pair| {
        let key = string(file, pair.field("key")?)?;
        (key == "schema").then(|| string(file, pair.field("value")?)).flatten()
    })
}

/// One column from `Column(…)`/`mapped_column(…)` (or a bare `Mapped[…]` annotation).
fn add_column(
    file: &ParsedFile<'_>,
    pending: &mut PendingTable,
    attribute: &str,
    call: Option<Node<'_>>,
    mapped: Option<&str>,
) {
    let mut data_type = mapped.map(|m| m.trim_start_matches("Optional[").trim_end_matches(']').to_owned());
    let mut name = attribute.to_owned();
    let mut keys = Vec::new();
    if let Some(call) = call {
        for (at, arg) in positional(call).into_iter().enumerate() {
            match arg.kind() {
                "string" if at == 0 => name = string(file, arg).unwrap_or(name),
                "call"
                    if file
                        .field_text(arg, "function")
                        .is_some_and(|f| last_segment(f) == "ForeignKey") =>
                {
                    keys.extend(positional(arg).first().map(|target| file_reference(file, *target)));
                }
                "call" | "identifier" | "attribute" => data_type = Some(type_text(file.text(arg))),
                _ => {}
            }
        }
        if let Some(explicit) = keyword(file, call, "name").and_then(|n| string(file, n)) {
            name = explicit;
        }
    }
    let flag = |key: &str| call.and_then(|c| keyword(file, c, key)).map(|v| file.text(v) == "True");
    let primary_key = flag("primary_key").unwrap_or(false);
    let nullable = flag("nullable").unwrap_or(match mapped {
        Some(mapped) => optional_type(mapped),
        None => !primary_key,
    });
    if primary_key {
        pending.table.primary_key.push(name.clone());
    }
    if flag("index") == Some(true) {
        pending.indexes.push(Index {
            name: None,
            table: pending.table.name.clone(),
            columns: vec![name.clone()],
            unique: flag("unique") == Some(true),
            file: file.path.to_owned(),
        });
    }
    for key in keys {
        let (target, referenced) = key;
        let at = pending.table.foreign_keys.len();
        if let Some(model) = target.strip_prefix("model:") {
            pending.targets.push(PendingKey {
                at,
                target: ModelRef::Class(model.to_owned()),
                fallback: model.to_owned(),
            });
        }
        pending.table.foreign_keys.push(ForeignKey {
            name: None,
            columns: vec![name.clone()],
            references_table: target.strip_prefix("model:").unwrap_or(&target).to_owned(),
            references_columns: referenced.into_iter().collect(),
        });
    }
    pending.table.columns.push(Column {
        field: (name != attribute).then(|| attribute.to_owned()),
        name,
        data_type,
        nullable: Some(nullable && !primary_key),
        primary_key,
        unique: flag("unique") == Some(true),
    });
}

/// `ForeignKey("billing.users.id")` → (`billing.users`, `id`); `ForeignKey(User.id)` → the model.
fn file_reference(file: &ParsedFile<'_>, target: Node<'_>) -> (String, Option<String>) {
    match string(file, target) {
        Some(text) => match text.rsplit_once('.') {
            Some((table, column)) => (table.to_owned(), Some(column.to_owned())),
            None => (text, None),
        },
        None => match file.text(target).rsplit_once('.') {
            Some((model, column)) => (format!("model:{model}"), Some(column.to_owned())),
            None => (format!("model:{}", file.text(target)), None),
        },
    }
}

/// `sa.String(255)`, `db.Integer` → `String(255)`, `Integer`.
fn type_text(text: &str) -> String {
    let head = text.split('(').next().unwrap_or(text);
    match head.rsplit_once('.') {
        Some((module, _)) => text[module.len() + 1..].to_owned(),
        None => text.to_owned(),
    }
}
