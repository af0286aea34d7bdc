//! FastAPI and Flask: `APIRouter(prefix=…)`/`FastAPI()` and `Blueprint(url_prefix=…)`/`Flask()`
//! objects, route decorators (`@router.get`, `@app.api_route(methods=…)`, `@bp.route(methods=…)`,
//! `@bp.post`), `add_url_rule`, and mounts (`include_router(prefix=…)`,
//! `register_blueprint(url_prefix=…)`, a function handed the app).

mod guards;

use tree_sitter::Node;

use super::graph::{Item, LocalRoute, Mount, Target, Unit};
use super::{Receiver, RouteScan, render_route_path};
use crate::bridge::extract::code::modules::python::PythonModule;
use crate::bridge::extract::syntax::literal::{Constants, string};
use crate::bridge::extract::syntax::python::{assignment, decorated, keyword, last_segment, positional};
use crate::bridge::extract::syntax::{Fields, NodeIndex, ParsedFile, ancestor, named_children};

/// Decorator methods that declare one HTTP method.
const METHODS: &[&str] = &["get", "post", "put", "patch", "delete", "options", "head"];

/// Default values that make a FastAPI parameter something other than the request body.
const NOT_BODY: &[&str] = &[
    "Depends", "Security", "Query", "Path", "Header", "Cookie", "File", "Form",
];

/// How far up a receiver's enclosing function is looked for.
const MAX_SCOPE_DEPTH: usize = 64;

/// Reads the FastAPI and Flask routes and mounts of one Python file into `out`.
pub fn scan(
    file: &ParsedFile<'_>,
    index: &NodeIndex<'_>,
    module: &PythonModule,
    constants: &Constants,
    out: &mut RouteScan,
) {
    let hint = framework_of(module);
    let mut scanner = Scanner {
        file,
        module,
        constants,
        hint,
        out,
    };
    index.each(
        &[
            "expression_statement",
            "decorated_definition",
            "call",
            "function_definition",
            "class_definition",
        ],
        |node| match node.kind() {
            "expression_statement" => {
                if let Some((name, _, Some(value))) = assignment(file, node) {
                    scanner.declaration(&name, value);
                }
                scanner.module_assignment(node);
            }
            "decorated_definition" => scanner.decorated(node),
            "call" => scanner.call(node),
            "function_definition" => scanner.candidate(node),
            "class_definition" => scanner.scheme_class(node),
            _ => {}
        },
    );
}

fn framework_of(module: &PythonModule) -> &'static str {
    for import in module.imports.values() {
        match import.module.split('.').next() {
            Some("fastapi") => return "fastapi",
            Some("flask") => return "flask",
            _ => {}
        }
    }
    ""
}

struct Scanner<'s, 'a> {
    file: &'s ParsedFile<'a>,
    module: &'s PythonModule,
    constants: &'s Constants,
    hint: &'static str,
    out: &'s mut RouteScan,
}

impl Scanner<'_, '_> {
    /// `router = APIRouter(prefix=…)`, `app = FastAPI()`, `bp = Blueprint(…, url_prefix=…)`, `app = Flask(__name__)`.
    fn declaration(&mut self, name: &str, value: Node<'_>) {
        if value.kind() != "call" {
            return;
        }
        let Some(function) = value.field("function") else {
            return;
        };
        let (framework, app, prefix_keyword) = match last_segment(self.file.text(function)) {
            "APIRouter" => ("fastapi", false, "prefix"),
            "FastAPI" => ("fastapi", true, "prefix"),
            "Blueprint" => ("flask", false, "url_prefix"),
            "Flask" => ("flask", true, "url_prefix"),
            _ => return,
        };
        let prefix = keyword(self.file, value, prefix_keyword)
            .and_then(|prefix| self.constants.render_prefix(self.file, prefix))
            .unwrap_or_default();
        let guards = self.dependency_guards(value);
        let key = (self.file.path.to_owned(), name.to_owned());
        self.out.declare(Unit {
            key,
            framework,
            prefix,
            app,
            ..Unit::default()
        });
        self.out.unit(self.file.path, name, framework).guards = guards;
    }

