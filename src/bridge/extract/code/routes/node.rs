//! Express, Koa (koa-router) and Fastify: apps and routers made in a file, their routes
//! (`router.get(path, …handlers)`, `router.route(path).get().post()`, `fastify.route({…})`)
//! and mounts (`app.use('/api', router)`, `app.use(router.routes())`,
//! `fastify.register(plugin, { prefix })`, `registerRoutes(app)`).

use tree_sitter::Node;

use super::graph::{Item, LocalRoute, Mount, Target, Unit};
use super::{RouteScan, render_route_path};
use crate::bridge::extract::code::modules::script::{ScriptModule, required_source};
use crate::bridge::extract::syntax::literal::{Constants, string, unwrap_parens};
use crate::bridge::extract::syntax::script::{arguments, property, root_name};
use crate::bridge::extract::syntax::{ParsedFile, named_children, walk_clean};

/// HTTP methods a router exposes as methods of its own.
const METHODS: &[&str] = &["get", "post", "put", "patch", "delete", "del", "options", "head", "all"];

/// How far up a receiver's enclosing function is looked for.
const MAX_SCOPE_DEPTH: usize = 64;

/// Reads the routes and mounts of one script file into `out`.
pub fn scan(file: &ParsedFile<'_>, module: &ScriptModule, constants: &Constants, out: &mut RouteScan) {
    let hint = framework_of(module);
    let mut scanner = Scanner {
        file,
        module,
        constants,
        hint,
        out,
    };
    walk_clean(file.root(), |node| match node.kind() {
        "variable_declarator" => scanner.declaration(node),
        "call_expression" => scanner.call(node),
        _ => {}
    });
}

/// The framework a file imports, if any.
fn framework_of(module: &ScriptModule) -> &'static str {
    for import in module.imports.values() {
        match import.source.as_str() {
            "express" => return "express",
            "fastify" => return "fastify",
            "koa" | "@koa/router" | "koa-router" => return "koa",
            _ => {}
        }
    }
    ""
}

struct Scanner<'s, 'a> {
    file: &'s ParsedFile<'a>,
    module: &'s ScriptModule,
    constants: &'s Constants,
    hint: &'static str,
    out: &'s mut RouteScan,
}

/// A receiver of route calls: a unit of this file, or a name imported from elsewhere.
enum Receiver {
    Local(String),
    Foreign(String),
}

impl Scanner<'_, '_> {
    /// `const app = express()`, `const router = Router()`, `new Router({ prefix })`, `Fastify()`.
    fn declaration(&mut self, declarator: Node<'_>) {
        let (Some(name), Some(value)) = (
            declarator.child_by_field_name("name"),
            declarator.child_by_field_name("value"),
        ) else {
            return;
        };
        if name.kind() != "identifier" {
            return;
        }
        let mut value = unwrap_parens(value);
        if value.kind() == "await_expression"
            && let Some(inner) = value.named_child(0)
        {
            value = unwrap_parens(inner);
        }
        let callee = match value.kind() {
            "call_expression" => value.child_by_field_name("function"),
            "new_expression" => value.child_by_field_name("constructor"),
            _ => None,
        };
        let Some(callee) = callee else { return };
        let Some((framework, app)) = self.constructor(callee, value.kind() == "new_expression") else {
            return;
        };
        let prefix = arguments(value)
            .first()
            .and_then(|options| property(self.file, *options, "prefix"))
            .and_then(|prefix| self.constants.resolve(self.file, prefix))
            .unwrap_or_default();
        self.out.declare(Unit {
            key: (self.file.path.to_owned(), self.file.text(name).to_owned()),
            framework,
            prefix,
            items: Vec::new(),
            app,
        });
    }

