//! Service classes and their public methods: exported TypeScript classes named `…Service`,
//! Python classes named `…Service`, Rust `impl …Service` blocks (their `pub fn`s) and
//! `trait …Service` definitions.

use tree_sitter::Node;

use crate::bridge::extract::syntax::{Fields, Lang, NodeIndex, ParsedFile, named_children};
use crate::bridge::facts::Service;

/// Reads the service classes of one file into `out`; impl blocks of one type are merged.
pub fn scan(file: &ParsedFile<'_>, index: &NodeIndex<'_>, out: &mut Vec<Service>) {
    let mut found: Vec<Service> = Vec::new();
    index.each(
        &["class_declaration", "class_definition", "impl_item", "trait_item"],
        |node| {
            let service = match (file.lang, node.kind()) {
                (Lang::TypeScript | Lang::Tsx | Lang::JavaScript, "class_declaration") => script_class(file, node),
                (Lang::Python, "class_definition") => python_class(file, node),
                (Lang::Rust, "impl_item" | "trait_item") => rust_impl(file, node),
                _ => None,
            };
            let Some(service) = service else { return };
            match found.iter_mut().find(|have| have.name == service.name) {
                Some(have) => have.methods.extend(service.methods),
                None => found.push(service),
            }
        },
    );
    out.extend(found);
}

fn is_service(name: &str) -> bool {
    name.len() > "Service".len() && name.ends_with("Service")
}

fn service(file: &ParsedFile<'_>, name: &str, methods: Vec<String>) -> Service {
    Service {
        name: name.to_owned(),
        methods,
        file: file.path.to_owned(),
    }
}

/// `export class UsersService { … }`: methods that are not private, protected, `#private` or accessors.
fn script_class(file: &ParsedFile<'_>, class: Node<'_>) -> Option<Service> {
    let name = file.field_text(class, "name")?;
    let exported = class.parent().is_some_and(|parent| parent.kind() == "export_statement");
    if !exported || !is_service(name) {
        return None;
    }
    let body = class.field("body")?;
    let methods = named_children(body)
        .into_iter()
        .filter(|member| member.kind() == "method_definition")
        .filter(|member| {
            !(0..member.child_count())
                .filter_map(|at| member.child(at as u32))
                .any(|child| {
                    matches!(child.kind(), "get" | "set")
                        || child.kind() == "accessibility_modifier" && file.text(child) != "public"
                })
        })
        .filter_map(|member| member.field("name"))
        .filter(|name| name.kind() == "property_identifier")
        .map(|name| file.text(name).to_owned())
        .filter(|name| name != "constructor")
        .collect();
    Some(service(file, name, methods))
}

/// `class UserService:` with its methods not starting with `_`.
fn python_class(file: &ParsedFile<'_>, class: Node<'_>) -> Option<Service> {
    let name = file.field_text(class, "name")?;
    if !is_service(name) {
        return None;
    }
    let body = class.field("body")?;
    let methods = named_children(body)
        .into_iter()
        .map(|statement| match statement.kind() {
            "decorated_definition" => statement.field("definition").unwrap_or(statement),
            _ => statement,
        })
        .filter(|statement| statement.kind() == "function_definition")
        .filter_map(|function| file.field_text(function, "name"))
        .filter(|method| !method.starts_with('_'))
        .map(str::to_owned)
        .collect();
    Some(service(file, name, methods))
}

/// `impl UserService { pub fn … }` (inherent impls only) and `trait UserService { fn … }`.
fn rust_impl(file: &ParsedFile<'_>, item: Node<'_>) -> Option<Service> {
    let is_trait = item.kind() == "trait_item";
    if !is_trait && item.field("trait").is_some() {
        return None;
    }
    let name_node = item.field(if is_trait { "name" } else { "type" })?;
    let name = file.text(name_node).split('<').next().unwrap_or_default();
    if !is_service(name) {
        return None;
    }
    let body = item.field("body")?;
    let methods = named_children(body)
        .into_iter()
        .filter(|member| matches!(member.kind(), "function_item" | "function_signature_item"))
        .filter(|member| {
            is_trait
                || named_children(*member)
                    .iter()
                    .any(|c| c.kind() == "visibility_modifier")
        })
        .filter_map(|member| file.field_text(member, "name"))
        .map(str::to_owned)
        .collect();
    Some(service(file, name, methods))
}
