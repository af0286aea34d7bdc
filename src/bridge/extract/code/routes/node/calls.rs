//! The calls an Express/Koa/Fastify file makes on its apps and routers: routes
//! (`router.get(path, …handlers)`, chains, `fastify.route({…})`) and mounts (`use`,
//! `register`, a function handed a router).

use tree_sitter::Node;

use super::{MAX_WRAPPING, METHODS, Scanner};
use crate::bridge::extract::code::modules::script::required_source;
use crate::bridge::extract::code::routes::graph::{Item, LocalRoute, Mount, Target};
use crate::bridge::extract::code::routes::render_route_path;
use crate::bridge::extract::code::shapes::parsed::parsed_bodies;
use crate::bridge::extract::syntax::literal::{string, unwrap_parens};
use crate::bridge::extract::syntax::script::{arguments, property};
use crate::bridge::extract::syntax::{Fields, named_children};

impl Scanner<'_, '_> {
    /// `router.get('/x', auth, validate(schema), handler)`, `router.route('/x').get(h)`,
    /// `router.get('/a', h).post('/b', h2)`.
    pub(super) fn method_route(&mut self, call: Node<'_>, object: Node<'_>, method: &str, args: &[Node<'_>]) {
        // `router.route('/x').get(h).post(h2)`: the path comes from the `.route()` call down the chain.
        let mut chained = object;
        while chained.kind() == "call_expression" {
            // A call that is no router method (`Router()`, `express.Router()`) is the chain's base.
            let Some(inner) = chained.field("function").filter(|f| f.kind() == "member_expression") else {
                break;
            };
            let (Some(receiver), Some(name)) = (inner.field("object"), inner.field("property")) else {
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
                name if METHODS.contains(&name) || matches!(name, "use" | "register" | "addHook") => chained = receiver,
                _ => break,
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
        // `app.options('*', cors())` answers CORS preflights for every path: no endpoint.
        if method == "options" && path == "*" {
            return;
        }
        let route = self.route(method, path, &args[at + 1..]);
        self.attach(call, object, Item::Route(route));
    }

    /// A route from its handler arguments: the last is the handler, the ones before are
    /// middleware (auth guards among them) or Fastify's route options.
    fn route(&mut self, method: &str, path: String, handlers: &[Node<'_>]) -> LocalRoute {
        let method = match method {
            "del" => "DELETE".to_owned(),
            other => other.to_ascii_uppercase(),
        };
        let handler = handlers.last().and_then(|last| self.handler_name(*last));
        let mut request_hints = Vec::new();
        let mut response_hints = Vec::new();
        let mut guards = Vec::new();
        for middleware in handlers.iter().take(handlers.len().saturating_sub(1)) {
            self.shape_hints(*middleware, &mut request_hints, &mut response_hints);
            if middleware.kind() == "object" {
                guards.extend(self.option_guards(*middleware));
            } else {
                guards.extend(self.guards_of(*middleware, "middleware"));
            }
        }
        if let Some(last) = handlers.last() {
            request_hints.extend(self.parsed_bodies(*last));
        }
        LocalRoute {
            method,
            path,
            handler,
            request_hints,
            response_hints,
            guards,
            file: self.file.path.to_owned(),
            ..LocalRoute::default()
        }
    }

    /// The schemas an inline handler validates its body with (see `parsed_bodies`).
    fn parsed_bodies(&self, handler: Node<'_>) -> Vec<String> {
        parsed_bodies(self.file, handler)
    }

    /// `list`, `users.list`, `asyncHandler(list)` → the handler's name; inline functions have none.
    fn handler_name(&self, node: Node<'_>) -> Option<String> {
        let mut node = node;
        for _ in 0..MAX_WRAPPING {
            match node.kind() {
                "identifier" | "member_expression" => return Some(self.file.text(node).to_owned()),
                "call_expression" => {
                    let function = node.field("function")?;
                    // `controller.list.bind(controller)` names the function it binds.
                    node = if self.file.text(function).ends_with(".bind") {
                        function.field("object")?
                    } else {
                        match arguments(node).as_slice() {
                            [only] => *only,
                            _ => return None,
                        }
                    };
                }
                _ => return None,
            }
        }
        None
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
                        if let Some(value) = entry.field("value").filter(|v| v.kind() == "identifier") {
                            response.push(self.file.text(value).to_owned());
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// `app.use('/api', auth, router)`, `app.use(router.routes())`, `app.use('/x', require('./x'))`,
    /// `app.use(config.prefix, router)`, `app.use(requireAuth)`, and mounts from a table
    /// (`routes.forEach((r) => router.use(r.path, r.route))`).
    pub(super) fn use_mount(&mut self, call: Node<'_>, object: Node<'_>, args: &[Node<'_>]) {
        if self.is_table_use(args) {
            let mounts = self.table_mounts(args[0], args[1]);
            if !mounts.is_empty() {
                for (prefix, target) in mounts {
                    self.attach(call, object, Item::mount(&prefix, Target::Ref(target)));
                }
                return;
            }
        }
        let mut rest = args;
        let mut prefix = String::new();
        let mut tentative = false;
        if let Some(first) = args.first().copied().filter(|_| args.len() >= 2) {
            if let Some(path) = render_route_path(self.file, self.constants, first) {
                (prefix, rest) = (path, &args[1..]);
            } else if self.may_be_prefix(first) {
                // A name that may be a prefix held in another file: the linker decides, and
                // the name may be a router after all.
                prefix = self.constants.render_prefix(self.file, first).unwrap_or_default();
                tentative = true;
                if let Some(target) = self.target(first) {
                    self.attach(call, object, Item::mount("", Target::Ref(target)));
                }
                rest = &args[1..];
            }
        }
        let mut guards = Vec::new();
        let mut mounted = false;
        for (at, arg) in rest.iter().enumerate() {
            // The last of several arguments is what is mounted (`app.use('/admin', requireAdmin,
            // admin)`); the ones before it, and a lone one, may be middleware.
            if at + 1 < rest.len() || rest.len() == 1 {
                let found = self.guards_of(*arg, "middleware");
                if !found.is_empty() {
                    guards.extend(found);
                    continue;
                }
            }
            if let Some(target) = self.target(*arg) {
                let mount = Mount {
                    prefix: prefix.clone(),
                    target: Target::Ref(target),
                    guards: guards.clone(),
                    tentative,
                    ..Mount::default()
                };
                self.attach(call, object, Item::Mount(mount));
                mounted = true;
            }
        }
        if !mounted {
            for guard in guards {
                self.attach(call, object, Item::Guard(guard));
            }
        }
    }

    /// A name `use` is handed first that reads like a path held elsewhere: a member of a config
    /// object (`config.api.prefix`) or a constant-like name (`API_PREFIX`, `basePath`), not
    /// middleware (`requireAuth`).
    fn may_be_prefix(&self, first: Node<'_>) -> bool {
        match first.kind() {
            "member_expression" => {
                self.guard_name(first).is_none() || {
                    let words = crate::bridge::extract::code::guards::names::words(self.file.text(first));
                    words
                        .iter()
                        .any(|w| matches!(w.as_str(), "prefix" | "path" | "base" | "url" | "root" | "mount"))
                }
            }
            "identifier" => {
                let text = self.file.text(first);
                let constant = text
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
                let words = crate::bridge::extract::code::guards::names::words(text);
                constant
                    || words
                        .iter()
                        .any(|w| matches!(w.as_str(), "prefix" | "path" | "base" | "url" | "root" | "mount"))
                    || self.guard_name(first).is_none()
            }
            _ => false,
        }
    }

    /// `fastify.register(plugin, { prefix: '/v1' })`, plugin imported or `import('./x')`.
    pub(super) fn register(&mut self, call: Node<'_>, object: Node<'_>, args: &[Node<'_>]) {
        if let Some((autoload, prefix)) = args
            .first()
            .and_then(|plugin| self.autoload(*plugin, args.get(1).copied()))
        {
            self.attach(call, object, Item::mount(&prefix, Target::Autoload(autoload)));
            return;
        }
        let Some(target) = args.first().and_then(|plugin| self.target(*plugin)) else {
            return;
        };
        let prefix = args
            .get(1)
            .and_then(|options| property(self.file, *options, "prefix"))
            .and_then(|prefix| self.constants.render_prefix(self.file, prefix))
            .unwrap_or_default();
        self.attach(call, object, Item::mount(&prefix, Target::Ref(target)));
    }

    /// `fastify.route({ method: ['GET', 'POST'], url: '/x', handler })`.
    pub(super) fn route_object(&mut self, call: Node<'_>, object: Node<'_>, options: Node<'_>) {
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
        let guards = self.option_guards(options);
        for method in methods {
            let mut route = self.route(&method, path.clone(), &[]);
            route.handler = handler.clone();
            route.guards = guards.clone();
            self.shape_hints(options, &mut route.request_hints, &mut route.response_hints);
            self.attach(call, object, Item::Route(route));
        }
    }

    /// `registerUserRoutes(app)`: a function handed a receiver adds its routes to it.
    pub(super) fn pass_through(&mut self, call: Node<'_>, function: Node<'_>) {
        if !matches!(function.kind(), "identifier" | "member_expression") {
            return;
        }
        for arg in arguments(call) {
            if arg.kind() == "identifier" && self.receiver(call, arg).is_some() {
                let target = Target::Ref(self.file.text(function).to_owned());
                self.attach(call, arg, Item::mount("", target));
                return;
            }
        }
    }

    /// What a mount argument names: `router`, `users.router`, `router.routes()`, `require('./x')`,
    /// `import('./x')`.
    pub(super) fn target(&self, node: Node<'_>) -> Option<String> {
        let mut node = node;
        for _ in 0..MAX_WRAPPING {
            node = unwrap_parens(node);
            match node.kind() {
                "identifier" | "member_expression" => return Some(self.file.text(node).to_owned()),
                "await_expression" => node = node.named_child(0)?,
                "call_expression" | "new_expression" => {
                    if let Some(source) = required_source(self.file, node) {
                        return Some(format!("module:{source}"));
                    }
                    let base = self.chain_base(node);
                    if base != node || node.kind() == "new_expression" {
                        let callee = base.field("function").or_else(|| base.field("constructor"))?;
                        return self
                            .constructor(callee, base.kind() == "new_expression")
                            .map(|_| self.chain_name(base));
                    }
                    let function = node.field("function")?;
                    if function.kind() == "identifier" && arguments(node).is_empty() {
                        // `routes()`: a router factory of this file or the project's.
                        let name = self.file.text(function);
                        return self.is_project_name(name).then(|| name.to_owned());
                    }
                    if function.kind() == "import" {
                        let source = string(self.file, *arguments(node).first()?)?;
                        return Some(format!("module:{source}"));
                    }
                    match function.field("property").map(|p| self.file.text(p)) {
                        Some("routes" | "middleware") => node = function.field("object")?,
                        _ => return None,
                    }
                }
                _ => return None,
            }
        }
        None
    }
}