    /// The framework and app-ness of a constructor call, by where its name is imported from.
    fn constructor(&self, callee: Node<'_>, is_new: bool) -> Option<(&'static str, bool)> {
        let text = self.file.text(callee);
        let root = root_name(self.file, callee);
        let source = self.module.imports.get(root).map(|import| import.source.as_str());
        let router_name = text.ends_with("Router");
        match (source, is_new) {
            (Some("express"), false) => Some(("express", !router_name)),
            (Some("fastify"), _) => Some(("fastify", true)),
            (Some("koa"), true) => Some(("koa", true)),
            (Some("@koa/router" | "koa-router"), true) => Some(("koa", false)),
            (None, false) if text == "express" => Some(("express", true)),
            (None, false) if text == "express.Router" || text == "Router" => Some(("express", false)),
            (None, _) if text == "Fastify" || text == "fastify" => Some(("fastify", true)),
            (None, true) if text == "Koa" => Some(("koa", true)),
            (None, true) if text == "Router" || text == "KoaRouter" => Some(("koa", false)),
            _ => None,
        }
    }

    fn call(&mut self, call: Node<'_>) {
        let Some(function) = call.child_by_field_name("function") else {
            return;
        };
        if function.kind() != "member_expression" {
            self.pass_through(call, function);
            return;
        }
        let (Some(object), Some(property_node)) = (
            function.child_by_field_name("object"),
            function.child_by_field_name("property"),
        ) else {
            return;
        };
        let method = self.file.text(property_node);
        let args = arguments(call);
        if METHODS.contains(&method) {
            self.method_route(call, object, method, &args);
        } else if method == "use" {
            self.use_mount(call, object, &args);
        } else if method == "register" {
            self.register(call, object, &args);
        } else if method == "route" && args.len() == 1 && args[0].kind() == "object" {
            self.route_object(call, object, args[0]);
        } else {
            self.pass_through(call, function);
        }
    }

