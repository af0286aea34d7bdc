//! SQLAlchemy, Flask-SQLAlchemy and SQLModel models: declarative classes and their
//! `Column(…)`, 2.0 `Mapped[…] = mapped_column(…)` and SQLModel `name: T = Field(…)`
//! attributes, `ForeignKey`s and `foreign_key="t.id"`, `__table_args__` schemas; the table
//! name from `__tablename__`, else the framework's default (Flask-SQLAlchemy's `db.Model`:
//! the class name in snake case; SQLModel's `table=True`: the class name in lower case);
//! mixins, `__abstract__` and SQLModel's non-table classes as the parents whose columns
//! their subclasses get; and classic `Table("name", metadata, Column(…))` tables. The
//! column reading is shared with Alembic's operations ([`column_of`]).

use tree_sitter::Node;

use super::{ModelRef, PendingKey, PendingTable, snake_case};
use crate::bridge::extract::syntax::literal::string;
use crate::bridge::extract::syntax::python::{
    assignment, bases, body_statements, keyword, keyword_is_true, last_segment, positional,
};
use crate::bridge::extract::syntax::{Fields, NodeIndex, ParsedFile, named_children};
use crate::bridge::facts::{Column, ForeignKey, Index, Table};

/// Reads the SQLAlchemy tables of one file into `out`.
pub fn scan(file: &ParsedFile<'_>, index: &NodeIndex<'_>, out: &mut Vec<PendingTable>) {
    let sqlmodel = file.text.contains("sqlmodel");
    index.each(&["class_definition", "call"], |node| match node.kind() {
        "class_definition" => {
            if let Some(table) = declarative(file, node, sqlmodel) {
                out.push(table);
            }
        }
        "call" if callee(file, node) == Some("Table") => {
            if let Some(table) = classic(file, node) {
                out.push(table);
            }
        }
        _ => {}
    });
}

/// The last segment of a call's function: `sa.Column(…)` → `Column`.
pub fn callee<'a>(file: &ParsedFile<'a>, call: Node<'_>) -> Option<&'a str> {
    (call.kind() == "call")
        .then(|| file.field_text(call, "function"))
        .flatten()
        .map(last_segment)
}

fn new_table(file: &ParsedFile<'_>, name: String, model: Option<&str>, framework: &str) -> PendingTable {
    PendingTable {
        table: Table {
            name,
            model: model.map(str::to_owned),
            origin: "model".into(),
            framework: Some(framework.into()),
            file: file.path.to_owned(),
            ..Table::default()
        },
        ..PendingTable::default()
    }
}

/// A model class (or a mixin or abstract parent, whose columns its subclasses get).
fn declarative(file: &ParsedFile<'_>, class: Node<'_>, sqlmodel_file: bool) -> Option<PendingTable> {
    let class_name = file.field_text(class, "name")?;
    let class_bases: Vec<String> = bases(file, class).into_iter().map(str::to_owned).collect();
    let table_flag = class
        .field("superclasses")
        .map(named_children)
        .unwrap_or_default()
        .into_iter()
        .any(|arg| {
            arg.kind() == "keyword_argument"
                && file.field_text(arg, "name") == Some("table")
                && file.field_text(arg, "value") == Some("True")
        });
    let sqlmodel = table_flag || class_bases.iter().any(|b| last_segment(b) == "SQLModel");
    let fields_by_annotation = sqlmodel || (sqlmodel_file && !class_bases.is_empty());
    let statements = body_statements(class);
    let parts: Vec<_> = statements.iter().filter_map(|s| assignment(file, *s)).collect();
    let explicit = parts
        .iter()
        .find(|(name, _, _)| name == "__tablename__")
        .and_then(|(_, _, v)| string(file, (*v)?));
    let marked_abstract = parts
        .iter()
        .any(|(name, _, v)| name == "__abstract__" && v.is_some_and(|v| file.text(v) == "True"));
    let flask_model = class_bases
        .iter()
        .any(|b| b.ends_with(".Model") && !b.starts_with("models."));
    let name = explicit.or_else(|| {
        if table_flag {
            Some(class_name.to_lowercase())
        } else if flask_model {
            Some(snake_case(class_name))
        } else {
            None
        }
    });
    let framework = if sqlmodel { "sqlmodel" } else { "sqlalchemy" };
    let mut pending = new_table(file, name.clone().unwrap_or_default(), Some(class_name), framework);
    pending.bases = class_bases;
    pending.is_abstract = marked_abstract || name.is_none();
    for (attribute, annotation, value) in &parts {
        match attribute.as_str() {
            "__table_args__" => pending.table.schema = value.and_then(|args| table_schema(file, args)),
            name if name.starts_with("__") => {}
            name => {
                let annotation = annotation.map(|a| file.text(a));
                let call = value.filter(|v| v.kind() == "call");
                match (call.and_then(|c| callee(file, c)), annotation.and_then(mapped_inner)) {
                    (Some("Column" | "mapped_column"), mapped) => add(file, &mut pending, name, call, mapped),
                    (None, Some(mapped)) if value.is_none() => add(file, &mut pending, name, None, Some(mapped)),
                    (Some("Field"), _) if fields_by_annotation => {
                        field(file, &mut pending, name, call, annotation.unwrap_or(""));
                    }
                    (None, None) if fields_by_annotation && annotation.is_some_and(is_field_type) => {
                        field(file, &mut pending, name, None, annotation.unwrap_or(""));
                    }
                    _ => {}
                }
            }
        }
    }
    let has_columns = !pending.table.columns.is_empty();
    (has_columns || !pending.is_abstract).then_some(pending)
}

