//! Axum: `Router::new().route("/x", get(h).post(h2)).nest("/api", api()).merge(other())`,
//! read from what each function returns or hands to `axum::serve`; a router built by a
//! function in another module is mounted by name and linked later.

use std::cell::RefCell;

use tree_sitter::Node;

use super::graph::{Item, LocalRoute, Target};
use super::{RouteScan, each_rust_function};
use crate::bridge::extract::code::guards::{GuardNote, Role, is_auth_name};
use crate::bridge::extract::syntax::literal::Constants;
use crate::bridge::extract::syntax::rust::{Bindings, call_path, chain, handler_name, last_segment};
use crate::bridge::extract::syntax::{Fields, NodeIndex, ParsedFile, named_children, walk_clean};

/// Method-router functions and the method each routes (`any` → `ANY`).
const METHODS: &[&str] = &[
    "get", "post", "put", "patch", "delete", "head", "options", "trace", "any",
];

/// How deep router expressions are followed through bindings, nests and merges.
const MAX_DEPTH: usize = 16;

/// Reads the Axum routers of one Rust file into `out`.
pub fn scan(file: &ParsedFile<'_>, index: &NodeIndex<'_>, constants: &Constants, out: &mut RouteScan) {
    each_rust_function(file, index, out, |out, _, name, body| {
        let eval = Eval {
            file,
            constants,
            bindings: Bindings::of(file, body),
            layers: RefCell::new(Vec::new()),
        };
        let (results, serves) = results(file, body);
        let mut items = Vec::new();
        for result in results {
            if let Some(found) = eval.router(result, 0) {
                items.extend(found);
            }
        }
        for guard in eval.layers.take() {
            let note = GuardNote::new(&guard, "layer", "axum", Role::Used, file.path);
            if !out.guards.contains(&note) {
                out.guards.push(note);
            }
        }
        if !items.is_empty() {
            let unit = out.unit(file.path, name, "axum");
            unit.items.extend(items);
            unit.app |= serves || name == "main";
        }
    });
}

/// Layers whose middleware is named by its last argument (`from_fn(auth)`,
/// `from_fn_with_state(state, auth)`) or its type argument (`from_extractor::<AuthUser>()`).
const MIDDLEWARE_FUNCTIONS: &[&str] = &[
    "from_fn",
    "from_fn_with_state",
    "from_extractor",
    "from_extractor_with_state",
    "map_request",
    "map_request_with_state",
];

/// The auth guard a `.layer(…)` or `.route_layer(…)` argument is: `middleware::from_fn(auth)` →
/// `auth`, `from_extractor::<AuthUser>()` → `AuthUser`, `RequireAuthorizationLayer::bearer(…)`,
/// `ValidateRequestHeaderLayer::bearer(…)`, `login_required!(Backend)`, or one of those inside
/// `ServiceBuilder::new().layer(…)`.
fn layer_guard(file: &ParsedFile<'_>, node: Node<'_>, depth: usize) -> Option<String> {
    if depth > MAX_DEPTH {
        return None;
    }
    let (base, calls) = chain(file, node);
    for call in calls.iter().filter(|call| call.name == "layer") {
        if let Some(found) = call.args.first().and_then(|arg| layer_guard(file, *arg, depth + 1)) {
            return Some(found);
        }
    }
    let name = match base.kind() {
        "macro_invocation" => file.field_text(base, "macro").map(|m| last_segment(m).to_owned())?,
        "call_expression" => {
            let path = call_path(file, base)?;
            if MIDDLEWARE_FUNCTIONS.contains(&last_segment(path)) {
                let args = base.field("arguments").map(named_children).unwrap_or_default();
                match args.last().and_then(|last| handler_name(file, *last)) {
                    Some(function) => last_segment(&function).to_owned(),
                    None => {
                        // `from_extractor::<AuthUser>()`
                        let function = base.field("function")?;
                        let types = function.field("type_arguments")?;
                        let text = file.text(types).trim_matches(['<', '>']);
                        last_segment(text.split(',').next().unwrap_or(text)).to_owned()
                    }
                }
            } else {
                path.to_owned()
            }
        }
        _ => return None,
    };
    is_auth_name(&name).then_some(name)
}

/// What a function hands on: its tail expression, its `return`s, and what it passes to `serve`.
fn results<'t>(file: &ParsedFile<'_>, body: Node<'t>) -> (Vec<Node<'t>>, bool) {
    let mut out = Vec::new();
    let mut serves = false;
    if let Some(tail) = named_children(body)
        .last()
        .filter(|last| !last.kind().ends_with("statement"))
    {
        out.push(*tail);
    }
    walk_clean(body, |node| match node.kind() {
        "return_expression" => out.extend(node.named_child(0)),
        "call_expression" => {
            if call_path(file, node).is_some_and(|path| last_segment(path) == "serve") {
                serves = true;
                out.extend(node.field("arguments").and_then(|args| args.named_child(1)));
            } else if let Some(function) = node.field("function")
                && function.kind() == "field_expression"
                && file.field_text(function, "field") == Some("serve")
            {
                serves = true;
                out.extend(node.field("arguments").and_then(|args| args.named_child(0)));
            }
        }
        _ => {}
    });
    (out, serves)
}

