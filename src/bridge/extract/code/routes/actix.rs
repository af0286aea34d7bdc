//! Actix Web: `#[get("/x")]`-style handlers, `App::new().service(…).route(…).configure(…)`
//! inside `HttpServer::new`, `web::scope("/api")` and `web::resource("/x").route(web::get().to(h))`,
//! and `fn config(cfg: &mut web::ServiceConfig)` functions; other modules' handlers and
//! config functions are mounted by name and linked later.

use tree_sitter::Node;

use super::graph::{Item, LocalRoute, Target};
use super::{RouteScan, each_rust_function};
use crate::bridge::extract::syntax::literal::Constants;
use crate::bridge::extract::syntax::rust::{
    Bindings, attribute_arguments, attribute_name, attributes_before, call_path, chain, handler_name, handler_shapes,
    last_segment,
};
use crate::bridge::extract::syntax::{Fields, NodeIndex, ParsedFile, named_children, walk_clean};

/// Route attribute macros and method-guard functions (`web::get()`), by HTTP method.
const METHODS: &[&str] = &[
    "get", "post", "put", "patch", "delete", "head", "options", "trace", "connect",
];

/// How deep service expressions are followed.
const MAX_DEPTH: usize = 16;

/// Reads the Actix Web routes of one Rust file into `out`.
pub fn scan(file: &ParsedFile<'_>, index: &NodeIndex<'_>, constants: &Constants, out: &mut RouteScan) {
    each_rust_function(file, index, out, |out, node, name, body| {
        let routes = attribute_routes(file, node, name);
        if !routes.is_empty() {
            out.unit(file.path, name, "actix").items.extend(routes);
        }
        let eval = Eval {
            file,
            constants,
            bindings: Bindings::of(file, body),
        };
        let mut items = Vec::new();
        let mut app = false;
        walk_clean(body, |inner| {
            if inner.kind() == "call_expression"
                && call_path(file, inner).is_some_and(|path| path.ends_with("HttpServer::new"))
                && let Some(factory) = inner.field("arguments").and_then(|args| args.named_child(0))
                && let Some(result) = closure_result(factory)
            {
                app = true;
                items.extend(eval.services(result, 0).unwrap_or_default());
            }
        });
        if let Some(config) = config_param(file, node) {
            for statement in named_children(body) {
                let expression = if statement.kind() == "expression_statement" {
                    statement.named_child(0)
                } else {
                    Some(statement)
                };
                if let Some(expression) = expression {
                    items.extend(eval.configured(expression, &config));
                }
            }
        } else if let Some(tail) = named_children(body)
            .last()
            .filter(|last| !last.kind().ends_with("statement"))
            && !app
        {
            items.extend(eval.services(*tail, 0).unwrap_or_default());
        }
        if !items.is_empty() {
            let unit = out.unit(file.path, name, "actix");
            unit.items.extend(items);
            unit.app |= app;
        }
    });
}

/// `#[get("/users/{id}")]`, `#[route("/x", method = "GET", method = "POST")]` on a handler.
fn attribute_routes(file: &ParsedFile<'_>, function: Node<'_>, name: &str) -> Vec<Item> {
    let mut out = Vec::new();
    for attribute in attributes_before(function) {
        let macro_name = attribute_name(file, attribute);
        let (paths, pairs) = attribute_arguments(file, attribute);
        let Some(path) = paths.first() else { continue };
        let methods: Vec<String> = match macro_name {
            "route" => pairs
                .iter()
                .filter(|(key, _)| key == "method")
                .map(|(_, m)| m.to_ascii_uppercase())
                .collect(),
            method if METHODS.contains(&method) => vec![method.to_ascii_uppercase()],
            _ => continue,
        };
        let (request, response) = handler_shapes(file, function);
        for method in methods {
            out.push(Item::Route(LocalRoute {
                method,
                path: path.clone(),
                handler: Some(name.to_owned()),
                request: request.clone(),
                response: response.clone(),
                file: file.path.to_owned(),
                ..LocalRoute::default()
            }));
        }
    }
    out
}

/// The name of a `&mut web::ServiceConfig` parameter.
fn config_param(file: &ParsedFile<'_>, function: Node<'_>) -> Option<String> {
    let parameters = function.field("parameters")?;
    named_children(parameters).into_iter().find_map(|parameter| {
        let kind = file.field_text(parameter, "type")?;
        let pattern = parameter.field("pattern")?;
        (kind.contains("ServiceConfig") && pattern.kind() == "identifier").then(|| file.text(pattern).to_owned())
    })
}

/// The value a closure produces: its expression body or its block's tail.
fn closure_result(closure: Node<'_>) -> Option<Node<'_>> {
    if closure.kind() != "closure_expression" {
        return None;
    }
    let body = closure.field("body")?;
    if body.kind() != "block" {
        return Some(body);
    }
    named_children(body)
        .last()
        .copied()
        .filter(|last| !last.kind().ends_with("statement"))
}

struct Eval<'s, 'a, 't> {
    file: &'s ParsedFile<'a>,
    constants: &'s Constants,
    bindings: Bindings<'t>,
}

