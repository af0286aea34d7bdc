//! The string constants a file offers other files, by dotted name: top-level constants
//! (`API_PREFIX = "/api"`), the string properties of top-level object literals
//! (`config.api.prefix`, `default.prefix` for `export default {…}` and `module.exports = {…}`),
//! and in Python the string attributes of top-level classes (`Settings.API_V1_STR`), also
//! through a module-level instance (`settings = Settings()` gives `settings.API_V1_STR`).
//! Linking fills route prefixes written in another file with them.

use std::collections::HashMap;

use tree_sitter::Node;

use crate::bridge::extract::syntax::literal::{Constants, unwrap_parens};
use crate::bridge::extract::syntax::python::{assignment, body_statements};
use crate::bridge::extract::syntax::{Lang, ParsedFile, named_children};

/// How deep object literals are flattened.
const MAX_OBJECT_DEPTH: usize = 4;

/// Most constants one file offers (a generated table must not fill memory).
const MAX_CONSTANTS: usize = 2_000;

/// A file's string constants by dotted name.
pub type Exported = HashMap<String, String>;

/// The constants `file` offers, with its own top-level `constants` among them.
pub fn exported(file: &ParsedFile<'_>, constants: &Constants) -> Exported {
    let mut out: Exported = constants
        .iter()
        .map(|(name, value)| (name.to_owned(), value.to_owned()))
        .collect();
    match file.lang {
        Lang::Python => python(file, constants, &mut out),
        Lang::Rust => {}
        _ => script(file, constants, &mut out),
    }
    out
}

fn script(file: &ParsedFile<'_>, constants: &Constants, out: &mut Exported) {
    for statement in named_children(file.root()) {
        if statement.has_error() {
            continue;
        }
        match statement.kind() {
            "export_statement" => {
                if let Some(declaration) = statement.child_by_field_name("declaration") {
                    declarators(file, constants, declaration, out);
                } else if let Some(value) = statement.child_by_field_name("value") {
                    object(file, constants, value, "default", 0, out);
                }
            }
            "lexical_declaration" | "variable_declaration" => declarators(file, constants, statement, out),
            "expression_statement" => {
                let Some(assignment) = statement
                    .named_child(0)
                    .filter(|node| node.kind() == "assignment_expression")
                else {
                    continue;
                };
                let (Some(left), Some(right)) = (
                    assignment.child_by_field_name("left"),
                    assignment.child_by_field_name("right"),
                ) else {
                    continue;
                };
                let target = file.text(left);
                if target == "module.exports" {
                    object(file, constants, right, "default", 0, out);
                } else if let Some(name) = target
                    .strip_prefix("module.exports.")
                    .or_else(|| target.strip_prefix("exports."))
                {
                    // `module.exports.autoPrefix = '/batch'` exports a named constant.
                    if let Some(value) = constants.resolve(file, right) {
                        insert(out, name.to_owned(), value);
                    }
                    object(file, constants, right, name, 0, out);
                }
            }
            _ => {}
        }
    }
}

fn declarators(file: &ParsedFile<'_>, constants: &Constants, declaration: Node<'_>, out: &mut Exported) {
    if !matches!(declaration.kind(), "lexical_declaration" | "variable_declaration") {
        return;
    }
    for declarator in named_children(declaration) {
        if let (Some(name), Some(value)) = (
            declarator.child_by_field_name("name"),
            declarator.child_by_field_name("value"),
        ) && name.kind() == "identifier"
        {
            object(file, constants, value, file.text(name), 0, out);
        }
    }
}

/// The string properties of an object literal under `prefix.`.
fn object(
    file: &ParsedFile<'_>,
    constants: &Constants,
    value: Node<'_>,
    prefix: &str,
    depth: usize,
    out: &mut Exported,
) {
    let value = unwrap_parens(value);
    if value.kind() != "object" || depth > MAX_OBJECT_DEPTH {
        return;
    }
    for entry in named_children(value) {
        if entry.kind() != "pair" {
            continue;
        }
        let (Some(key), Some(inner)) = (entry.child_by_field_name("key"), entry.child_by_field_name("value")) else {
            continue;
        };
        if key.kind() == "computed_property_name" {
            continue;
        }
        // A string key unquoted, any other as written.
        let key = match key.kind() {
            "string" => constants.resolve(file, key).unwrap_or_default(),
            _ => file.text(key).to_owned(),
        };
        let name = format!("{prefix}.{key}");
        if let Some(text) = constants.resolve(file, inner) {
            insert(out, name.clone(), text);
        }
        object(file, constants, inner, &name, depth + 1, out);
    }
}

fn python(file: &ParsedFile<'_>, constants: &Constants, out: &mut Exported) {
    let mut classes: HashMap<String, Vec<(String, String)>> = HashMap::new();
    let statements = named_children(file.root());
    for statement in &statements {
        if statement.kind() != "class_definition" || statement.has_error() {
            continue;
        }
        let Some(class) = file.field_text(*statement, "name") else {
            continue;
        };
        let mut attributes = Vec::new();
        for member in body_statements(*statement) {
            if let Some((name, _, Some(value))) = assignment(file, member)
                && let Some(text) = constants.resolve(file, value)
            {
                attributes.push((name, text));
            }
        }
        for (name, value) in &attributes {
            insert(out, format!("{class}.{name}"), value.clone());
        }
        classes.insert(class.to_owned(), attributes);
    }
    // `settings = Settings()`: the instance has the class's attributes.
    for statement in &statements {
        let Some((name, _, Some(value))) = assignment(file, *statement) else {
            continue;
        };
        if value.kind() != "call" {
            continue;
        }
        let Some(class) = value.child_by_field_name("function").map(|f| file.text(f)) else {
            continue;
        };
        for (attribute, text) in classes.get(class).into_iter().flatten() {
            insert(out, format!("{name}.{attribute}"), text.clone());
        }
    }
}

fn insert(out: &mut Exported, name: String, value: String) {
    if out.len() < MAX_CONSTANTS {
        out.insert(name, value);
    }
}
