//! Rust tree helpers: method-call chains (`Router::new().route(…).nest(…)`), call paths,
//! `let` bindings of a function body, attribute arguments, and `Json<T>` types.

use tree_sitter::Node;

use super::{Fields, ParsedFile, Walk, named_children, walk};

/// How many method calls of one chain are read.
const MAX_CHAIN: usize = 512;

/// How deep a type is searched for `Json<…>`.
const MAX_TYPE_NODES: usize = 256;

/// One `.name(args)` call of a chain.
pub struct ChainCall<'t> {
    pub name: String,
    pub args: Vec<Node<'t>>,
}

/// `base.a(x).b(y)?.await` → base and the calls in source order; `.await` and `?` are skipped.
pub fn chain<'t>(file: &ParsedFile<'_>, node: Node<'t>) -> (Node<'t>, Vec<ChainCall<'t>>) {
    let mut calls = Vec::new();
    let mut current = node;
    while calls.len() < MAX_CHAIN {
        match current.kind() {
            "await_expression" | "try_expression" | "parenthesized_expression" | "reference_expression" => {
                match current.named_child(0) {
                    Some(inner) => current = inner,
                    None => break,
                }
            }
            "call_expression" => {
                let Some(function) = current.field("function").filter(|f| f.kind() == "field_expression") else {
                    break;
                };
                let (Some(value), Some(field)) = (function.field("value"), function.field("field")) else {
                    break;
                };
                let args = current.field("arguments").map(named_children).unwrap_or_default();
                calls.push(ChainCall {
                    name: file.text(field).to_owned(),
                    args,
                });
                current = value;
            }
            _ => break,
        }
    }
    calls.reverse();
    (current, calls)
}

/// The path a plain call calls: `Router::new()` → `Router::new`, `users::routes(state)` →
/// `users::routes`, `get(handler)` → `get`; `None` for method calls and closures.
pub fn call_path<'a>(file: &ParsedFile<'a>, call: Node<'_>) -> Option<&'a str> {
    if call.kind() != "call_expression" {
        return None;
    }
    let function = call.field("function")?;
    match function.kind() {
        "identifier" | "scoped_identifier" => Some(file.text(function)),
        "generic_function" => function.field("function").map(|inner| file.text(inner)),
        _ => None,
    }
}

/// The last segment of a path (`axum::routing::get` → `get`, `Router::<S>::new` → `new`).
pub fn last_segment(path: &str) -> &str {
    path.rsplit("::").next().unwrap_or(path).trim()
}

/// The `let` bindings of a function body: name, value, and where the `let` ends.
pub struct Bindings<'t> {
    lets: Vec<(String, Node<'t>, usize)>,
}

impl<'t> Bindings<'t> {
    /// Reads the `let name = value;` statements in `body` (nested blocks too).
    pub fn of(file: &ParsedFile<'_>, body: Node<'t>) -> Bindings<'t> {
        let mut lets = Vec::new();
        walk(body, |node| {
            if node.kind() == "let_declaration" {
                if let (Some(pattern), Some(value)) = (node.field("pattern"), node.field("value")) {
                    let pattern = if pattern.kind() == "mut_pattern" {
                        pattern.named_child(0).unwrap_or(pattern)
                    } else {
                        pattern
                    };
                    if pattern.kind() == "identifier" {
                        lets.push((file.text(pattern).to_owned(), value, node.end_byte()));
                    }
                }
                return Walk::Skip;
            }
            if matches!(node.kind(), "function_item" | "closure_expression") && node != body {
                return Walk::Skip;
            }
            Walk::Enter
        });
        Bindings { lets }
    }

    /// The value last bound to `name` by a `let` that ended before byte `at`.
    pub fn value(&self, name: &str, at: usize) -> Option<Node<'t>> {
        self.lets
            .iter()
            .rev()
            .find(|(have, _, end)| have == name && *end <= at)
            .map(|(_, value, _)| *value)
    }
}