/// `get_service` → `get`: a method router that serves a tower service.
fn method_of(name: &str) -> &str {
    name.strip_suffix("_service").unwrap_or(name)
}

struct Eval<'s, 'a, 't> {
    file: &'s ParsedFile<'a>,
    constants: &'s Constants,
    bindings: Bindings<'t>,
    /// The auth layers met, noted as guards used by the file.
    layers: RefCell<Vec<String>>,
}

impl<'t> Eval<'_, '_, 't> {
    /// The routes and mounts a router expression holds; `None` if it is no router.
    fn router(&self, node: Node<'t>, depth: usize) -> Option<Vec<Item>> {
        if depth > MAX_DEPTH {
            return None;
        }
        let (base, calls) = chain(self.file, node);
        let routes_something = calls
            .iter()
            .any(|call| matches!(call.name.as_str(), "route" | "nest" | "merge"));
        let mut items = match base.kind() {
            "call_expression" => {
                let path = call_path(self.file, base)?;
                if path.contains("Router") && matches!(last_segment(path), "new" | "default") {
                    Vec::new()
                } else {
                    vec![Item::mount("", Target::Ref(path.to_owned()))]
                }
            }
            "identifier" => match self.bindings.value(self.file.text(base), base.start_byte()) {
                Some(value) => self.router(value, depth + 1)?,
                None if routes_something => Vec::new(),
                None => return None,
            },
            _ => return None,
        };
        for call in calls {
            match (call.name.as_str(), call.args.as_slice()) {
                ("route", [path, methods]) => {
                    let Some(path) = self.constants.render_path(self.file, *path) else {
                        continue;
                    };
                    for (method, handler) in self.method_router(*methods, depth + 1) {
                        items.push(Item::Route(LocalRoute {
                            method,
                            path: path.clone(),
                            handler,
                            file: self.file.path.to_owned(),
                            ..LocalRoute::default()
                        }));
                    }
                }
                ("nest", [path, inner]) => {
                    let (Some(path), Some(inner)) = (
                        self.constants.render_path(self.file, *path),
                        self.router(*inner, depth + 1),
                    ) else {
                        continue;
                    };
                    items.push(Item::mount(&path, Target::Inline(inner)));
                }
                ("merge", [inner]) => {
                    if let Some(inner) = self.router(*inner, depth + 1) {
                        items.push(Item::mount("", Target::Inline(inner)));
                    }
                }
                ("route_service", [path, _]) => {
                    if let Some(path) = self.constants.render_path(self.file, *path) {
                        items.push(Item::Route(LocalRoute {
                            method: "ANY".into(),
                            path,
                            file: self.file.path.to_owned(),
                            ..LocalRoute::default()
                        }));
                    }
                }
                // A layer wraps the routes added before it.
                ("layer" | "route_layer", [layer]) => {
                    if let Some(guard) = layer_guard(self.file, *layer, depth + 1) {
                        for item in &mut items {
                            match item {
                                Item::Route(route) => route.guards.push(guard.clone()),
                                Item::Mount(mount) => mount.guards.push(guard.clone()),
                                _ => {}
                            }
                        }
                        self.layers.borrow_mut().push(guard);
                    }
                }
                _ => {}
            }
        }
        Some(items)
    }

    /// `get(list).post(create)` → `[(GET, list), (POST, create)]`; `on(MethodFilter::PUT, h)` and
    /// `get(a).merge(post(b))` too.
    fn method_router(&self, node: Node<'t>, depth: usize) -> Vec<(String, Option<String>)> {
        if depth > MAX_DEPTH {
            return Vec::new();
        }
        let (base, calls) = chain(self.file, node);
        let mut out = Vec::new();
        match base.kind() {
            "identifier" => {
                if let Some(value) = self.bindings.value(self.file.text(base), base.start_byte()) {
                    out.extend(self.method_router(value, depth + 1));
                }
            }
            "call_expression" => {
                let args = base.field("arguments").map(named_children).unwrap_or_default();
                match call_path(self.file, base).map(last_segment) {
                    Some("on") => {
                        if let [filter, handler, ..] = args.as_slice() {
                            let method = last_segment(self.file.text(*filter)).to_ascii_uppercase();
                            out.push((method, handler_name(self.file, *handler)));
                        }
                    }
                    Some(name) if METHODS.contains(&method_of(name)) => {
                        out.push((
                            method_of(name).to_ascii_uppercase(),
                            args.first().and_then(|h| handler_name(self.file, *h)),
                        ));
                    }
                    _ => {}
                }
            }
            _ => {}
        }
        for call in calls {
            if METHODS.contains(&method_of(&call.name)) {
                out.push((
                    method_of(&call.name).to_ascii_uppercase(),
                    call.args.first().and_then(|h| handler_name(self.file, *h)),
                ));
            } else if call.name == "merge"
                && let Some(other) = call.args.first()
            {
                out.extend(self.method_router(*other, depth + 1));
            }
        }
        out
    }
}
