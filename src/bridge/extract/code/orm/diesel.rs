//! Diesel schemas: `table! { schema.name (pk) { column -> Type, … } }` read from the macro's
//! token tree (`#[sql_name]` renames, `Nullable<…>` columns), and `joinable!(child -> parent (fk))`
//! foreign keys.

use tree_sitter::Node;

use super::{ModelRef, PendingKey, PendingTable};
use crate::bridge::extract::syntax::literal::string;
use crate::bridge::extract::syntax::rust::last_segment;
use crate::bridge::extract::syntax::{NodeIndex, ParsedFile};
use crate::bridge::facts::{Column, ForeignKey, Table};

/// Reads the `table!` and `joinable!` invocations of one file into `out`.
pub fn scan(file: &ParsedFile<'_>, index: &NodeIndex<'_>, out: &mut Vec<PendingTable>) {
    let first = out.len();
    let mut joins = Vec::new();
    index.each(&["macro_invocation"], |node| {
        if node.kind() != "macro_invocation" {
            return;
        }
        let Some(tokens) = token_tree(node) else { return };
        match file.field_text(node, "macro").map(last_segment) {
            Some("table") => out.extend(table(file, tokens)),
            Some("joinable") => joins.extend(joinable(file, tokens)),
            _ => {}
        }
    });
    for (child, parent, column) in joins {
        let Some(pending) = out[first..]
            .iter_mut()
            .find(|p| p.table.model.as_ref().unwrap_or(&p.table.name) == &child)
        else {
            continue;
        };
        pending.targets.push(PendingKey {
            at: pending.table.foreign_keys.len(),
            target: ModelRef::Class(parent.clone()),
            fallback: parent.clone(),
        });
        pending.table.foreign_keys.push(ForeignKey {
            name: None,
            columns: vec![column],
            references_table: parent,
            ..ForeignKey::default()
        });
    }
}

fn token_tree(node: Node<'_>) -> Option<Node<'_>> {
    (0..node.named_child_count())
        .filter_map(|at| node.named_child(at as u32))
        .find(|child| child.kind() == "token_tree")
}

/// The tokens inside a token tree (its delimiters and comments left out).
fn tokens(tree: Node<'_>) -> Vec<Node<'_>> {
    let count = tree.child_count();
    (1..count.saturating_sub(1))
        .filter_map(|at| tree.child(at as u32))
        .filter(|token| !matches!(token.kind(), "line_comment" | "block_comment"))
        .collect()
}

/// The opening delimiter of a token tree: `(`, `[` or `{`.
fn delimiter<'a>(file: &ParsedFile<'a>, tree: Node<'_>) -> &'a str {
    tree.child(0).map(|open| file.text(open)).unwrap_or_default()
}

/// `#[sql_name = "x"]` → `x`.
fn sql_name(file: &ParsedFile<'_>, attribute: Node<'_>) -> Option<String> {
    let inner = tokens(attribute);
    (inner.first().map(|t| file.text(*t)) == Some("sql_name"))
        .then(|| inner.last().and_then(|v| string(file, *v)))
        .flatten()
}

fn table(file: &ParsedFile<'_>, tree: Node<'_>) -> Option<PendingTable> {
    let tokens = tokens(tree);
    let mut at = 0;
    let mut renamed = None;
    let mut names = Vec::new();
    let mut primary_key = Vec::new();
    let mut columns = None;
    while at < tokens.len() {
        let token = tokens[at];
        match token.kind() {
            "use" => {
                while at < tokens.len() && tokens[at].kind() != ";" {
                    at += 1;
                }
            }
            "#" => {
                if let Some(attribute) = tokens.get(at + 1) {
                    renamed = sql_name(file, *attribute).or(renamed);
                    at += 1;
                }
            }
            "identifier" => names.push(file.text(token).to_owned()),
            "token_tree" if delimiter(file, token) == "(" => {
                primary_key = self::tokens(token)
                    .into_iter()
                    .filter(|t| t.kind() == "identifier")
                    .map(|t| file.text(t).to_owned())
                    .collect();
            }
            "token_tree" if delimiter(file, token) == "{" => {
                columns = Some(token);
                break;
            }
            _ => {}
        }
        at += 1;
    }
    let rust_name = names.pop()?;
    let columns = self::columns(file, columns?);
    let primary_key = if primary_key.is_empty() {
        vec!["id".to_owned()]
    } else {
        primary_key
    };
    let name = renamed.unwrap_or_else(|| rust_name.clone());
    let columns = columns
        .into_iter()
        .map(|column| Column {
            primary_key: primary_key.contains(&column.name),
            ..column
        })
        .collect();
    Some(PendingTable {
        table: Table {
            model: (name != rust_name).then_some(rust_name),
            name,
            schema: names.pop(),
            columns,
            primary_key,
            origin: "model".into(),
            framework: Some("diesel".into()),
            file: file.path.to_owned(),
            ..Table::default()
        },
        ..PendingTable::default()
    })
}

/// `name -> Type,` entries, with `#[sql_name = "…"]` renames and `Nullable<…>` read.
fn columns(file: &ParsedFile<'_>, tree: Node<'_>) -> Vec<Column> {
    let tokens = tokens(tree);
    let mut out = Vec::new();
    let mut at = 0;
    let mut renamed = None;
    while at < tokens.len() {
        let token = tokens[at];
        if token.kind() == "#" {
            if let Some(attribute) = tokens.get(at + 1) {
                renamed = sql_name(file, *attribute).or(renamed);
            }
            at += 2;
            continue;
        }
        let arrow = tokens.get(at + 1).map(|t| t.kind());
        if token.kind() != "identifier" || arrow != Some("->") {
            at += 1;
            continue;
        }
        let field = file.text(token).to_owned();
        let mut kind = String::new();
        let mut depth = 0i32;
        at += 2;
        while let Some(part) = tokens.get(at) {
            let text = file.text(*part);
            match text {
                "," if depth <= 0 => break,
                "<" => depth += 1,
                ">" => depth -= 1,
                ">>" => depth -= 2,
                _ => {}
            }
            kind.push_str(text);
            at += 1;
        }
        at += 1;
        let (data_type, nullable) = match kind.strip_prefix("Nullable<").and_then(|inner| inner.strip_suffix('>')) {
            Some(inner) => (inner.to_owned(), true),
            None => (kind, false),
        };
        let name = renamed.take().unwrap_or_else(|| field.clone());
        out.push(Column {
            field: (name != field).then_some(field),
            name,
            data_type: Some(data_type),
            nullable: Some(nullable),
            ..Column::default()
        });
    }
    out
}

/// `joinable!(posts -> users (author_id))` → (posts, users, author_id).
fn joinable(file: &ParsedFile<'_>, tree: Node<'_>) -> Option<(String, String, String)> {
    let tokens = tokens(tree);
    let identifiers: Vec<&str> = tokens
        .iter()
        .filter(|t| t.kind() == "identifier")
        .map(|t| file.text(*t))
        .collect();
    let key = tokens.iter().find(|t| t.kind() == "token_tree")?;
    let column = self::tokens(*key).into_iter().find(|t| t.kind() == "identifier")?;
    match identifiers.as_slice() {
        [child, parent, ..] => Some((child.to_string(), parent.to_string(), file.text(column).to_owned())),
        _ => None,
    }
}
