//! Express, Koa (koa-router) and Fastify: apps and routers made in a file, their routes
//! (`router.get(path, …handlers)`, `router.route(path).get().post()`, `fastify.route({…})`)
//! and mounts (`app.use('/api', router)`, `app.use(router.routes())`,
//! `fastify.register(plugin, { prefix })`, `registerRoutes(app)`).

mod autoload;
mod calls;
mod chains;
pub mod guards;

use tree_sitter::Node;

use super::graph::{Item, Target, Unit};
use super::{Receiver, RouteScan};
use crate::bridge::extract::code::modules::script::ScriptModule;
use crate::bridge::extract::syntax::literal::{Constants, unwrap_parens};
use crate::bridge::extract::syntax::script::{arguments, property, root_name};
use crate::bridge::extract::syntax::{Fields, NodeIndex, ParsedFile, named_children};

/// HTTP methods a router exposes as methods of its own.
const METHODS: &[&str] = &["get", "post", "put", "patch", "delete", "del", "options", "head", "all"];

/// Packages whose exports are apps or routers.
const ROUTER_PACKAGES: &[&str] = &["express", "koa", "@koa/router", "koa-router", "fastify"];

/// How far up a receiver's enclosing function is looked for.
const MAX_SCOPE_DEPTH: usize = 64;

/// How many wrappers (`asyncHandler(…)`, `await`, `.routes()`) are looked through.
const MAX_WRAPPING: usize = 8;

/// Reads the routes and mounts of one script file into `out`.
pub fn scan(
    file: &ParsedFile<'_>,
    index: &NodeIndex<'_>,
    module: &ScriptModule,
    constants: &Constants,
    out: &mut RouteScan,
) {
    let hint = framework_of(module);
    // Express routers are read by the rules (`families/express`).
    if hint == "express" {
        return;
    }
    let mut scanner = Scanner {
        file,
        module,
        constants,
        hint,
        out,
        attached: Vec::new(),
    };
    index.each(&["variable_declarator", "call_expression"], |node| match node.kind() {
        "variable_declarator" => scanner.declaration(node),
        "call_expression" => scanner.call(node),
        _ => {}
    });
    // A chain (`router.get(…).post(…)`) is met outermost call first: put items in source order.
    let Scanner { mut attached, out, .. } = scanner;
    attached.sort_by_key(|(position, _, _)| *position);
    for (_, receiver, item) in attached {
        out.add(file.path, hint, receiver, item);
    }
}

/// The framework a file imports, if any.
pub fn framework_of(module: &ScriptModule) -> &'static str {
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
    /// The framework the file imports (`""` when it imports none).
    hint: &'static str,
    out: &'s mut RouteScan,
    /// Items with where their call's arguments start, and the receiver they go to.
    attached: Vec<(usize, Receiver, Item)>,
}

impl Scanner<'_, '_> {
    /// `const app = express()`, `const router = Router()`, `new Router({ prefix })`, `Fastify()`.
    fn declaration(&mut self, declarator: Node<'_>) {
        let (Some(name), Some(value)) = (declarator.field("name"), declarator.field("value")) else {
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
            "call_expression" => value.field("function"),
            "new_expression" => value.field("constructor"),
            _ => None,
        };
        // A chain (`express.Router().get(…)`) is read as an unnamed router's calls instead.
        let Some(callee) = callee.filter(|c| !self.file.text(*c).contains('(')) else {
            return;
        };
        let Some((framework, app)) = self.constructor(callee, value.kind() == "new_expression") else {
            return;
        };
        let prefix = arguments(value)
            .first()
            .and_then(|options| property(self.file, *options, "prefix"))
            .and_then(|prefix| self.constants.resolve(self.file, prefix))
            .unwrap_or_default();
        let name = self.file.text(name);
        self.out.declare(Unit {
            key: (self.file.path.to_owned(), name.to_owned()),
            framework,
            prefix,
            app,
            ..Unit::default()
        });
        self.returned_by_factory(declarator, name);
    }

