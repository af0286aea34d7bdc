//! Exported UI components: function, arrow, class and default exports that render JSX,
//! `memo`/`forwardRef`-wrapped ones, `export { A as B }`, and re-exports through index files
//! (`export { Button } from './Button'`, `export * from './Button'`, resolved when linking).

use std::collections::HashMap;

use tree_sitter::Node;

use crate::bridge::extract::syntax::literal::{string, unwrap_parens};
use crate::bridge::extract::syntax::script::{arguments, is_pascal_case};
use crate::bridge::extract::syntax::{Fields, ParsedFile, Walk, named_children, walk};
use crate::bridge::facts::Component;

/// Most nodes of one function searched for JSX.
const MAX_JSX_SEARCH: usize = 20_000;

/// Wrappers whose result is a component (`memo(Foo)`, `React.forwardRef((props, ref) => …)`).
const WRAPPERS: &[&str] = &["memo", "forwardRef", "observer"];

/// How many wrappers deep a component is looked for (`memo(forwardRef(…))`).
const MAX_WRAPPERS: usize = 4;

/// What one file exports as components, the sources it re-exports everything from, and the
/// names it re-exports one by one (components only if their files say so, see `ui::re_exports`).
#[derive(Debug, Default)]
pub struct ComponentScan {
    pub components: Vec<Component>,
    pub star_sources: Vec<String>,
    pub re_exports: Vec<ReExport>,
}

/// `export { Button as PrimaryButton } from './Button'`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ReExport {
    /// The name this file exports.
    pub exported: String,
    /// The name the source exports (`default` for `export { default as X }`).
    pub name: String,
    pub source: String,
}

/// Reads the exported components of one script file.
pub fn scan(file: &ParsedFile<'_>) -> ComponentScan {
    let mut local: HashMap<String, String> = HashMap::new();
    let statements = named_children(file.root());
    for statement in &statements {
        if statement.has_error() {
            continue;
        }
        let declaration = match statement.kind() {
            "export_statement" => statement.field("declaration"),
            _ => Some(*statement),
        };
        if let Some(declaration) = declaration {
            for (name, kind) in declared_components(file, declaration) {
                local.insert(name, kind);
            }
        }
    }
    let mut out = ComponentScan::default();
    let mut re_exports = Vec::new();
    let mut push = |name: String, kind: &str| {
        if !out.components.iter().any(|c| c.name == name) {
            out.components.push(Component {
                name,
                kind: kind.to_owned(),
                file: file.path.to_owned(),
            });
        }
    };
    for statement in statements
        .iter()
        .filter(|s| s.kind() == "export_statement" && !s.has_error() && !type_only(**s))
    {
        let source = statement.field("source").and_then(|s| string(file, s));
        let is_default = (0..statement.child_count())
            .filter_map(|at| statement.child(at as u32))
            .any(|child| child.kind() == "default");
        if let Some(declaration) = statement.field("declaration") {
            for (name, kind) in declared_components(file, declaration) {
                push(name, if is_default { "default" } else { &kind });
            }
            if is_default && file.field_text(declaration, "name").is_none() && renders(declaration) {
                push(file_component_name(file.path), "default");
            }
        } else if let Some(value) = statement.field("value") {
            default_value(file, value, &local, &mut push);
        } else if let Some(clause) = named_children(*statement)
            .into_iter()
            .find(|c| c.kind() == "export_clause")
        {
            for specifier in named_children(clause)
                .into_iter()
                .filter(|s| s.kind() == "export_specifier" && !type_only(*s))
            {
                let Some(name) = file.field_text(specifier, "name") else {
                    continue;
                };
                let exported = file.field_text(specifier, "alias").unwrap_or(name);
                match (&source, local.get(name)) {
                    (Some(source), _) if is_pascal_case(exported) => re_exports.push(ReExport {
                        exported: exported.to_owned(),
                        name: name.to_owned(),
                        source: source.clone(),
                    }),
                    (None, Some(kind)) => push(exported.to_owned(), kind),
                    _ => {}
                }
            }
        } else if let Some(source) = source
            && !named_children(*statement)
                .iter()
                .any(|c| c.kind() == "namespace_export")
        {
            out.star_sources.push(source);
        }
    }
    // TanStack Router's page components are rendered by the route, often without an export.
    for name in super::tanstack::route_components(file) {
        if let Some(kind) = local.get(&name)
            && !out.components.iter().any(|c| c.name == name)
        {
            out.components.push(Component {
                name,
                kind: kind.clone(),
                file: file.path.to_owned(),
            });
        }
    }
    out.re_exports = re_exports;
    out
}

/// `export type { Props } from './x'`, `export { type Props }`: types, not components.
fn type_only(node: Node<'_>) -> bool {
    (0..node.child_count())
        .filter_map(|at| node.child(at as u32))
        .any(|child| !child.is_named() && child.kind() == "type")
}

/// `export default Foo`, `export default memo(Foo)`, `export default () => <div/>`.
fn default_value(
    file: &ParsedFile<'_>,
    value: Node<'_>,
    local: &HashMap<String, String>,
    push: &mut impl FnMut(String, &str),
) {
    let value = unwrap_parens(value);
    match value.kind() {
        "identifier" if local.contains_key(file.text(value)) => push(file.text(value).to_owned(), "default"),
        "call_expression" => {
            if let Some((name, _)) = wrapped(file, value, local) {
                push(name.unwrap_or_else(|| file_component_name(file.path)), "default");
            }
        }
        "arrow_function" | "function_expression" | "function" | "class" if renders(value) => {
            let name = file
                .field_text(value, "name")
                .map(str::to_owned)
                .unwrap_or_else(|| file_component_name(file.path));
            push(name, "default");
        }
        _ => {}
    }
}