impl<'t> Eval<'_, '_, 't> {
    /// What a service expression holds: `App::new()…`, `web::scope("/x")…`, `web::resource("/x")…`,
    /// a handler or scope function's name, a binding.
    fn services(&self, node: Node<'t>, depth: usize) -> Option<Vec<Item>> {
        if depth > MAX_DEPTH {
            return None;
        }
        let (base, calls) = chain(self.file, node);
        match base.kind() {
            "identifier" | "scoped_identifier" => {
                if let Some(value) = self.bindings.value(self.file.text(base), base.start_byte()) {
                    let mut items = self.services(value, depth + 1)?;
                    items.extend(self.container_calls(&calls, depth));
                    return Some(items);
                }
                let mut items = vec![Item::mount("", Target::Ref(self.file.text(base).to_owned()))];
                items.extend(self.container_calls(&calls, depth));
                Some(items)
            }
            "call_expression" => {
                let path = call_path(self.file, base)?;
                let args = base.field("arguments").map(named_children).unwrap_or_default();
                let at = || args.first().and_then(|p| self.constants.render_path(self.file, *p));
                match last_segment(path) {
                    "new" if path.ends_with("App::new") => Some(self.container_calls(&calls, depth)),
                    "scope" => Some(vec![Item::mount(
                        &at()?,
                        Target::Inline(self.container_calls(&calls, depth)),
                    )]),
                    "resource" => Some(self.resource(&at()?, &calls)),
                    _ => Some(vec![Item::mount("", Target::Ref(path.to_owned()))]),
                }
            }
            _ => None,
        }
    }

    /// `cfg.service(…).route(…)` in a config function.
    fn configured(&self, node: Node<'t>, config: &str) -> Vec<Item> {
        let (base, calls) = chain(self.file, node);
        if base.kind() != "identifier" || self.file.text(base) != config {
            return Vec::new();
        }
        self.container_calls(&calls, 0)
    }

    /// `.service(x)`, `.route("/x", web::get().to(h))`, `.configure(f)` on an app, scope or config.
    fn container_calls(
        &self,
        calls: &[crate::bridge::extract::syntax::rust::ChainCall<'t>],
        depth: usize,
    ) -> Vec<Item> {
        let mut items = Vec::new();
        for call in calls {
            match (call.name.as_str(), call.args.as_slice()) {
                ("service", [service]) => items.extend(self.services(*service, depth + 1).unwrap_or_default()),
                ("route", [path, route]) => {
                    let Some(path) = self.constants.render_path(self.file, *path) else {
                        continue;
                    };
                    if let Some((method, handler)) = self.guarded(*route) {
                        items.push(self.route(method, &path, handler));
                    }
                }
                ("configure", [function]) => {
                    items.push(Item::mount("", Target::Ref(self.file.text(*function).to_owned())))
                }
                _ => {}
            }
        }
        items
    }

    /// `web::resource("/x").route(web::get().to(h)).to(fallback)`.
    fn resource(&self, path: &str, calls: &[crate::bridge::extract::syntax::rust::ChainCall<'t>]) -> Vec<Item> {
        let mut items = Vec::new();
        for call in calls {
            match (call.name.as_str(), call.args.as_slice()) {
                ("route", [route]) => {
                    if let Some((method, handler)) = self.guarded(*route) {
                        items.push(self.route(method, path, handler));
                    }
                }
                ("to", [handler]) => items.push(self.route("ANY".into(), path, handler_name(self.file, *handler))),
                (method, [handler]) if METHODS.contains(&method) => {
                    items.push(self.route(method.to_ascii_uppercase(), path, handler_name(self.file, *handler)))
                }
                _ => {}
            }
        }
        items
    }

    /// `web::get().to(h)` → `(GET, h)`; `web::route().to(h)` → `(ANY, h)`.
    fn guarded(&self, node: Node<'_>) -> Option<(String, Option<String>)> {
        let (base, calls) = chain(self.file, node);
        let method = match call_path(self.file, base).map(last_segment)? {
            "route" => "ANY".to_owned(),
            method if METHODS.contains(&method) => method.to_ascii_uppercase(),
            _ => return None,
        };
        let handler = calls
            .iter()
            .find(|call| call.name == "to")
            .and_then(|call| call.args.first());
        Some((method, handler.and_then(|h| handler_name(self.file, *h))))
    }

    fn route(&self, method: String, path: &str, handler: Option<String>) -> Item {
        Item::Route(LocalRoute {
            method,
            path: path.to_owned(),
            handler,
            file: self.file.path.to_owned(),
            ..LocalRoute::default()
        })
    }
}
