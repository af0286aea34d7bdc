//! TanStack Router: `export const Route = createFileRoute('/_auth/invoices/$invoiceId')({
//! component: InvoicePage })` (and `createLazyFileRoute`, `createRootRoute`,
//! `createRoute({ path, component })`): the route's URL (pathless `_layout` segments and
//! `(groups)` left out, `posts_` un-nested) and its page component, which the file often does
//! not export.

use tree_sitter::Node;

use crate::bridge::extract::syntax::literal::{Constants, string, unwrap_parens};
use crate::bridge::extract::syntax::script::{arguments, property};
use crate::bridge::extract::syntax::{Fields, ParsedFile, named_children};
use crate::bridge::facts::Route;

/// Calls whose result, called with options, is a file route.
const FILE_ROUTES: &[&str] = &["createFileRoute", "createLazyFileRoute"];

/// Calls that take a route's options directly.
const CODE_ROUTES: &[&str] = &[
    "createRoute",
    "createRootRoute",
    "createRootRouteWithContext",
    "createLazyRoute",
];

/// Options that name components.
const COMPONENT_OPTIONS: &[&str] = &["component", "pendingComponent", "errorComponent", "notFoundComponent"];

/// A route declaration of the file: its id as written (`None` for the root) and its options.
struct Declared<'t> {
    id: Option<String>,
    options: Node<'t>,
}

/// The route declarations of a file's top-level statements.
fn declared<'t>(file: &'t ParsedFile<'_>, constants: Option<&Constants>) -> Vec<Declared<'t>> {
    let mut out = Vec::new();
    for statement in named_children(file.root()) {
        let declaration = match statement.kind() {
            "export_statement" => statement.field("declaration").unwrap_or(statement),
            _ => statement,
        };
        if !matches!(declaration.kind(), "lexical_declaration" | "variable_declaration") {
            continue;
        }
        for declarator in named_children(declaration) {
            if let Some(value) = declarator.field("value")
                && let Some(found) = route_call(file, constants, unwrap_parens(value))
            {
                out.push(found);
            }
        }
    }
    out
}

/// `createFileRoute('/x')({…})`, `createRootRoute({…})`, `createRootRouteWithContext<C>()({…})`,
/// `createRoute({ path: 'x', … })`.
fn route_call<'t>(file: &'t ParsedFile<'_>, constants: Option<&Constants>, call: Node<'t>) -> Option<Declared<'t>> {
    if call.kind() != "call_expression" {
        return None;
    }
    let function = call.field("function")?;
    let options = *arguments(call).first()?;
    let name_of = |node: Node<'_>| {
        let node = if node.kind() == "generic_type" || node.kind() == "instantiation_expression" {
            node.named_child(0).unwrap_or(node)
        } else {
            node
        };
        file.text(node).to_owned()
    };
    if function.kind() == "call_expression" {
        let inner = name_of(function.field("function")?);
        if FILE_ROUTES.contains(&inner.as_str()) {
            let id = arguments(function).first().and_then(|a| string(file, *a));
            return Some(Declared { id: Some(id?), options });
        }
        if inner == "createRootRouteWithContext" {
            return Some(Declared { id: None, options });
        }
        return None;
    }
    let callee = name_of(function);
    if !CODE_ROUTES.contains(&callee.as_str()) {
        return None;
    }
    let id = property(file, options, "path").and_then(|p| match constants {
        Some(constants) => constants.resolve(file, p),
        None => string(file, p),
    });
    Some(Declared {
        id: id.map(|path| format!("/{}", path.trim_start_matches('/'))),
        options,
    })
}

/// Reads the TanStack Router routes of one file into `out`.
pub fn scan(file: &ParsedFile<'_>, constants: &Constants, out: &mut Vec<Route>) {
    for route in declared(file, Some(constants)) {
        let Some(id) = route.id else { continue };
        // A pathless layout (`/_auth`) wraps the routes under it; it is no page of its own.
        if !id.ends_with('/') && id.rsplit('/').next().is_some_and(|last| last.starts_with('_')) {
            continue;
        }
        let component = property(file, route.options, "component")
            .filter(|c| c.kind() == "identifier")
            .map(|c| file.text(c).to_owned());
        out.push(Route {
            path: url(&id),
            component,
            framework: "tanstack-router".into(),
            file: file.path.to_owned(),
        });
    }
}

/// The component names a file's routes are rendered with (`component: InvoicePage`).
pub fn route_components(file: &ParsedFile<'_>) -> Vec<String> {
    let mut out = Vec::new();
    for route in declared(file, None) {
        for option in COMPONENT_OPTIONS {
            if let Some(value) = property(file, route.options, option).filter(|v| v.kind() == "identifier") {
                out.push(file.text(value).to_owned());
            }
        }
    }
    out
}

/// A route id as the URL it serves: `/_auth/invoices/$invoiceId` → `/invoices/$invoiceId`,
/// `/posts_/$postId/edit` → `/posts/$postId/edit`, `/(app)/settings/` → `/settings`.
pub fn url(id: &str) -> String {
    let segments: Vec<&str> = id
        .split('/')
        .filter(|segment| !segment.is_empty())
        .filter(|segment| !(segment.starts_with('_') || (segment.starts_with('(') && segment.ends_with(')'))))
        .map(|segment| segment.strip_suffix('_').unwrap_or(segment))
        .collect();
    format!("/{}", segments.join("/"))
}

#[cfg(test)]
mod tests {
    use super::url;

    #[test]
    fn route_ids_become_urls() {
        assert_eq!(url("/_auth/invoices/$invoiceId"), "/invoices/$invoiceId");
        assert_eq!(url("/_auth/invoices/"), "/invoices");
        assert_eq!(url("/posts_/$postId/edit"), "/posts/$postId/edit");
        assert_eq!(url("/(app)/settings"), "/settings");
        assert_eq!(url("/"), "/");
        assert_eq!(url("/files/$"), "/files/$");
    }
}
