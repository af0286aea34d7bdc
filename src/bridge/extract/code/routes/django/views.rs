//! Django and DRF views, read from the modules that define them: class-based views with their
//! bases (and the classes that may be their bases: local `APIView` subclasses, mixins), the
//! handler and action methods they define, `@action` routes, `permission_classes`,
//! `serializer_class`, `lookup_field`, `http_method_names`, `authentication_classes` (named
//! as guards in use); function views with `@api_view`, `@require_http_methods`,
//! `@permission_classes` and auth decorators. Linking expands the views a URLconf names into
//! routes.

use tree_sitter::Node;

use super::super::RouteScan;
use crate::bridge::extract::code::guards::{GuardNote, Role, is_auth_name};
use crate::bridge::extract::syntax::literal::string;
use crate::bridge::extract::syntax::python::{
    assignment, bases, body_statements, decorated, keyword, last_segment, positional,
};
use crate::bridge::extract::syntax::{Fields, ParsedFile, Walk, named_children, walk};

/// Methods of a class-based view that handle an HTTP method or a viewset action.
const HANDLERS: &[&str] = &[
    "get",
    "post",
    "put",
    "patch",
    "delete",
    "head",
    "options",
    "list",
    "create",
    "retrieve",
    "update",
    "partial_update",
    "destroy",
];

/// Methods that read a request body.
const BODY_HANDLERS: &[&str] = &["post", "put", "patch", "create", "update", "partial_update"];

/// Most nodes of one method searched for the serializer it reads the body with.
const MAX_METHOD_NODES: usize = 10_000;

/// What one module says of Django: views, routers, settings.
#[derive(Debug, Clone, Default)]
pub struct DjangoScan {
    pub views: Vec<View>,
    /// DRF routers and whether their routes end with a slash.
    pub routers: Vec<(String, bool)>,
    /// `REST_FRAMEWORK['DEFAULT_PERMISSION_CLASSES']` and `['DEFAULT_AUTHENTICATION_CLASSES']`.
    pub default_permissions: Vec<String>,
    pub authentication: Vec<String>,
    /// Module-level views made of classes: `user_detail_view = UserDetailView.as_view()`, as
    /// (name, class as written).
    pub aliases: Vec<(String, String)>,
}

/// A class-based or function view.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct View {
    pub name: String,
    pub function: bool,
    pub bases: Vec<String>,
    /// Handler and action methods the class defines (`get`, `create`, …).
    pub methods: Vec<String>,
    pub actions: Vec<Action>,
    /// `permission_classes`, as written; `None` when the view does not set it.
    pub permissions: Option<Vec<String>>,
    pub serializer: Option<String>,
    /// Handler methods that read the body with a serializer: (method, serializer).
    pub bodies: Vec<(String, String)>,
    pub lookup: Option<String>,
    /// `http_method_names`, `@api_view([...])`, `@require_http_methods([...])`, upper case.
    pub allowed: Option<Vec<String>>,
    /// Auth decorators and mixins (`login_required`, `LoginRequiredMixin`).
    pub guards: Vec<String>,
    /// No view by its own bases (`class BoardApi(BaseApi)`, `class ApiAuthMixin:`): one
    /// through a base the run defines (`BaseApi(APIView)`, maybe in another module) or for
    /// the views that extend it, which lend its handlers and permission classes.
    pub part: bool,
}

/// `@action(detail=True, methods=['post'], url_path='favorite')` on a viewset method.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Action {
    pub name: String,
    pub detail: bool,
    pub methods: Vec<String>,
    pub url_path: String,
}

/// Reads the views and permission classes of one module into `out`.
pub fn scan(file: &ParsedFile<'_>, out: &mut RouteScan) {
    for statement in named_children(file.root()) {
        let (decorators, definition) = decorated(statement).unwrap_or((Vec::new(), statement));
        match definition.kind() {
            "class_definition" => class(file, definition, &decorators, out),
            "function_definition" if !decorators.is_empty() => function(file, definition, &decorators, out),
            _ => {
                if let Some(alias) = alias(file, statement) {
                    out.django.aliases.push(alias);
                }
            }
        }
    }
}

/// `user_detail_view = UserDetailView.as_view()`: the name and the class.
fn alias(file: &ParsedFile<'_>, statement: Node<'_>) -> Option<(String, String)> {
    let (name, _, value) = assignment(file, statement)?;
    let function = value.filter(|v| v.kind() == "call")?.field("function")?;
    if function.kind() != "attribute" || file.field_text(function, "attribute") != Some("as_view") {
        return None;
    }
    Some((name, file.text(function.field("object")?).to_owned()))
}