    /// A function under route decorators.
    fn decorated(&mut self, node: Node<'_>) {
        let Some((decorators, definition)) = decorated(node) else {
            return;
        };
        if definition.kind() != "function_definition" {
            return;
        }
        let handler = self.file.field_text(definition, "name").map(str::to_owned);
        let guards = self.decorator_guards(&decorators);
        let dependencies = self.dependencies(definition);
        for decorator in &decorators {
            if let Some(object) = self.before_request(*decorator)
                && let Some(guard) = self.before_request_guard(definition)
            {
                self.attach(node, object, Item::UnitGuard(guard));
            }
        }
        for decorator in &decorators {
            let Some(call) = decorator.named_child(0).filter(|call| call.kind() == "call") else {
                continue;
            };
            let Some(function) = call.field("function").filter(|f| f.kind() == "attribute") else {
                continue;
            };
            let (Some(object), Some(method)) = (function.field("object"), self.file.field_text(function, "attribute"))
            else {
                continue;
            };
            let methods: Vec<String> = match method {
                "route" | "api_route" => self.methods_keyword(call).unwrap_or_else(|| vec!["GET".into()]),
                method if METHODS.contains(&method) => vec![method.to_ascii_uppercase()],
                _ => continue,
            };
            let path_node = positional(call)
                .first()
                .copied()
                .or_else(|| keyword(self.file, call, "path"));
            let Some(path) = path_node.and_then(|p| render_route_path(self.file, self.constants, p)) else {
                continue;
            };
            let response = keyword(self.file, call, "response_model").map(|model| self.file.text(model).to_owned());
            let (request_hints, response_hints) = self.signature_hints(definition);
            let mut route_guards = self.dependency_guards(call);
            route_guards.extend(guards.iter().cloned());
            let mut forms = if self.hint == "flask" {
                self.view_forms(definition)
            } else {
                Vec::new()
            };
            forms.extend(self.argument_schemas(&decorators));
            for method in methods {
                let mut request_hints = request_hints.clone();
                if !matches!(method.as_str(), "GET" | "HEAD" | "OPTIONS" | "DELETE") {
                    request_hints.extend(forms.iter().cloned());
                }
                let route = LocalRoute {
                    method,
                    path: path.clone(),
                    handler: handler.clone(),
                    response: response.clone(),
                    request_hints,
                    response_hints: response_hints.clone(),
                    guards: route_guards.clone(),
                    dependencies: dependencies.direct.clone(),
                    guard_aliases: dependencies.aliases.clone(),
                    file: self.file.path.to_owned(),
                    ..LocalRoute::default()
                };
                self.attach(node, object, Item::Route(route));
            }
        }
    }

    /// True for `@router.get(…)`, `@bp.route(…)`, `@app.api_route(…)`.
    fn is_route_decorator(&self, decorator: Node<'_>) -> bool {
        decorator
            .named_child(0)
            .filter(|call| call.kind() == "call")
            .and_then(|call| call.field("function"))
            .filter(|f| f.kind() == "attribute")
            .and_then(|f| self.file.field_text(f, "attribute"))
            .is_some_and(|method| matches!(method, "route" | "api_route") || METHODS.contains(&method))
    }

