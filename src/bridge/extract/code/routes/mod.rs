//! Backend endpoints: each framework's scanner reads routes and mounts per file into a
//! [`RouteScan`]; [`link`] resolves mounts across files and flattens them to full paths.

pub mod actix;
pub mod axum;
pub mod django;
pub mod graph;
pub mod link;
pub mod python;
#[cfg(test)]
mod tests;

use tree_sitter::Node;

use self::graph::{Item, Unit};
use crate::bridge::extract::code::guards::{GuardNote, Role, is_auth_name};
use crate::bridge::extract::syntax::literal::Constants;
use crate::bridge::extract::syntax::rust::handler_shapes;
use crate::bridge::extract::syntax::{Fields, NodeIndex, ParsedFile};

/// The routes one file declares, before files are linked.
#[derive(Debug, Default)]
pub struct RouteScan {
    /// Apps, routers, blueprints, plugin and route functions declared in the file.
    pub units: Vec<Unit>,
    /// Routes and mounts added to a receiver imported from another file: `(name, framework, item)`.
    pub foreign: Vec<(String, &'static str, Item)>,
    /// NestJS `app.setGlobalPrefix('api')`.
    pub global_prefix: Option<String>,
    /// Rust handlers that take or return `Json<T>`, matched to routes by name when linking.
    pub handlers: Vec<HandlerShapes>,
    /// Guards the file defines, uses, or may define.
    pub guards: Vec<GuardNote>,
    /// FastAPI aliases of dependencies: `CurrentUser = Annotated[User, Depends(get_current_user)]`.
    pub aliases: Vec<(String, String)>,
    /// FastAPI security scheme instances (`oauth2_scheme = OAuth2PasswordBearer(…)`).
    pub schemes: Vec<String>,
    /// NestJS guards on every route (`APP_GUARD` providers).
    pub nest_global_guards: Vec<String>,
    /// NestJS middleware bound to routes (`consumer.apply(…).forRoutes(…)`).
    pub nest_bindings: Vec<link::nest::Binding>,
    /// Django views, routers and REST framework settings.
    pub django: django::views::DjangoScan,
}

/// What a routing call in a script or Python file adds to: a unit of the file, or a name
/// imported from another file (linked later).
enum Receiver {
    Local(String),
    Foreign(String),
}

impl Receiver {
    /// The receiver `name` is in `file`: a parameter of the enclosing function `function` (that
    /// function becomes a unit), a unit the file declares, or an `imported` name; else none.
    fn named(name: &str, function: Option<String>, file: &str, out: &RouteScan, imported: bool) -> Option<Receiver> {
        if let Some(function) = function {
            return Some(Receiver::Local(function));
        }
        if out.declares(file, name) {
            return Some(Receiver::Local(name.to_owned()));
        }
        imported.then(|| Receiver::Foreign(name.to_owned()))
    }
}

/// The request and response shapes a handler function names in its signature, and the
/// extractors it takes (`auth: AuthUser`), which are guards when they are auth extractors.
#[derive(Debug, Clone, Default)]
pub struct HandlerShapes {
    pub name: String,
    pub request: Option<String>,
    pub response: Option<String>,
    pub extractors: Vec<String>,
    pub file: String,
}

impl RouteScan {
    /// Moves another scan's units, foreign items, guard notes and NestJS app settings of the
    /// same file into these (a unit both name gets the other's items).
    pub fn append(&mut self, other: RouteScan) {
        for unit in other.units {
            match self.units.iter_mut().find(|have| have.key == unit.key) {
                Some(have) => {
                    have.items.extend(unit.items);
                    have.app |= unit.app;
                    if have.framework.is_empty() {
                        have.framework = unit.framework;
                    }
                }
                None => self.units.push(unit),
            }
        }
        self.foreign.extend(other.foreign);
        self.guards.extend(other.guards);
        self.global_prefix = other.global_prefix.or(self.global_prefix.take());
        self.nest_global_guards.extend(other.nest_global_guards);
        self.nest_bindings.extend(other.nest_bindings);
        self.django.routers.extend(other.django.routers);
    }

    /// Declares a unit; a second declaration of the same name updates the first.
    pub fn declare(&mut self, unit: Unit) {
        match self.units.iter_mut().find(|have| have.key == unit.key) {
            Some(have) => {
                have.framework = unit.framework;
                have.prefix = unit.prefix;
                have.app |= unit.app;
            }
            None => self.units.push(unit),
        }
    }

    /// True if `file` declares a unit `name`.
    pub fn declares(&self, file: &str, name: &str) -> bool {
        self.units.iter().any(|unit| unit.key.0 == file && unit.key.1 == name)
    }

    /// Adds `item` to `receiver` of `file`: to its unit (made with `framework` if need be), or,
    /// for an imported receiver, to the foreign items linked later.
    fn add(&mut self, file: &str, framework: &'static str, receiver: Receiver, item: Item) {
        match receiver {
            Receiver::Local(name) => self.unit(file, &name, framework).items.push(item),
            Receiver::Foreign(name) => self.foreign.push((name, framework, item)),
        }
    }

