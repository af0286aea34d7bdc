//! Reading string values out of the tree: plain strings in every language, template literals,
//! f-strings and `+` concatenations with the file's own string constants substituted, and
//! the file's top-level string constants themselves.

use std::collections::HashMap;

use tree_sitter::Node;

use super::{Grammar, ParsedFile, named_children};
pub use crate::bridge::code_model::syntax::{PLACEHOLDER_CLOSE, PLACEHOLDER_OPEN};

/// How deep a concatenation (`A + "/x" + B`) is followed before the rest is kept as written.
const MAX_CONCAT_DEPTH: usize = 16;

/// A piece of a string: literal text or a substituted expression.
enum Part<'t> {
    Text(String),
    Expr(Node<'t>),
}

/// The pieces of a string, template literal or f-string; `None` if `node` is no string.
fn parts<'t>(file: &ParsedFile<'_>, node: Node<'t>) -> Option<Vec<Part<'t>>> {
    let mut out = Vec::new();
    match node.kind() {
        "template_string" => {
            for child in named_children(node) {
                match child.kind() {
                    "template_substitution" => out.push(Part::Expr(child.named_child(0)?)),
                    _ => push_text(file, child, &mut out),
                }
            }
        }
        // Python (f-strings included; byte strings are no paths)
        "string" if file.grammar == Grammar::Python => {
            let prefix = node.child(0).map(|start| file.text(start)).unwrap_or("");
            if prefix.contains(['b', 'B']) {
                return None;
            }
            let raw = prefix.contains(['r', 'R']);
            for child in named_children(node) {
                match child.kind() {
                    "interpolation" => out.push(Part::Expr(child.child_by_field_name("expression")?)),
                    "escape_sequence" if raw => out.push(Part::Text(file.text(child).to_owned())),
                    "escape_interpolation" => out.push(Part::Text(file.text(child)[..1].to_owned())),
                    _ => push_text(file, child, &mut out),
                }
            }
        }
        "concatenated_string" => {
            for child in named_children(node) {
                out.extend(parts(file, child)?);
            }
        }
        // JavaScript/TypeScript, Rust
        "string" | "string_literal" | "raw_string_literal" => {
            for child in named_children(node) {
                push_text(file, child, &mut out);
            }
        }
        _ => return None,
    }
    Some(out)
}

fn push_text(file: &ParsedFile<'_>, child: Node<'_>, out: &mut Vec<Part<'_>>) {
    match child.kind() {
        "string_fragment" | "string_content" => out.push(Part::Text(file.text(child).to_owned())),
        "escape_sequence" => out.push(Part::Text(unescape(file.text(child)))),
        _ => {}
    }
}

/// The character an escape sequence stands for; unknown escapes keep their text.
fn unescape(escape: &str) -> String {
    match escape {
        "\\n" => "\n".into(),
        "\\t" => "\t".into(),
        "\\r" => "\r".into(),
        "\\0" => "\0".into(),
        _ if escape.len() == 2 && escape.starts_with('\\') => escape[1..].into(),
        _ => escape.into(),
    }
}

/// A file's top-level string constants (`const API = '/api'`, `PREFIX = "/v1"`,
/// `const BASE: &str = "/api";`), used to fill in template literals and concatenations.
#[derive(Debug, Default, Clone)]
pub struct Constants(pub HashMap<String, String>);