    /// `router.get('/x', auth, validate(schema), handler)`, `router.route('/x').get(h)`,
    /// `router.get('/a', h).post('/b', h2)`.
    fn method_route(&mut self, call: Node<'_>, object: Node<'_>, method: &str, args: &[Node<'_>]) {
        // `router.route('/x').get(h).post(h2)`: the path comes from the `.route()` call down the chain.
        let mut chained = object;
        while chained.kind() == "call_expression" {
            let Some(inner) = chained
                .child_by_field_name("function")
                .filter(|f| f.kind() == "member_expression")
            else {
                return;
            };
            let (Some(receiver), Some(name)) = (
                inner.child_by_field_name("object"),
                inner.child_by_field_name("property"),
            ) else {
                return;
            };
            match self.file.text(name) {
                "route" => {
                    let Some(path) = arguments(chained)
                        .first()
                        .and_then(|p| render_route_path(self.file, self.constants, *p))
                    else {
                        return;
                    };
                    let route = self.route(method, path, args);
                    return self.attach(call, receiver, Item::Route(route));
                }
                name if METHODS.contains(&name) => chained = receiver,
                _ => return,
            }
        }
        // Koa and Fastify routers return themselves: `router.get(…).post(…)` chains on `router`.
        let object = chained;
        if args.len() < 2 {
            return; // `app.get('env')` reads a setting
        }
        // koa-router's named routes: `router.get('user', '/users/:id', handler)`.
        let named = args.len() >= 3
            && string(self.file, args[0]).is_some()
            && string(self.file, args[1]).is_some_and(|path| path.starts_with('/'));
        let at = usize::from(named);
        let Some(path) = render_route_path(self.file, self.constants, args[at]) else {
            return;
        };
        let route = self.route(method, path, &args[at + 1..]);
        self.attach(call, object, Item::Route(route));
    }

    /// A route from its handler arguments: the last is the handler, the ones before are middleware.
    fn route(&self, method: &str, path: String, handlers: &[Node<'_>]) -> LocalRoute {
        let method = match method {
            "del" => "DELETE".to_owned(),
            other => other.to_ascii_uppercase(),
        };
        let handler = handlers.last().and_then(|last| self.handler_name(*last));
        let mut request_hints = Vec::new();
        let mut response_hints = Vec::new();
        for middleware in handlers.iter().take(handlers.len().saturating_sub(1)) {
            self.shape_hints(*middleware, &mut request_hints, &mut response_hints);
        }
        LocalRoute {
            method,
            path,
            handler,
            request_hints,
            response_hints,
            file: self.file.path.to_owned(),
            ..LocalRoute::default()
        }
    }

    /// `list`, `users.list`, `asyncHandler(list)` → the handler's name; inline functions have none.
    fn handler_name(&self, node: Node<'_>) -> Option<String> {
        match node.kind() {
            "identifier" | "member_expression" => Some(self.file.text(node).to_owned()),
            "call_expression" => {
                let args = arguments(node);
                let function = node.child_by_field_name("function")?;
                // `controller.list.bind(controller)` names the function it binds.
                if self.file.text(function).ends_with(".bind") {
                    return function
                        .child_by_field_name("object")
                        .and_then(|inner| self.handler_name(inner));
                }
                match args.as_slice() {
                    [only] => self.handler_name(*only),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// Names in middleware that may be request shapes: `validate(createUserSchema)`,
    /// Fastify's `{ schema: { body: X, response: { 200: Y } } }`.
    fn shape_hints(&self, node: Node<'_>, request: &mut Vec<String>, response: &mut Vec<String>) {
        match node.kind() {
            "call_expression" => {
                for arg in arguments(node) {
                    if matches!(arg.kind(), "identifier" | "member_expression") {
                        request.push(self.file.text(arg).to_owned());
                    }
                }
            }
            "object" => {
                let Some(schema) = property(self.file, node, "schema") else {
                    return;
                };
                if let Some(body) = property(self.file, schema, "body").filter(|b| b.kind() == "identifier") {
                    request.push(self.file.text(body).to_owned());
                }
                if let Some(responses) = property(self.file, schema, "response") {
                    for entry in named_children(responses).into_iter().filter(|e| e.kind() == "pair") {
                        if let Some(value) = entry.child_by_field_name("value").filter(|v| v.kind() == "identifier") {
                            response.push(self.file.text(value).to_owned());
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// `app.use('/api', auth, router)`, `app.use(router.routes())`, `app.use('/x', require('./x'))`.
    fn use_mount(&mut self, call: Node<'_>, object: Node<'_>, args: &[Node<'_>]) {
        let (prefix, rest) = match args
            .first()
            .and_then(|first| render_route_path(self.file, self.constants, *first))
        {
            Some(prefix) => (prefix, &args[1..]),
            None => (String::new(), args),
        };
        for arg in rest {
            if let Some(target) = self.target(*arg) {
                let mount = Mount {
                    prefix: prefix.clone(),
                    replace: false,
                    target: Target::Ref(target),
                };
                self.attach(call, object, Item::Mount(mount));
            }
        }
    }

    /// `fastify.register(plugin, { prefix: '/v1' })`, plugin imported or `import('./x')`.
    fn register(&mut self, call: Node<'_>, object: Node<'_>, args: &[Node<'_>]) {
        let Some(target) = args.first().and_then(|plugin| self.target(*plugin)) else {
            return;
        };
        let prefix = args
            .get(1)
            .and_then(|options| property(self.file, *options, "prefix"))
            .and_then(|prefix| render_route_path(self.file, self.constants, prefix))
            .unwrap_or_default();
        let mount = Mount {
            prefix,
            replace: false,
            target: Target::Ref(target),
        };
        self.attach(call, object, Item::Mount(mount));
    }

    /// `fastify.route({ method: ['GET', 'POST'], url: '/x', handler })`.
    fn route_object(&mut self, call: Node<'_>, object: Node<'_>, options: Node<'_>) {
        let file = self.file;
        let Some(url) = property(file, options, "url").or_else(|| property(file, options, "path")) else {
            return;
        };
        let Some(path) = render_route_path(file, self.constants, url) else {
            return;
        };
        let Some(methods) = property(file, options, "method") else {
            return;
        };
        let methods: Vec<String> = match methods.kind() {
            "array" => named_children(methods)
                .into_iter()
                .filter_map(|m| string(file, m))
                .collect(),
            _ => string(file, methods).into_iter().collect(),
        };
        let handler = property(file, options, "handler").and_then(|h| self.handler_name(h));
        for method in methods {
            let mut route = self.route(&method, path.clone(), &[]);
            route.handler = handler.clone();
            self.shape_hints(options, &mut route.request_hints, &mut route.response_hints);
            self.attach(call, object, Item::Route(route));
        }
    }

    /// `registerUserRoutes(app)`: a function handed a receiver adds its routes to it.
    fn pass_through(&mut self, call: Node<'_>, function: Node<'_>) {
        if !matches!(function.kind(), "identifier" | "member_expression") {
            return;
        }
        for arg in arguments(call) {
            if arg.kind() == "identifier" && self.receiver(call, arg).is_some() {
                let target = Target::Ref(self.file.text(function).to_owned());
                self.attach(
                    call,
                    arg,
                    Item::Mount(Mount {
                        prefix: String::new(),
                        replace: false,
                        target,
                    }),
                );
                return;
            }
        }
    }

    /// What a mount argument names: `router`, `users.router`, `router.routes()`, `require('./x')`,
    /// `import('./x')`.
    fn target(&self, node: Node<'_>) -> Option<String> {
        let node = unwrap_parens(node);
        match node.kind() {
            "identifier" | "member_expression" => Some(self.file.text(node).to_owned()),
            "await_expression" => self.target(node.named_child(0)?),
            "call_expression" => {
                if let Some(source) = required_source(self.file, node) {
                    return Some(format!("module:{source}"));
                }
                let function = node.child_by_field_name("function")?;
                if function.kind() == "import" {
                    let source = string(self.file, *arguments(node).first()?)?;
                    return Some(format!("module:{source}"));
                }
                let property_name = function.child_by_field_name("property").map(|p| self.file.text(p));
                match property_name {
                    Some("routes" | "middleware") => self.target(function.child_by_field_name("object")?),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// Adds `item` to the unit `object` names at `call`: a unit of this file, a function
    /// parameter (the function becomes a unit), or an imported name (linked later).
    fn attach(&mut self, call: Node<'_>, object: Node<'_>, item: Item) {
        match self.receiver(call, object) {
            Some(Receiver::Local(name)) => self.out.unit(self.file.path, &name, self.hint).items.push(item),
            Some(Receiver::Foreign(name)) => self.out.foreign.push((name, self.hint, item)),
            None => {}
        }
    }

    fn receiver(&self, call: Node<'_>, object: Node<'_>) -> Option<Receiver> {
        if object.kind() != "identifier" {
            return None;
        }
        let name = self.file.text(object);
        if let Some(function) = self.enclosing_function_with_param(call, name) {
            return Some(Receiver::Local(function));
        }
        if self.out.declares(self.file.path, name) {
            return Some(Receiver::Local(name.to_owned()));
        }
        self.module
            .imports
            .contains_key(name)
            .then(|| Receiver::Foreign(name.to_owned()))
    }

    /// The name of the closest function around `node` that has a parameter `param`:
    /// its own name, the variable it is assigned to, or `default`.
    fn enclosing_function_with_param(&self, node: Node<'_>, param: &str) -> Option<String> {
        let mut current = node;
        for _ in 0..MAX_SCOPE_DEPTH {
            current = current.parent()?;
            if !matches!(
                current.kind(),
                "function_declaration" | "function_expression" | "arrow_function" | "function"
            ) {
                continue;
            }
            let params = current
                .child_by_field_name("parameters")
                .or_else(|| current.child_by_field_name("parameter"));
            let has_param = params.is_some_and(|params| {
                params.kind() == "identifier" && self.file.text(params) == param
                    || named_children(params).into_iter().any(|p| {
                        let pattern = p.child_by_field_name("pattern").unwrap_or(p);
                        pattern.kind() == "identifier" && self.file.text(pattern) == param
                    })
            });
            if has_param {
                return Some(self.function_name(current));
            }
        }
        None
    }

    fn function_name(&self, function: Node<'_>) -> String {
        if let Some(name) = self.file.field_text(function, "name") {
            return name.to_owned();
        }
        match function.parent() {
            Some(parent) if parent.kind() == "variable_declarator" => {
                self.file.field_text(parent, "name").unwrap_or("default").to_owned()
            }
            _ => "default".to_owned(),
        }
    }
}
