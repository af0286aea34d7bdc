//! Python tree helpers: a definition's body, assignments, dotted names.

use tree_sitter::Node;

use super::{ParsedFile, named_children};

/// The statements of a class or function body.
pub fn body_statements<'t>(definition: Node<'t>) -> Vec<Node<'t>> {
    definition
        .child_by_field_name("body")
        .map(named_children)
        .unwrap_or_default()
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
    let left = assignment.child_by_field_name("left")?;
    if left.kind() != "identifier" {
        return None;
    }
    Some((
        file.text(left).to_owned(),
        assignment.child_by_field_name("type"),
        assignment.child_by_field_name("right"),
    ))
}

/// The last segment of a dotted name (`models.CharField` → `CharField`).
pub fn last_segment(text: &str) -> &str {
    text.rsplit('.').next().unwrap_or(text)
}