    /// A factory that makes a router and returns it (`export default () => { const app =
    /// Router(); auth(app); return app; }`): the function stands for that router, so
    /// `app.use('/api', routes())` mounts what it registered.
    fn returned_by_factory(&mut self, declarator: Node<'_>, name: &str) {
        let Some(function) = self.enclosing_function_node(declarator) else {
            return;
        };
        let returns_it = function.field("body").is_some_and(|body| {
            named_children(body).into_iter().any(|statement| {
                statement.kind() == "return_statement"
                    && statement
                        .named_child(0)
                        .is_some_and(|value| self.file.text(value) == name)
            })
        });
        let factory = self.function_name(function);
        if returns_it && factory != name {
            let item = Item::mount("", Target::Ref(name.to_owned()));
            self.attached
                .push((declarator.start_byte(), Receiver::Local(factory), item));
        }
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
        let Some(function) = call.field("function") else {
            return;
        };
        if function.kind() != "member_expression" {
            self.pass_through(call, function);
            return;
        }
        let (Some(object), Some(property_node)) = (function.field("object"), function.field("property")) else {
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
        } else if method == "addHook" {
            if let Some(guard) = self.hook_guard(&args) {
                self.attach(call, object, Item::UnitGuard(guard));
            }
        } else if matches!(method, "decorate" | "decorateRequest") {
            self.decorated_guard(&args);
        } else {
            self.pass_through(call, function);
        }
    }

    /// Adds `item` to the unit `object` names at `call`: a unit of this file, a function
    /// parameter (the function becomes a unit), or an imported name (linked later).
    fn attach(&mut self, call: Node<'_>, object: Node<'_>, item: Item) {
        if let Some(receiver) = self.receiver(call, object) {
            let position = arguments(call)
                .first()
                .map_or(call.start_byte(), |first| first.start_byte());
            self.attached.push((position, receiver, item));
        }
    }

    /// What a call on `object` adds to: the unit `object` names, or for a chain of router
    /// calls (`Router().use(a).use(b)`) the unit its base is.
    fn receiver(&mut self, call: Node<'_>, object: Node<'_>) -> Option<Receiver> {
        let object = self.chain_base(object);
        if object.kind() != "identifier" {
            return self.anonymous_unit(object).map(Receiver::Local);
        }
        let name = self.file.text(object);
        let function = self.enclosing_function_with_param(call, name);
        // A name from the project (`./app`, `@/server`) may be a router; one from a package that
        // is no router (`axios.get('/users', …)`) is not.
        let imported = self.is_project_name(name)
            || self
                .module
                .imports
                .get(name)
                .is_some_and(|import| ROUTER_PACKAGES.contains(&import.source.as_str()));
        Receiver::named(name, function, self.file.path, self.out, imported)
    }

    /// True for a name imported from the project (`./app`, `@/server`, `~/routes`).
    fn is_project_name(&self, name: &str) -> bool {
        self.module.imports.get(name).is_some_and(|import| {
            let source = import.source.as_str();
            source.starts_with('.') || source.starts_with("@/") || source.starts_with("~/")
        })
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
            let params = current.field("parameters").or_else(|| current.field("parameter"));
            let has_param = params.is_some_and(|params| {
                params.kind() == "identifier" && self.file.text(params) == param
                    || named_children(params).into_iter().any(|p| {
                        let pattern = p.field("pattern").unwrap_or(p);
                        match pattern.kind() {
                            "identifier" => self.file.text(pattern) == param,
                            // `({ app }: { app: Application }) => …`, as loaders take the app.
                            "object_pattern" => named_children(pattern).into_iter().any(|field| {
                                field.kind() == "shorthand_property_identifier_pattern"
                                    && self.file.text(field) == param
                            }),
                            _ => false,
                        }
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
