//! SQLAlchemy `Column(…)` calls as Alembic's operations write them: `sa.Column("id",
//! sa.Integer(), sa.ForeignKey("users.id"), nullable=False, primary_key=True)`.

use tree_sitter::Node;

use crate::bridge::extract::syntax::literal::string;
use crate::bridge::extract::syntax::python::{keyword, last_segment, positional};
use crate::bridge::extract::syntax::ParsedFile;
use crate::bridge::facts::{Column, ForeignKey};
use crate::bridge::rules::python_types::unqualified;

/// The last segment of a call's function: `sa.Column(…)` → `Column`.
pub fn callee<'a>(file: &ParsedFile<'a>, call: Node<'_>) -> Option<&'a str> {
    (call.kind() == "call")
        .then(|| file.field_text(call, "function"))
        .flatten()
        .map(last_segment)
}

/// What a `Column(…)` call declares: the column and the foreign keys it names.
pub struct Declared {
    pub column: Column,
    pub keys: Vec<ForeignKey>,
}

/// Reads one `Column(…)` call.
pub fn column_of(file: &ParsedFile<'_>, call: Node<'_>) -> Declared {
    let mut data_type = None;
    let mut name = String::new();
    let mut targets = Vec::new();
    for (at, arg) in positional(call).into_iter().enumerate() {
        match arg.kind() {
            "string" if at == 0 => name = string(file, arg).unwrap_or(name),
            "call" if callee(file, arg) == Some("ForeignKey") => {
                targets.extend(positional(arg).first().map(|target| reference(file, *target)));
            }
            "call" | "identifier" | "attribute" => data_type = Some(unqualified(file.text(arg))),
            _ => {}
        }
    }
    if let Some(explicit) = keyword(file, call, "name").and_then(|n| string(file, n)) {
        name = explicit;
    }
    if let Some(explicit) = keyword(file, call, "type_") {
        data_type = Some(unqualified(file.text(explicit)));
    }
    let flag = |key: &str| keyword(file, call, key).map(|v| file.text(v) == "True");
    let primary_key = flag("primary_key").unwrap_or(false);
    let nullable = flag("nullable").unwrap_or(!primary_key);
    let keys = targets
        .into_iter()
        .map(|(table, referenced)| ForeignKey {
            name: None,
            columns: vec![name.clone()],
            references_table: table,
            references_columns: referenced.into_iter().collect(),
        })
        .collect();
    Declared {
        column: Column {
            name,
            data_type,
            nullable: Some(nullable && !primary_key),
            primary_key,
            unique: flag("unique") == Some(true),
            field: None,
        },
        keys,
    }
}

/// `ForeignKey("billing.users.id")` → (`billing.users`, `id`); `ForeignKey(User.id)` → (`User`, `id`).
fn reference(file: &ParsedFile<'_>, target: Node<'_>) -> (String, Option<String>) {
    let text = string(file, target).unwrap_or_else(|| file.text(target).to_owned());
    match text.rsplit_once('.') {
        Some((table, column)) => (table.to_owned(), Some(column.to_owned())),
        None => (text, None),
    }
}
