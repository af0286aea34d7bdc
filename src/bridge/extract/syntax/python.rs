//! Python tree helpers: call arguments by position and keyword, decorators, class bases.

use tree_sitter::Node;

use super::{Fields, ParsedFile, named_children};

/// The positional arguments of a call (keyword and splat arguments left out).
pub fn positional<'t>(call: Node<'t>) -> Vec<Node<'t>> {
    call.field("arguments")
        .map(named_children)
        .unwrap_or_default()
        .into_iter()
        .filter(|arg| {
            !matches!(
                arg.kind(),
                "keyword_argument" | "list_splat" | "dictionary_splat" | "comment" | "parenthesized_list_splat"
            )
        })
        .collect()
}

/// The value of keyword argument `name` in a call.
pub fn keyword<'t>(file: &ParsedFile<'_>, call: Node<'t>, name: &str) -> Option<Node<'t>> {
    let arguments = call.field("arguments")?;
    named_children(arguments).into_iter().find_map(|arg| {
        (arg.kind() == "keyword_argument" && file.field_text(arg, "name") == Some(name))
            .then(|| arg.field("value"))
            .flatten()
    })
}

/// The decorators of a `decorated_definition` and the definition itself.
pub fn decorated<'t>(node: Node<'t>) -> Option<(Vec<Node<'t>>, Node<'t>)> {
    if node.kind() != "decorated_definition" {
        return None;
    }
    let definition = node.field("definition")?;
    let decorators = named_children(node)
        .into_iter()
        .filter(|child| child.kind() == "decorator")
        .collect();
    Some((decorators, definition))
}

/// The base classes of a class definition as written (`models.Model`, `BaseModel`), keywords left out.
pub fn bases<'a>(file: &ParsedFile<'a>, class: Node<'_>) -> Vec<&'a str> {
    let Some(superclasses) = class.field("superclasses") else {
        return Vec::new();
    };
    named_children(superclasses)
        .into_iter()
        .filter(|base| base.kind() != "keyword_argument")
        .map(|base| file.text(base))
        .collect()
}

/// The statements of a class or function body.
pub fn body_statements<'t>(definition: Node<'t>) -> Vec<Node<'t>> {
    definition.field("body").map(named_children).unwrap_or_default()
}

/// An `x = value` or `x: T = value` statement's parts: target name, annotation, value.
pub fn assignment<'t>(
    file: &ParsedFile<'_>,
    statement: Node<'t>,
) -> Option<(String, Option<Node<'t>>, Option<Node<'t>>)> {
    let assignment = if statement.kind() == "expression_statement" {
        statement.named_child(0)?
    } else {
        statement
    };
    if assignment.kind() != "assignment" {
        return None;
    }
    let left = assignment.field("left")?;
    if left.kind() != "identifier" {
        return None;
    }
    Some((
        file.text(left).to_owned(),
        assignment.field("type"),
        assignment.field("right"),
    ))
}

/// The last segment of a dotted name (`models.CharField` → `CharField`).
pub fn last_segment(text: &str) -> &str {
    text.rsplit('.').next().unwrap_or(text)
}