impl Constants {
    /// The value of a named constant.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str)
    }

    /// A string expression with every piece resolved: literals, template literals, f-strings,
    /// `+` concatenations and names of this file's constants. `None` if any piece is unknown.
    pub fn resolve(&self, file: &ParsedFile<'_>, node: Node<'_>) -> Option<String> {
        let text = self.render(file, node, 0);
        (!text.unresolved).then_some(text.value)
    }

    /// Like [`Constants::resolve`], but a piece that cannot be resolved is kept as a
    /// placeholder (see [`PLACEHOLDER_OPEN`]); `None` if `node` is no string at all, unless
    /// it is a `prefix` (`prefix=…`, `url_prefix=…`: a value that can only be a path), where a
    /// bare name or attribute (`settings.API_V1_STR`) is a placeholder too.
    pub fn render_path(&self, file: &ParsedFile<'_>, node: Node<'_>, prefix: bool) -> Option<String> {
        let node = unwrap_parens(node);
        let text = self.render(file, node, 0);
        let named = prefix && matches!(node.kind(), "identifier" | "attribute" | "member_expression");
        (text.stringish || named).then_some(text.value)
    }

    fn render(&self, file: &ParsedFile<'_>, node: Node<'_>, depth: usize) -> Rendered {
        let node = unwrap_parens(node);
        if let Some(pieces) = parts(file, node) {
            let mut out = Rendered {
                stringish: true,
                ..Rendered::default()
            };
            for piece in pieces {
                match piece {
                    Part::Text(text) => out.value.push_str(&text),
                    Part::Expr(expr) if depth < MAX_CONCAT_DEPTH => out.push(self.render(file, expr, depth + 1)),
                    Part::Expr(expr) => out.push(Rendered::unknown(file, expr)),
                }
            }
            return out;
        }
        match node.kind() {
            "identifier" => match self.get(file.text(node)) {
                Some(value) => Rendered {
                    value: value.to_owned(),
                    stringish: true,
                    unresolved: false,
                },
                None => Rendered::unknown(file, node),
            },
            "binary_expression" | "binary_operator" if depth < MAX_CONCAT_DEPTH => {
                let operator = node.child_by_field_name("operator").map(|op| file.text(op));
                let (Some(left), Some(right)) = (node.child_by_field_name("left"), node.child_by_field_name("right"))
                else {
                    return Rendered::unknown(file, node);
                };
                if operator != Some("+") {
                    return Rendered::unknown(file, node);
                }
                let mut out = self.render(file, left, depth + 1);
                let right_side = self.render(file, right, depth + 1);
                out.stringish |= right_side.stringish;
                out.push(right_side);
                out
            }
            _ => Rendered::unknown(file, node),
        }
    }
}

/// A string being put together: its text so far, whether any piece was unknown, and whether
/// any piece was a string at all (a bare unknown name is no path).
#[derive(Default)]
struct Rendered {
    value: String,
    unresolved: bool,
    stringish: bool,
}

impl Rendered {
    fn unknown(file: &ParsedFile<'_>, node: Node<'_>) -> Rendered {
        let text: String = file
            .text(node)
            .chars()
            .filter(|c| !matches!(*c, PLACEHOLDER_OPEN | PLACEHOLDER_CLOSE))
            .collect();
        Rendered {
            value: format!("{PLACEHOLDER_OPEN}{text}{PLACEHOLDER_CLOSE}"),
            unresolved: true,
            stringish: false,
        }
    }

    fn push(&mut self, piece: Rendered) {
        self.value.push_str(&piece.value);
        self.unresolved |= piece.unresolved;
    }
}

/// `path` with each placeholder replaced by what `lookup` gives for its expression, or else
/// written the way the language of `file` writes a substitution (`{settings.API_V1_STR}` in
/// Python, `${config.prefix}` elsewhere).
pub fn fill_placeholders(path: &str, file: &str, lookup: impl Fn(&str) -> Option<String>) -> String {
    if !path.contains(PLACEHOLDER_OPEN) {
        return path.to_owned();
    }
    let python = Grammar::of_path(file) == Some(Grammar::Python);
    let mut out = String::with_capacity(path.len());
    let mut rest = path;
    while let Some((before, after)) = rest.split_once(PLACEHOLDER_OPEN) {
        out.push_str(before);
        let (expr, tail) = after.split_once(PLACEHOLDER_CLOSE).unwrap_or((after, ""));
        match lookup(expr) {
            Some(value) => out.push_str(&value),
            None if python => out.push_str(&format!("{{{expr}}}")),
            None => out.push_str(&format!("${{{expr}}}")),
        }
        rest = tail;
    }
    out.push_str(rest);
    out
}

/// The expressions of `path`'s placeholders, in order.
pub fn placeholders(path: &str) -> impl Iterator<Item = &str> {
    path.split(PLACEHOLDER_OPEN)
        .skip(1)
        .map(|piece| piece.split(PLACEHOLDER_CLOSE).next().unwrap_or(piece))
}

/// `(x)` → `x`, also for TypeScript's `x as const`.
pub fn unwrap_parens(mut node: Node<'_>) -> Node<'_> {
    for _ in 0..8 {
        match node.kind() {
            "parenthesized_expression" | "as_expression" | "satisfies_expression" | "non_null_expression" => {
                match node.named_child(0) {
                    Some(inner) => node = inner,
                    None => break,
                }
            }
            _ => break,
        }
    }
    node
}