/// The string literal arguments of an attribute (`#[get("/x")]` → `["/x"]`) and its
/// `key = "value"` pairs (`method = "GET"`).
pub fn attribute_arguments(file: &ParsedFile<'_>, attribute: Node<'_>) -> (Vec<String>, Vec<(String, String)>) {
    let mut positional = Vec::new();
    let mut pairs = Vec::new();
    let Some(tokens) = attribute.field("arguments") else {
        return (positional, pairs);
    };
    let children: Vec<Node<'_>> = (0..tokens.child_count())
        .filter_map(|at| tokens.child(at as u32))
        .collect();
    // A keyword used as a key (`#[serde(default)]`) is an unnamed token of its own kind.
    let word = |token: Node<'_>| {
        token.kind() == "identifier"
            || (!token.is_named() && token.kind().chars().all(|c| c.is_ascii_lowercase() || c == '_'))
    };
    let mut at = 0;
    while at < children.len() {
        let token = children[at];
        let next_is_eq = children.get(at + 1).is_some_and(|next| next.kind() == "=");
        if word(token) && next_is_eq {
            if let Some(value) = children.get(at + 2) {
                let text = super::literal::string(file, *value).unwrap_or_else(|| file.text(*value).to_owned());
                pairs.push((file.text(token).to_owned(), text));
            }
            at += 3;
            continue;
        }
        if let Some(text) = super::literal::string(file, token) {
            positional.push(text);
        } else if word(token) {
            pairs.push((file.text(token).to_owned(), String::new()));
        }
        at += 1;
    }
    (positional, pairs)
}

/// The attributes written on an item: the `attribute_item`s right before it.
pub fn attributes_before<'t>(item: Node<'t>) -> Vec<Node<'t>> {
    let mut out = Vec::new();
    let mut previous = item.prev_named_sibling();
    while let Some(node) = previous {
        match node.kind() {
            "attribute_item" => {
                if let Some(attribute) = node.named_child(0) {
                    out.push(attribute);
                }
            }
            "line_comment" | "block_comment" => {}
            _ => break,
        }
        previous = node.prev_named_sibling();
    }
    out.reverse();
    out
}

/// The name an attribute is called by (`sea_orm`, `get`, `actix_web::main` → `main`).
pub fn attribute_name<'a>(file: &ParsedFile<'a>, attribute: Node<'_>) -> &'a str {
    let name = attribute.named_child(0).map(|path| file.text(path)).unwrap_or_default();
    last_segment(name)
}

/// The type inside the first `Json<…>` (or `web::Json<…>`) in a type: `Result<Json<User>, E>` → `User`.
pub fn json_inner(file: &ParsedFile<'_>, type_node: Node<'_>) -> Option<String> {
    let mut found = None;
    let mut budget = MAX_TYPE_NODES;
    walk(type_node, |node| {
        budget = budget.saturating_sub(1);
        if budget == 0 {
            return Walk::Stop;
        }
        if node.kind() == "generic_type"
            && node
                .field("type")
                .is_some_and(|name| last_segment(file.text(name)) == "Json")
            && let Some(arguments) = node.field("type_arguments")
        {
            let text = file.text(arguments);
            let inner = text
                .strip_prefix('<')
                .and_then(|rest| rest.strip_suffix('>'))
                .unwrap_or(text);
            found = Some(inner.trim().to_owned());
            return Walk::Stop;
        }
        Walk::Enter
    });
    found
}

/// The `Json<T>` a handler takes (its request shape) and returns (its response shape).
pub fn handler_shapes(file: &ParsedFile<'_>, function: Node<'_>) -> (Option<String>, Option<String>) {
    let request = function
        .field("parameters")
        .map(named_children)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|parameter| parameter.field("type"))
        .find_map(|kind| json_inner(file, kind));
    let response = function.field("return_type").and_then(|kind| json_inner(file, kind));
    (request, response)
}

/// The handler an argument names (`list`, `users::list`); none for any other expression.
pub fn handler_name(file: &ParsedFile<'_>, node: Node<'_>) -> Option<String> {
    matches!(node.kind(), "identifier" | "scoped_identifier").then(|| file.text(node).to_owned())
}
