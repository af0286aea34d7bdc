//! JavaScript/TypeScript tree helpers: call arguments, object properties, decorators,
//! identifiers' roots.

use tree_sitter::Node;

use super::literal::unwrap_parens;
use super::{Fields, ParsedFile, named_children};

/// The arguments of a call or `new` expression (comments left out).
pub fn arguments<'t>(call: Node<'t>) -> Vec<Node<'t>> {
    call.field("arguments").map(named_children).unwrap_or_default()
}

/// The value of property `key` in an object literal (`{ key: value }`, `{ key }`, `{ 'key': v }`).
pub fn property<'t>(file: &ParsedFile<'_>, object: Node<'t>, key: &str) -> Option<Node<'t>> {
    let object = unwrap_parens(object);
    if object.kind() != "object" {
        return None;
    }
    named_children(object).into_iter().find_map(|entry| match entry.kind() {
        "pair" => {
            let name = entry.field("key")?;
            (property_name(file, name) == key)
                .then(|| entry.field("value"))
                .flatten()
        }
        "shorthand_property_identifier" if file.text(entry) == key => Some(entry),
        _ => None,
    })
}

/// The keys of an object literal, in order (`{ a: 1, b, c() {}, 'd-e': 2 }` → a, b, c, d-e);
/// computed keys are left out.
pub fn keys(file: &ParsedFile<'_>, object: Node<'_>) -> Vec<String> {
    let object = unwrap_parens(object);
    if object.kind() != "object" {
        return Vec::new();
    }
    named_children(object)
        .into_iter()
        .filter_map(|entry| match entry.kind() {
            "pair" | "method_definition" => {
                let key = entry.field("key").or_else(|| entry.field("name"))?;
                // A computed key (`[api.reducerPath]`) has no name of its own.
                (key.kind() != "computed_property_name").then(|| property_name(file, key))
            }
            "shorthand_property_identifier" => Some(file.text(entry).to_owned()),
            _ => None,
        })
        .collect()
}

/// A property key as a name: identifiers as written, string keys unquoted.
pub fn property_name(file: &ParsedFile<'_>, key: Node<'_>) -> String {
    match key.kind() {
        "string" => super::literal::string(file, key).unwrap_or_default(),
        _ => file.text(key).to_owned(),
    }
}

/// The name a decorator calls: `@Get(':id')` → `Get`, `@nest.Get()` → `Get`, `@Injectable` → `Injectable`.
pub fn decorator_name<'a>(file: &ParsedFile<'a>, decorator: Node<'_>) -> Option<&'a str> {
    let inner = decorator.named_child(0)?;
    let callee = if inner.kind() == "call_expression" {
        inner.field("function")?
    } else {
        inner
    };
    let text = file.text(callee);
    Some(text.rsplit('.').next().unwrap_or(text))
}

/// The arguments of a decorator call (`@Column({ … })`); empty for a bare `@Column`.
pub fn decorator_arguments<'t>(decorator: Node<'t>) -> Vec<Node<'t>> {
    match decorator.named_child(0) {
        Some(call) if call.kind() == "call_expression" => arguments(call),
        _ => Vec::new(),
    }
}

/// The decorators written on a class member or class: its `decorator` children, and for an
/// exported class those on the `export` statement around it.
pub fn decorators<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut out: Vec<Node<'t>> = named_children(node)
        .into_iter()
        .filter(|c| c.kind() == "decorator")
        .collect();
    if let Some(parent) = node.parent().filter(|parent| parent.kind() == "export_statement") {
        out.extend(named_children(parent).into_iter().filter(|c| c.kind() == "decorator"));
    }
    out
}

/// The text of a type annotation without its `:` (`: Promise<User>` → `Promise<User>`).
pub fn annotation_text<'a>(file: &ParsedFile<'a>, annotation: Node<'_>) -> &'a str {
    let text = file.text(annotation);
    text.trim_start_matches([':', '?']).trim()
}

/// `Promise<X>`, `Observable<X>` → `X`; other types as written.
pub fn unwrap_async_type(text: &str) -> &str {
    for wrapper in ["Promise<", "Observable<"] {
        if let Some(inner) = text.strip_prefix(wrapper).and_then(|rest| rest.strip_suffix('>')) {
            return inner.trim();
        }
    }
    text
}

/// True for a name written like a component or class (`UserList`).
pub fn is_pascal_case(name: &str) -> bool {
    name.chars().next().is_some_and(|first| first.is_ascii_uppercase())
}

/// The members of a class body with the decorators written above each (TypeScript puts a
/// method's decorators before it in the body, a field's inside it).
pub fn class_members<'t>(body: Node<'t>) -> Vec<(Vec<Node<'t>>, Node<'t>)> {
    let mut out = Vec::new();
    let mut pending = Vec::new();
    for child in named_children(body) {
        if child.kind() == "decorator" {
            pending.push(child);
            continue;
        }
        let mut decorators = std::mem::take(&mut pending);
        decorators.extend(named_children(child).into_iter().filter(|c| c.kind() == "decorator"));
        out.push((decorators, child));
    }
    out
}

/// How many calls of one member chain are read.
const MAX_CHAIN: usize = 256;

/// One `.name(args)` call of a member chain.
pub struct ChainCall<'t> {
    pub name: String,
    pub args: Vec<Node<'t>>,
}

/// `base.a(x).b(y)` → `base` and the calls in source order; `base` is the innermost object
/// that is no method call (`z.object({…}).partial()` → `z.object({…})` is itself a call on `z`,
/// so the base is `z` with calls `object`, `partial`).
pub fn member_chain<'t>(file: &ParsedFile<'_>, node: Node<'t>) -> (Node<'t>, Vec<ChainCall<'t>>) {
    let mut calls = Vec::new();
    let mut current = unwrap_parens(node);
    while calls.len() < MAX_CHAIN && current.kind() == "call_expression" {
        let Some(function) = current.field("function").filter(|f| f.kind() == "member_expression") else {
            break;
        };
        let (Some(object), Some(property)) = (function.field("object"), function.field("property")) else {
            break;
        };
        calls.push(ChainCall {
            name: file.text(property).to_owned(),
            args: arguments(current),
        });
        current = unwrap_parens(object);
    }
    calls.reverse();
    (current, calls)
}

/// The `const name = value` declarators at the top level of a script file (exported or not,
/// cleanly parsed), as `(name, value)` in order.
pub fn top_level_bindings<'t>(file: &'t ParsedFile<'_>) -> Vec<(&'t str, Node<'t>)> {
    let mut out = Vec::new();
    for statement in named_children(file.root()) {
        let declaration = match statement.kind() {
            "export_statement" => statement.field("declaration"),
            "lexical_declaration" | "variable_declaration" => Some(statement),
            _ => None,
        };
        let Some(declaration) = declaration.filter(|d| !d.has_error()) else {
            continue;
        };
        if !matches!(declaration.kind(), "lexical_declaration" | "variable_declaration") {
            continue;
        }
        for declarator in named_children(declaration) {
            if let (Some(name), Some(value)) = (file.field_text(declarator, "name"), declarator.field("value")) {
                out.push((name, value));
            }
        }
    }
    out
}