    /// The blueprint or app a `@bp.before_request` / `@app.before_app_request` decorator is on.
    fn before_request<'t>(&self, decorator: Node<'t>) -> Option<Node<'t>> {
        let attribute = decorator.named_child(0).filter(|a| a.kind() == "attribute")?;
        matches!(
            self.file.field_text(attribute, "attribute"),
            Some("before_request" | "before_app_request")
        )
        .then(|| attribute.field("object"))
        .flatten()
    }

    /// `methods=["GET", "POST"]`.
    fn methods_keyword(&self, call: Node<'_>) -> Option<Vec<String>> {
        let list = keyword(self.file, call, "methods")?;
        let methods: Vec<String> = named_children(list)
            .into_iter()
            .filter_map(|method| string(self.file, method))
            .map(|method| method.to_ascii_uppercase())
            .collect();
        (!methods.is_empty()).then_some(methods)
    }

    /// Parameter types that may be the request body, and the return type.
    fn signature_hints(&self, definition: Node<'_>) -> (Vec<String>, Vec<String>) {
        let mut request = Vec::new();
        if let Some(parameters) = definition.field("parameters") {
            for parameter in named_children(parameters) {
                let Some(annotation) = parameter.field("type") else {
                    continue;
                };
                let default = parameter
                    .field("value")
                    .map(|value| self.file.text(value))
                    .unwrap_or("");
                if NOT_BODY.iter().any(|not| default.starts_with(not)) {
                    continue;
                }
                request.push(self.file.text(annotation).to_owned());
            }
        }
        let response = self
            .file
            .field_text(definition, "return_type")
            .map(str::to_owned)
            .into_iter()
            .collect();
        (request, response)
    }

    /// `include_router`, `register_blueprint`, `add_url_rule`, and a function handed the app.
    fn call(&mut self, call: Node<'_>) {
        let Some(function) = call.field("function") else {
            return;
        };
        if function.kind() != "attribute" {
            return self.pass_through(call, function);
        }
        let (Some(object), Some(method)) = (function.field("object"), self.file.field_text(function, "attribute"))
        else {
            return;
        };
        let args = positional(call);
        match method {
            "include_router" | "register_blueprint" => {
                let Some(target) = args.first().and_then(|target| self.target(*target)) else {
                    return;
                };
                let flask = method == "register_blueprint";
                let prefix_node = keyword(self.file, call, if flask { "url_prefix" } else { "prefix" });
                let prefix = prefix_node.and_then(|p| self.constants.render_prefix(self.file, p));
                let mount = Mount {
                    replace: flask && prefix.is_some(),
                    prefix: prefix.unwrap_or_default(),
                    target,
                    guards: self.dependency_guards(call),
                    ..Mount::default()
                };
                self.attach(call, object, Item::Mount(mount));
            }
            "add_url_rule" => {
                let Some(path) = args
                    .first()
                    .and_then(|rule| render_route_path(self.file, self.constants, *rule))
                else {
                    return;
                };
                let view = keyword(self.file, call, "view_func").or_else(|| args.get(2).copied());
                let handler = view.map(|view| self.file.text(view).to_owned());
                for method in self.methods_keyword(call).unwrap_or_else(|| vec!["GET".into()]) {
                    let route = LocalRoute {
                        method,
                        path: path.clone(),
                        handler: handler.clone(),
                        file: self.file.path.to_owned(),
                        ..LocalRoute::default()
                    };
                    self.attach(call, object, Item::Route(route));
                }
            }
            _ => self.pass_through(call, function),
        }
    }

    /// `register_routes(app)`: the function adds its routes to the app it is handed.
    fn pass_through(&mut self, call: Node<'_>, function: Node<'_>) {
        if !matches!(function.kind(), "identifier" | "attribute") {
            return;
        }
        for arg in positional(call) {
            if arg.kind() == "identifier" && self.receiver(call, arg).is_some() {
                let target = Target::Ref(self.file.text(function).to_owned());
                self.attach(call, arg, Item::mount("", target));
                return;
            }
        }
    }

    /// `users.router`, `users_router`, `bp`.
    fn target(&self, node: Node<'_>) -> Option<Target> {
        matches!(node.kind(), "identifier" | "attribute").then(|| Target::Ref(self.file.text(node).to_owned()))
    }

    fn attach(&mut self, at: Node<'_>, object: Node<'_>, item: Item) {
        if let Some(receiver) = self.receiver(at, object) {
            self.out.add(self.file.path, self.hint, receiver, item);
        }
    }

    fn receiver(&self, at: Node<'_>, object: Node<'_>) -> Option<Receiver> {
        if object.kind() != "identifier" {
            return None;
        }
        let name = self.file.text(object);
        let function = self.enclosing_function_with_param(at, name);
        let imported = self.module.imports.contains_key(name);
        Receiver::named(name, function, self.file.path, self.out, imported)
    }

    fn enclosing_function_with_param(&self, node: Node<'_>, param: &str) -> Option<String> {
        let mut current = node;
        for _ in 0..MAX_SCOPE_DEPTH {
            current = ancestor(current, "function_definition", MAX_SCOPE_DEPTH)?;
            let parameters = current.field("parameters")?;
            let has = named_children(parameters).into_iter().any(|parameter| {
                let name = match parameter.kind() {
                    "identifier" => Some(parameter),
                    _ => parameter.field("name").or_else(|| parameter.named_child(0)),
                };
                name.is_some_and(|name| self.file.text(name) == param)
            });
            if has {
                return self.file.field_text(current, "name").map(str::to_owned);
            }
        }
        None
    }
}