    /// The unit `name` of `file`, made (with `framework`, no prefix) if it is not declared yet.
    pub fn unit(&mut self, file: &str, name: &str, framework: &'static str) -> &mut Unit {
        let at = match self
            .units
            .iter()
            .position(|unit| unit.key.0 == file && unit.key.1 == name)
        {
            Some(at) => at,
            None => {
                self.units.push(Unit {
                    key: (file.to_owned(), name.to_owned()),
                    framework,
                    prefix: String::new(),
                    items: Vec::new(),
                    app: false,
                    ..Unit::default()
                });
                self.units.len() - 1
            }
        };
        &mut self.units[at]
    }
}

/// Calls `scan` with every Rust function of the file that has a name and a body, after
/// recording the `Json<T>` request and response its signature names (matched to routes by
/// name when linking).
pub fn each_rust_function<'t>(
    file: &ParsedFile<'_>,
    index: &NodeIndex<'t>,
    out: &mut RouteScan,
    mut scan: impl FnMut(&mut RouteScan, Node<'t>, &str, Node<'t>),
) {
    index.each(&["function_item"], |node| {
        if node.kind() != "function_item" {
            return;
        }
        let (Some(name), Some(body)) = (file.field_text(node, "name"), node.field("body")) else {
            return;
        };
        let (request, response) = handler_shapes(file, node);
        let extractors = extractor_types(file, node);
        if request.is_some() || response.is_some() || !extractors.is_empty() {
            out.handlers.push(HandlerShapes {
                name: name.to_owned(),
                request,
                response,
                extractors,
                file: file.path.to_owned(),
            });
        }
        scan(out, node, name, body);
    });
}

/// `impl<S> FromRequestParts<S> for AuthUser`, `impl FromRequest for AuthUser`: an auth
/// extractor, a guard on every handler that takes it; and the auth-named functions of the
/// file, where a middleware layered elsewhere may be defined.
pub fn extractor_definitions(file: &ParsedFile<'_>, index: &NodeIndex<'_>, out: &mut RouteScan) {
    let framework = if file.text.contains("actix") { "actix" } else { "axum" };
    // An auth-named function may be middleware a router elsewhere layers (`from_fn(require_auth)`).
    for item in crate::bridge::extract::syntax::named_children(file.root()) {
        if item.kind() == "function_item"
            && let Some(name) = file.field_text(item, "name")
            && is_auth_name(name)
        {
            out.guards
                .push(GuardNote::new(name, "layer", framework, Role::Candidate, file.path));
        }
    }
    index.each(&["impl_item"], |item| {
        let (Some(trait_name), Some(kind)) = (item.field("trait"), item.field("type")) else {
            return;
        };
        let trait_name = file.text(trait_name);
        let trait_name = trait_name.split('<').next().unwrap_or(trait_name);
        if !matches!(
            crate::bridge::extract::syntax::rust::last_segment(trait_name),
            "FromRequestParts" | "FromRequest"
        ) {
            return;
        }
        let name = file.text(kind);
        let name = name.split('<').next().unwrap_or(name);
        // An extractor that rejects an unauthenticated request: named so, or rejecting with an
        // auth error (`type Rejection = AuthRedirect`, `StatusCode::UNAUTHORIZED`).
        let body = file.text(item);
        let rejects = body.contains("UNAUTHORIZED")
            || body.contains("FORBIDDEN")
            || rejection(file, item).is_some_and(|r| is_auth_name(&r));
        if !name.starts_with("Maybe") && !name.starts_with("Optional") && (is_auth_name(name) || rejects) {
            out.guards
                .push(GuardNote::new(name, "extractor", framework, Role::Defined, file.path));
        }
    });
}

/// The `type Rejection = …;` of an extractor impl.
fn rejection(file: &ParsedFile<'_>, item: Node<'_>) -> Option<String> {
    let body = item.field("body")?;
    crate::bridge::extract::syntax::named_children(body)
        .into_iter()
        .filter(|member| member.kind() == "type_item" && file.field_text(*member, "name") == Some("Rejection"))
        .find_map(|member| file.field_text(member, "type").map(str::to_owned))
}

/// The plain types a Rust function's parameters have (`user: AuthUser`, `AuthUser(id):
/// AuthUser`, `claims: auth::Claims`); wrapped ones (`Option<AuthUser>`, `State<S>`) are
/// left out. Linking keeps the auth extractors among them.
fn extractor_types(file: &ParsedFile<'_>, function: Node<'_>) -> Vec<String> {
    function
        .field("parameters")
        .map(crate::bridge::extract::syntax::named_children)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|parameter| parameter.field("type"))
        .filter(|kind| matches!(kind.kind(), "type_identifier" | "scoped_type_identifier"))
        .map(|kind| crate::bridge::extract::syntax::rust::last_segment(file.text(kind)).to_owned())
        .collect()
}

/// A route path argument with the file's constants filled in; a piece that cannot be
/// resolved stays as written. `None` when the argument is no string.
pub fn render_route_path(file: &ParsedFile<'_>, constants: &Constants, node: Node<'_>) -> Option<String> {
    constants.render_path(file, node)
}
