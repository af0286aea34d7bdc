//! Python model classes that may be Pydantic models: every class with annotated fields and
//! its bases (linking keeps those whose bases reach `BaseModel`, and reads `BaseSettings`
//! classes as environment variables).

use tree_sitter::Node;

use super::{Base, PendingShape};
use crate::bridge::extract::syntax::literal::string;
use crate::bridge::extract::syntax::python::{assignment, bases, body_statements, keyword};
use crate::bridge::extract::syntax::{Fields, NodeIndex, ParsedFile};
use crate::bridge::facts::{Field, Shape};

/// Annotations that are no model fields.
const NOT_FIELDS: &[&str] = &["ClassVar", "Mapped", "InitVar"];

/// Reads the candidate model classes of one Python file into `out`.
pub fn scan(file: &ParsedFile<'_>, index: &NodeIndex<'_>, out: &mut Vec<PendingShape>) {
    index.each(&["class_definition"], |node| {
        if node.kind() != "class_definition" {
            return;
        }
        let Some(name) = file.field_text(node, "name") else {
            return;
        };
        let class_bases = bases(file, node);
        if class_bases.is_empty() || table_model(file, node) {
            return;
        }
        let mut fields = Vec::new();
        let mut env_prefix = None;
        for statement in body_statements(node) {
            if statement.kind() == "class_definition" && file.field_text(statement, "name") == Some("Config") {
                env_prefix = env_prefix.or_else(|| config_prefix(file, statement));
            }
            let Some((field, annotation, value)) = assignment(file, statement) else {
                continue;
            };
            if field == "model_config" {
                env_prefix = env_prefix.or_else(|| {
                    value
                        .and_then(|v| keyword(file, v, "env_prefix"))
                        .and_then(|p| string(file, p))
                });
                continue;
            }
            let Some(annotation) = annotation else { continue };
            let data_type = file.text(annotation);
            if field.starts_with('_') || NOT_FIELDS.iter().any(|not| data_type.starts_with(not)) {
                continue;
            }
            let optional = value.is_some_and(|value| !required_default(file, value)) || optional_type(data_type);
            fields.push(Field {
                name: field,
                data_type: Some(data_type.to_owned()),
                optional,
            });
        }
        // A class that adds no fields (`class ItemCreate(ItemBase): pass`) is still a model
        // when its bases are: linking decides by the bases.
        out.push(PendingShape {
            shape: Shape {
                name: name.to_owned(),
                kind: String::new(),
                fields,
                file: file.path.to_owned(),
            },
            bases: class_bases.into_iter().map(Base::all).collect(),
            env_prefix,
            validation: None,
        });
    });
}

/// `class Hero(SQLModel, table=True)` is a table, not a shape.
fn table_model(file: &ParsedFile<'_>, class: Node<'_>) -> bool {
    class.field("superclasses").is_some_and(|superclasses| {
        crate::bridge::extract::syntax::named_children(superclasses)
            .into_iter()
            .any(|arg| {
                arg.kind() == "keyword_argument"
                    && file.field_text(arg, "name") == Some("table")
                    && file.field_text(arg, "value") == Some("True")
            })
    })
}

/// `Field(...)` or `Field(default=…)`: `...` as the default means required.
fn required_default(file: &ParsedFile<'_>, value: Node<'_>) -> bool {
    let text = file.text(value);
    if text == "..." {
        return true;
    }
    if value.kind() == "call" && file.field_text(value, "function").is_some_and(|f| f.ends_with("Field")) {
        let has_default =
            keyword(file, value, "default").is_some() || keyword(file, value, "default_factory").is_some();
        let first_is_default = crate::bridge::extract::syntax::python::positional(value)
            .first()
            .is_some_and(|first| file.text(*first) != "...");
        return !has_default && !first_is_default;
    }
    false
}

fn optional_type(annotation: &str) -> bool {
    annotation.starts_with("Optional[") || annotation.contains("| None") || annotation.contains("None |")
}

/// `class Config: env_prefix = "APP_"` (pydantic v1 settings).
fn config_prefix(file: &ParsedFile<'_>, config: Node<'_>) -> Option<String> {
    body_statements(config).into_iter().find_map(|statement| {
        let (name, _, value) = assignment(file, statement)?;
        (name == "env_prefix").then(|| string(file, value?)).flatten()
    })
}