/// An annotation SQLModel makes a column of (not a class variable or a relationship list).
fn is_field_type(annotation: &str) -> bool {
    !(annotation.starts_with("ClassVar") || annotation.starts_with("list[") || annotation.starts_with("List["))
}

/// `users = Table("users", metadata, Column("id", Integer, primary_key=True), …, schema="x")`.
fn classic(file: &ParsedFile<'_>, call: Node<'_>) -> Option<PendingTable> {
    let args = positional(call);
    let name = string(file, *args.first()?)?;
    if !args.iter().skip(1).any(|arg| callee(file, *arg) == Some("Column")) {
        return None;
    }
    let mut pending = new_table(file, name, None, "sqlalchemy");
    pending.table.schema = keyword(file, call, "schema").and_then(|s| string(file, s));
    for arg in args.into_iter().filter(|arg| callee(file, *arg) == Some("Column")) {
        if let Some(column_name) = positional(arg).first().and_then(|n| string(file, *n)) {
            add(file, &mut pending, &column_name, Some(arg), None);
        }
    }
    Some(pending)
}

/// `Mapped[Optional[str]]`, `so.Mapped[int]` → `Optional[str]`, `int`; relationships'
/// `WriteOnlyMapped`/`DynamicMapped` are no columns.
fn mapped_inner(annotation: &str) -> Option<&str> {
    let (head, rest) = annotation.split_once('[')?;
    (last_segment(head) == "Mapped").then(|| rest.strip_suffix(']').map(str::trim))?
}

fn optional_type(text: &str) -> bool {
    text.starts_with("Optional[") || text.contains("| None") || text.contains("None |")
}