/// The components a declaration introduces, with their kinds.
fn declared_components(file: &ParsedFile<'_>, declaration: Node<'_>) -> Vec<(String, String)> {
    let jsx_file = [".tsx", ".jsx"].iter().any(|ext| file.path.ends_with(ext));
    match declaration.kind() {
        "function_declaration" => match file.field_text(declaration, "name") {
            Some(name) if is_component_name(name) && renders(declaration) => {
                vec![(name.to_owned(), "function".into())]
            }
            _ => Vec::new(),
        },
        "class_declaration" => match file.field_text(declaration, "name") {
            Some(name) if is_pascal_case(name) && extends_component(file, declaration) => {
                vec![(name.to_owned(), "class".into())]
            }
            _ => Vec::new(),
        },
        "lexical_declaration" | "variable_declaration" => named_children(declaration)
            .into_iter()
            .filter_map(|declarator| {
                let name = file.field_text(declarator, "name").filter(|n| is_pascal_case(n))?;
                let value = unwrap_parens(declarator.field("value")?);
                let kind = match value.kind() {
                    "arrow_function" if renders(value) => "arrow".to_owned(),
                    "function_expression" | "function" if renders(value) => "function".to_owned(),
                    "call_expression" => wrapped(file, value, &HashMap::new())?.1,
                    // `const Dialog = DialogPrimitive.Root`: a library's component under a name of ours.
                    "member_expression" if jsx_file && primitive_alias(file, value) => "alias".to_owned(),
                    "identifier" if jsx_file && is_pascal_case(file.text(value)) => "alias".to_owned(),
                    _ => return None,
                };
                Some((name.to_owned(), kind))
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// A component's name: PascalCase, and no HTTP method (`export async function GET` in a route
/// file may render an image response, but is an endpoint).
fn is_component_name(name: &str) -> bool {
    is_pascal_case(name) && !matches!(name, "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD" | "OPTIONS")
}

/// `DialogPrimitive.Root`, `SheetPrimitive.Trigger`: a PascalCase member of a PascalCase object
/// (`const Form = FormProvider` is an alias too).
fn primitive_alias(file: &ParsedFile<'_>, member: Node<'_>) -> bool {
    let (Some(object), Some(property)) = (member.field("object"), member.field("property")) else {
        return false;
    };
    object.kind() == "identifier" && is_pascal_case(file.text(object)) && is_pascal_case(file.text(property))
}

/// `memo(Foo)`, `React.forwardRef((props, ref) => …)`, `memo(function Foo() {…})`: the inner
/// name if it has one, and the outermost wrapper as the kind.
fn wrapped(file: &ParsedFile<'_>, call: Node<'_>, local: &HashMap<String, String>) -> Option<(Option<String>, String)> {
    let mut kind = None;
    let mut call = call;
    for _ in 0..MAX_WRAPPERS {
        let callee = file.field_text(call, "function")?;
        let wrapper = callee.rsplit('.').next().unwrap_or(callee);
        if !WRAPPERS.contains(&wrapper) {
            return None;
        }
        let kind = kind.get_or_insert_with(|| wrapper.to_owned()).clone();
        let inner = unwrap_parens(*arguments(call).first()?);
        let name = match inner.kind() {
            "identifier" if local.contains_key(file.text(inner)) || is_pascal_case(file.text(inner)) => {
                Some(file.text(inner).to_owned())
            }
            "arrow_function" | "function_expression" | "function" if renders(inner) => {
                file.field_text(inner, "name").map(str::to_owned)
            }
            "call_expression" => {
                call = inner;
                continue;
            }
            _ => return None,
        };
        return Some((name, kind));
    }
    None
}

/// True if a function or class renders JSX (or calls `createElement`).
fn renders(node: Node<'_>) -> bool {
    let mut found = false;
    let mut budget = MAX_JSX_SEARCH;
    walk(node, |inner| {
        budget = budget.saturating_sub(1);
        if budget == 0 {
            return Walk::Stop;
        }
        if matches!(
            inner.kind(),
            "jsx_element" | "jsx_self_closing_element" | "jsx_fragment"
        ) {
            found = true;
            return Walk::Stop;
        }
        Walk::Enter
    });
    found
}

/// `class X extends React.Component` / `PureComponent`.
fn extends_component(file: &ParsedFile<'_>, class: Node<'_>) -> bool {
    named_children(class)
        .into_iter()
        .find(|child| child.kind() == "class_heritage")
        .is_some_and(|heritage| {
            let text = file.text(heritage);
            text.contains("Component") || text.contains("PureComponent")
        })
}

/// The name an anonymous default export goes by: its file's (`user-card.tsx` → `UserCard`).
pub fn file_component_name(path: &str) -> String {
    let name = path.rsplit('/').next().unwrap_or(path);
    let stem = name.split('.').next().unwrap_or(name);
    stem.split(['-', '_'])
        .filter(|part| !part.is_empty())
        .map(|part| {
            let mut chars = part.chars();
            chars
                .next()
                .map(|first| first.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect()
}