fn class(file: &ParsedFile<'_>, class: Node<'_>, decorators: &[Node<'_>], out: &mut RouteScan) {
    let Some(name) = file.field_text(class, "name") else {
        return;
    };
    let class_bases: Vec<String> = bases(file, class).into_iter().map(str::to_owned).collect();
    let last = |base: &String| last_segment(base).to_owned();
    if class_bases.iter().any(|b| matches!(last(b).as_str(), "BasePermission")) {
        out.guards
            .push(GuardNote::new(name, "permission", "django", Role::Defined, file.path));
        return;
    }
    if class_bases.iter().any(|b| last(b).ends_with("Authentication")) && name.ends_with("Authentication") {
        out.guards.push(GuardNote::new(
            name,
            "authentication",
            "django",
            Role::Defined,
            file.path,
        ));
        return;
    }
    // Mixins alone make no view (`class User(AbstractBaseUser, PermissionsMixin)`); such a
    // class is kept as a part, which only counts when a view extends it or a URLconf names it.
    let viewish = class_bases.iter().any(|b| {
        let b = last(b);
        b.ends_with("View") || b.ends_with("ViewSet") || b == "GenericAPIView"
    });
    let mut view = View {
        part: !viewish,
        name: name.to_owned(),
        bases: class_bases.clone(),
        guards: class_bases
            .iter()
            .map(last)
            .filter(|b| b.ends_with("Mixin") && is_auth_name(b))
            .collect(),
        ..View::default()
    };
    view.guards
        .extend(decorators.iter().filter_map(|d| method_decorator_guard(file, *d)));
    for statement in body_statements(class) {
        let (method_decorators, definition) = decorated(statement).unwrap_or((Vec::new(), statement));
        if definition.kind() == "function_definition" {
            let Some(method) = file.field_text(definition, "name") else {
                continue;
            };
            if let Some(action) = method_decorators.iter().find_map(|d| action(file, *d, method)) {
                if action.methods.iter().any(|m| m != "GET")
                    && let Some(serializer) = body_serializer(file, definition)
                {
                    view.bodies.push((method.to_owned(), serializer));
                }
                view.actions.push(action);
            } else if HANDLERS.contains(&method) {
                view.methods.push(method.to_owned());
                if BODY_HANDLERS.contains(&method)
                    && let Some(serializer) = body_serializer(file, definition)
                {
                    view.bodies.push((method.to_owned(), serializer));
                }
            }
            continue;
        }
        let Some((attribute, _, Some(value))) = assignment(file, statement) else {
            continue;
        };
        match attribute.as_str() {
            "permission_classes" => view.permissions = Some(names(file, value)),
            // Authentication identifies the user; it guards no route itself (the permission
            // classes do), so the classes are named as guards the code uses.
            "authentication_classes" => {
                for name in names(file, value) {
                    let note = GuardNote::new(&name, "authentication", "django", Role::Used, file.path);
                    if !out.guards.contains(&note) {
                        out.guards.push(note);
                    }
                }
            }
            "serializer_class" => view.serializer = Some(file.text(value).to_owned()),
            "lookup_url_kwarg" => view.lookup = string(file, value).or(view.lookup),
            "lookup_field" if view.lookup.is_none() => view.lookup = string(file, value),
            "http_method_names" => {
                view.allowed = Some(
                    named_children(value)
                        .into_iter()
                        .filter_map(|m| string(file, m))
                        .map(|m| m.to_ascii_uppercase())
                        .collect(),
                )
            }
            _ => {}
        }
    }
    let says_nothing = view.methods.is_empty()
        && view.actions.is_empty()
        && view.permissions.is_none()
        && view.serializer.is_none()
        && view.allowed.is_none();
    if view.part && class_bases.is_empty() && says_nothing {
        return;
    }
    note_permissions(file, &view, out);
    out.django.views.push(view);
}

/// `@method_decorator(login_required, name='dispatch')` on a class.
fn method_decorator_guard(file: &ParsedFile<'_>, decorator: Node<'_>) -> Option<String> {
    let call = decorator.named_child(0).filter(|c| c.kind() == "call")?;
    if last_segment(file.text(call.field("function")?)) != "method_decorator" {
        return None;
    }
    let guard = positional(call).first().map(|g| file.text(*g).to_owned())?;
    is_auth_name(&guard).then_some(guard)
}

fn function(file: &ParsedFile<'_>, definition: Node<'_>, decorators: &[Node<'_>], out: &mut RouteScan) {
    let Some(name) = file.field_text(definition, "name") else {
        return;
    };
    let mut view = View {
        name: name.to_owned(),
        function: true,
        ..View::default()
    };
    for decorator in decorators {
        let Some(expression) = decorator.named_child(0) else {
            continue;
        };
        let (callee, call) = match expression.kind() {
            "call" => (
                expression.field("function").map(|f| file.text(f)).unwrap_or(""),
                Some(expression),
            ),
            _ => (file.text(expression), None),
        };
        let first_list = || {
            call.and_then(|c| positional(c).first().copied()).map(|list| {
                named_children(list)
                    .into_iter()
                    .filter_map(|m| string(file, m))
                    .map(|m| m.to_ascii_uppercase())
                    .collect::<Vec<_>>()
            })
        };
        match last_segment(callee) {
            "api_view" | "require_http_methods" => view.allowed = first_list().or(Some(vec!["GET".into()])),
            "require_POST" => view.allowed = Some(vec!["POST".into()]),
            "require_GET" | "require_safe" => view.allowed = Some(vec!["GET".into()]),
            "permission_classes" => {
                view.permissions = call.and_then(|c| positional(c).first().map(|l| names(file, *l)))
            }
            _ if is_auth_name(callee) => view.guards.push(callee.to_owned()),
            _ => {}
        }
    }
    if view.allowed.is_none() && view.permissions.is_none() && view.guards.is_empty() {
        return;
    }
    note_permissions(file, &view, out);
    out.django.views.push(view);
}

/// The names of a `(IsAuthenticated, IsOwner)` or `[permissions.IsAdminUser]` list.
fn names(file: &ParsedFile<'_>, list: Node<'_>) -> Vec<String> {
    named_children(list)
        .into_iter()
        .filter(|item| matches!(item.kind(), "identifier" | "attribute"))
        .map(|item| last_segment(file.text(item)).to_owned())
        .collect()
}

/// Notes the permission classes and guards a view (or a part, its permission classes) uses.
fn note_permissions(file: &ParsedFile<'_>, view: &View, out: &mut RouteScan) {
    for permission in view.permissions.iter().flatten().filter(|p| *p != "AllowAny") {
        let note = GuardNote::new(permission, "permission", "django", Role::Used, file.path);
        if !out.guards.contains(&note) {
            out.guards.push(note);
        }
    }
    // A part's mixins (a user model's `PermissionsMixin`) guard nothing until a view extends it.
    for guard in view.guards.iter().filter(|_| !view.part) {
        let kind = if guard.ends_with("Mixin") { "mixin" } else { "decorator" };
        let note = GuardNote::new(guard, kind, "django", Role::Used, file.path);
        if !out.guards.contains(&note) {
            out.guards.push(note);
        }
    }
}

/// `@action(detail=True, methods=['post'], url_path='x')` on method `name`.
fn action(file: &ParsedFile<'_>, decorator: Node<'_>, name: &str) -> Option<Action> {
    let call = decorator.named_child(0).filter(|c| c.kind() == "call")?;
    if !matches!(
        last_segment(file.text(call.field("function")?)),
        "action" | "detail_route" | "list_route"
    ) {
        return None;
    }
    let detail = keyword(file, call, "detail").is_some_and(|d| file.text(d) == "True")
        || file.text(call).starts_with("detail_route");
    let methods = keyword(file, call, "methods")
        .map(|list| {
            named_children(list)
                .into_iter()
                .filter_map(|m| string(file, m))
                .map(|m| m.to_ascii_uppercase())
                .collect()
        })
        .filter(|m: &Vec<String>| !m.is_empty())
        .unwrap_or_else(|| vec!["GET".into()]);
    let url_path = keyword(file, call, "url_path")
        .and_then(|p| string(file, p))
        .unwrap_or_else(|| name.to_owned());
    Some(Action {
        name: name.to_owned(),
        detail,
        methods,
        url_path,
    })
}

/// The serializer a handler method reads the request body with: `self.serializer_class(data=…)`
/// (the view's own, named `serializer_class`), `self.get_serializer(data=…)`, `XSerializer(data=…)`.
fn body_serializer(file: &ParsedFile<'_>, method: Node<'_>) -> Option<String> {
    let mut found = None;
    let mut budget = MAX_METHOD_NODES;
    walk(method, |node| {
        budget = budget.saturating_sub(1);
        if budget == 0 || found.is_some() {
            return Walk::Stop;
        }
        if node.kind() == "call"
            && keyword(file, node, "data").is_some()
            && let Some(callee) = node.field("function").map(|f| file.text(f))
        {
            let last = last_segment(callee);
            if matches!(last, "serializer_class" | "get_serializer") {
                found = Some("serializer_class".to_owned());
            } else if last.ends_with("Serializer") {
                found = Some(last.to_owned());
            }
        }
        Walk::Enter
    });
    found
}