/// `Optional[int]`, `int | None` → `int`.
fn without_none(text: &str) -> String {
    let text = text.trim();
    if let Some(inner) = text.strip_prefix("Optional[").and_then(|t| t.strip_suffix(']')) {
        return inner.trim().to_owned();
    }
    let parts: Vec<&str> = text.split('|').map(str::trim).filter(|p| *p != "None").collect();
    parts.join(" | ")
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

/// What a `Column(…)`/`mapped_column(…)` call declares: the column, the foreign keys it
/// names (a table or `model:Class`, and the column), and whether it asks for an index.
pub struct Declared {
    pub column: Column,
    pub keys: Vec<(String, Option<String>)>,
    pub index: bool,
}

/// Reads one `Column(…)`/`mapped_column(…)` (or a bare `Mapped[…]` annotation, `call` none)
/// for the attribute `attribute`.
pub fn column_of(file: &ParsedFile<'_>, attribute: &str, call: Option<Node<'_>>, mapped: Option<&str>) -> Declared {
    let mut data_type = mapped.map(without_none);
    let mut name = attribute.to_owned();
    let mut keys = Vec::new();
    if let Some(call) = call {
        for (at, arg) in positional(call).into_iter().enumerate() {
            match arg.kind() {
                "string" if at == 0 => name = string(file, arg).unwrap_or(name),
                "call" if callee(file, arg) == Some("ForeignKey") => {
                    keys.extend(positional(arg).first().map(|target| reference(file, *target)));
                }
                "call" | "identifier" | "attribute" => data_type = Some(type_text(file.text(arg))),
                _ => {}
            }
        }
        if let Some(explicit) = keyword(file, call, "name").and_then(|n| string(file, n)) {
            name = explicit;
        }
        if let Some(explicit) = keyword(file, call, "type_") {
            data_type = Some(type_text(file.text(explicit)));
        }
    }
    let flag = |key: &str| call.and_then(|c| keyword(file, c, key)).map(|v| file.text(v) == "True");
    let primary_key = flag("primary_key").unwrap_or(false);
    let nullable = flag("nullable").unwrap_or(match mapped {
        Some(mapped) => optional_type(mapped),
        None => !primary_key,
    });
    Declared {
        column: Column {
            field: (!attribute.is_empty() && name != attribute).then(|| attribute.to_owned()),
            name,
            data_type,
            nullable: Some(nullable && !primary_key),
            primary_key,
            unique: flag("unique") == Some(true),
        },
        keys,
        index: flag("index") == Some(true),
    }
}

/// Adds a column from `Column(…)`/`mapped_column(…)` to the table.
fn add(
    file: &ParsedFile<'_>,
    pending: &mut PendingTable,
    attribute: &str,
    call: Option<Node<'_>>,
    mapped: Option<&str>,
) {
    let declared = column_of(file, attribute, call, mapped);
    push(file, pending, declared);
}

/// SQLModel's `name: T = Field(…)` (or a plain `name: T`): the annotation gives the type and
/// nullability, `Field` the keys (`foreign_key="team.id"`), `sa_column=Column(…)` all of it.
fn field(file: &ParsedFile<'_>, pending: &mut PendingTable, attribute: &str, call: Option<Node<'_>>, annotation: &str) {
    if let Some(column) = call
        .and_then(|c| keyword(file, c, "sa_column"))
        .filter(|c| callee(file, *c) == Some("Column"))
    {
        return add(file, pending, attribute, Some(column), None);
    }
    let flag = |key: &str| call.map(|c| keyword_is_true(file, c, key)).unwrap_or(false);
    let primary_key = flag("primary_key");
    let explicit_null = call
        .and_then(|c| keyword(file, c, "nullable"))
        .map(|v| file.text(v) == "True");
    let keys = call
        .and_then(|c| keyword(file, c, "foreign_key"))
        .and_then(|k| string(file, k))
        .map(|target| match target.rsplit_once('.') {
            Some((table, column)) => (table.to_owned(), Some(column.to_owned())),
            None => (target, None),
        })
        .into_iter()
        .collect();
    let declared = Declared {
        column: Column {
            name: attribute.to_owned(),
            data_type: Some(without_none(annotation)),
            nullable: Some(!primary_key && explicit_null.unwrap_or(optional_type(annotation))),
            primary_key,
            unique: flag("unique"),
            ..Column::default()
        },
        keys,
        index: flag("index"),
    };
    push(file, pending, declared);
}

fn push(file: &ParsedFile<'_>, pending: &mut PendingTable, declared: Declared) {
    let Declared { column, keys, index } = declared;
    if column.primary_key {
        pending.table.primary_key.push(column.name.clone());
    }
    if index {
        pending.indexes.push(Index {
            name: None,
            table: pending.table.name.clone(),
            columns: vec![column.name.clone()],
            unique: column.unique,
            file: file.path.to_owned(),
        });
    }
    for (target, referenced) in keys {
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
            columns: vec![column.name.clone()],
            references_table: target.strip_prefix("model:").unwrap_or(&target).to_owned(),
            references_columns: referenced.into_iter().collect(),
        });
    }
    pending.table.columns.push(column);
}

/// `ForeignKey("billing.users.id")` → (`billing.users`, `id`); `ForeignKey(User.id)` → the model.
fn reference(file: &ParsedFile<'_>, target: Node<'_>) -> (String, Option<String>) {
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

/// `sa.String(255)`, `db.Integer`, `sa.Integer()` → `String(255)`, `Integer`, `Integer`.
pub fn type_text(text: &str) -> String {
    let text = text.strip_suffix("()").unwrap_or(text);
    let head = text.split('(').next().unwrap_or(text);
    match head.rsplit_once('.') {
        Some((module, _)) => text[module.len() + 1..].to_owned(),
        None => text.to_owned(),
    }
}
