//! Django and REST framework views from `django/views.scm`'s captures, for the URLconfs'
//! linking (`extract::code::routes::link::django`): which module-level classes are views
//! (a base ending in `View`/`ViewSet`) and which are parts lending handlers to views that
//! extend them; permission and authentication classes defined (`BasePermission`, an
//! `…Authentication` base) and used (`permission_classes`, `authentication_classes`, auth
//! mixins and decorators); a viewset's `@action` routes; the serializer a handler reads the
//! body with; function views by their decorators (`@api_view`, `@require_http_methods`).

use std::ops::Range;

use super::hits::{Capture, Hit, inside};
use super::text::literal;
use crate::bridge::extract::code::guards::{GuardNote, Role, is_auth_name};
use crate::bridge::extract::code::routes::django::views::{Action, View};

/// Methods that read a request body.
const BODY_HANDLERS: &[&str] = &["post", "put", "patch", "create", "update", "partial_update"];

/// What one module's views say: the views, `x_view = XView.as_view()` aliases as (name,
/// class), and guard notes.
#[derive(Debug, Default)]
pub struct Views {
    pub views: Vec<View>,
    pub aliases: Vec<(String, String)>,
    pub guards: Vec<GuardNote>,
}

impl Views {
    /// Adds another block's views to these.
    pub fn append(&mut self, other: Views) {
        self.views.extend(other.views);
        self.aliases.extend(other.aliases);
        self.guards.extend(other.guards);
    }
}

/// A module-level class or function as its hits build it: the view, the authentication
/// classes it names, whether it is written at module level (named).
#[derive(Default)]
struct Found {
    view: View,
    authentication: Vec<String>,
}

/// A method of a class: its class, its place, its name, the `@action` on it.
struct Method {
    class: Range<usize>,
    at: Range<usize>,
    name: String,
    action: Option<Action>,
}

fn last(text: &str) -> &str {
    text.rsplit('.').next().unwrap_or(text)
}

/// A string literal's content; `None` for another expression.
fn string(text: &str) -> Option<String> {
    text.starts_with(['"', '\'']).then(|| literal(text))
}

/// Pushes `item` unless `list` holds it.
fn push_new(list: &mut Vec<String>, item: Option<String>) {
    if let Some(item) = item.filter(|item| !list.contains(item)) {
        list.push(item);
    }
}

/// The views, aliases and guard notes of one file's hits.
pub fn views(path: &str, hits: &[Hit<'_>]) -> Views {
    let mut out = Views::default();
    let mut found: Vec<(Range<usize>, Found)> = Vec::new();
    let mut methods: Vec<Method> = Vec::new();
    let mut bodies: Vec<&Capture<'_>> = Vec::new();
    for hit in hits.iter().filter(|hit| hit.is("view")) {
        if let Some(body) = hit.get("view.body") {
            bodies.push(body);
        }
        if let (Some(alias), Some(class)) = (hit.text("view.alias"), hit.text("view.alias_of")) {
            out.aliases.push((alias.to_owned(), class.to_owned()));
        }
        let Some(scope) = hit.get("view.scope") else { continue };
        let at = match found.iter().position(|(have, _)| *have == scope.range) {
            Some(at) => at,
            None => {
                found.push((scope.range.clone(), Found::default()));
                found.len() - 1
            }
        };
        let Found { view, authentication } = &mut found[at].1;
        let names = || hit.all("view.name_item").map(|item| last(item.text).to_owned());
        let upper = || hit.text("view.str_item").map(str::to_ascii_uppercase);
        if let Some(name) = hit.text("view.class").or(hit.text("view.function")) {
            view.name = name.to_owned();
            view.function = hit.get("view.function").is_some();
        }
        push_new(&mut view.bases, hit.text("view.base").map(str::to_owned));
        push_new(
            &mut view.guards,
            hit.text("view.class_guard")
                .filter(|g| is_auth_name(g))
                .map(str::to_owned),
        );
        if let Some(method) = hit.get("view.method_scope") {
            let name = hit.text("view.action").or(hit.text("view.method")).unwrap_or("");
            let at = match methods.iter().position(|have| have.at == method.range) {
                Some(at) => at,
                None => {
                    methods.push(Method {
                        class: scope.range.clone(),
                        at: method.range.clone(),
                        name: name.to_owned(),
                        action: None,
                    });
                    methods.len() - 1
                }
            };
            if let Some(call) = hit.text("view.action_call") {
                let action = methods[at].action.get_or_insert_with(|| Action {
                    name: name.to_owned(),
                    detail: call.starts_with("detail_route"),
                    url_path: name.to_owned(),
                    ..Action::default()
                });
                let value = hit.text("view.value").unwrap_or("");
                match hit.text("view.key") {
                    Some("detail") => action.detail |= value == "True",
                    Some("methods") => push_new(&mut action.methods, upper()),
                    Some("url_path") => action.url_path = string(value).unwrap_or(action.url_path.clone()),
                    _ => {}
                }
            }
        }
        let value = hit.text("view.value").unwrap_or("");
        match hit.text("view.attr").or(hit.text("view.decorator").map(last)) {
            Some("permission_classes") => view.permissions.get_or_insert_default().extend(names()),
            // Authentication identifies the user; it guards no route itself (the permission
            // classes do), so the classes are named as guards the code uses.
            Some("authentication_classes") => authentication.extend(names()),
            Some("serializer_class") => view.serializer = Some(value.to_owned()),
            Some("lookup_url_kwarg") => view.lookup = string(value).or(view.lookup.take()),
            Some("lookup_field") if view.lookup.is_none() => view.lookup = string(value),
            Some("http_method_names" | "api_view" | "require_http_methods") => {
                push_new(view.allowed.get_or_insert_default(), upper())
            }
            Some("require_POST") => view.allowed = Some(vec!["POST".into()]),
            Some("require_GET" | "require_safe") => view.allowed = Some(vec!["GET".into()]),
            _ => {
                let decorator = hit.text("view.decorator").filter(|d| is_auth_name(d));
                push_new(&mut view.guards, decorator.map(str::to_owned));
            }
        }
    }
    methods.sort_by_key(|method| method.at.start);
    for (
        scope,
        Found {
            mut view,
            authentication,
        },
    ) in found
    {
        if view.name.is_empty() {
            continue;
        }
        for Method { at, name, action, .. } in methods.iter().filter(|method| method.class == scope) {
            let body = bodies
                .iter()
                .find(|body| inside(&body.range, at))
                .map(|body| match last(body.text) {
                    "serializer_class" | "get_serializer" => "serializer_class".to_owned(),
                    other => other.to_owned(),
                });
            let reads = match action {
                Some(action) => {
                    let mut action = action.clone();
                    if action.methods.is_empty() {
                        action.methods.push("GET".into());
                    }
                    let reads = action.methods.iter().any(|m| m != "GET");
                    view.actions.push(action);
                    reads
                }
                None => {
                    view.methods.push(name.clone());
                    BODY_HANDLERS.contains(&name.as_str())
                }
            };
            if let Some(serializer) = body.filter(|_| reads) {
                view.bodies.push((name.clone(), serializer));
            }
        }
        if view.function {
            function(path, view, &mut out);
        } else {
            class(path, view, authentication, &mut out);
        }
    }
    out
}

/// One module-level class: a permission or authentication class, a view, a part, or nothing.
fn class(path: &str, mut view: View, authentication: Vec<String>, out: &mut Views) {
    let (name, bases) = (view.name.as_str(), &view.bases);
    if bases.iter().any(|b| last(b) == "BasePermission") {
        out.guards
            .push(GuardNote::new(name, "permission", "django", Role::Defined, path));
        return;
    }
    if bases.iter().any(|b| last(b).ends_with("Authentication")) && name.ends_with("Authentication") {
        out.guards
            .push(GuardNote::new(name, "authentication", "django", Role::Defined, path));
        return;
    }
    // Mixins alone make no view (`class User(AbstractBaseUser, PermissionsMixin)`); such a
    // class is kept as a part, which only counts when a view extends it or a URLconf names it.
    view.part = !bases
        .iter()
        .map(|b| last(b))
        .any(|b| b.ends_with("View") || b.ends_with("ViewSet") || b == "GenericAPIView");
    let mut guards: Vec<String> = bases
        .iter()
        .map(|b| last(b).to_owned())
        .filter(|b| b.ends_with("Mixin") && is_auth_name(b))
        .collect();
    guards.append(&mut view.guards);
    view.guards = guards;
    for name in authentication {
        used(out, GuardNote::new(&name, "authentication", "django", Role::Used, path));
    }
    let says_nothing = view.methods.is_empty()
        && view.actions.is_empty()
        && view.permissions.is_none()
        && view.serializer.is_none()
        && view.allowed.is_none();
    if view.part && view.bases.is_empty() && says_nothing {
        return;
    }
    note_permissions(path, &view, out);
    out.views.push(view);
}

/// A module-level function: a view by its decorators (`@api_view` answers GET unless it names
/// methods), else none.
fn function(path: &str, mut view: View, out: &mut Views) {
    if view.allowed.as_ref().is_some_and(Vec::is_empty) {
        view.allowed = Some(vec!["GET".into()]);
    }
    if view.allowed.is_none() && view.permissions.is_none() && view.guards.is_empty() {
        return;
    }
    note_permissions(path, &view, out);
    out.views.push(view);
}

/// Notes a guard in use once.
fn used(out: &mut Views, note: GuardNote) {
    if !out.guards.contains(&note) {
        out.guards.push(note);
    }
}

/// Notes the permission classes and guards a view (or a part, its permission classes) uses.
fn note_permissions(path: &str, view: &View, out: &mut Views) {
    for permission in view.permissions.iter().flatten().filter(|p| *p != "AllowAny") {
        used(
            out,
            GuardNote::new(permission, "permission", "django", Role::Used, path),
        );
    }
    // A part's mixins (a user model's `PermissionsMixin`) guard nothing until a view extends it.
    for guard in view.guards.iter().filter(|_| !view.part) {
        let kind = if guard.ends_with("Mixin") { "mixin" } else { "decorator" };
        used(out, GuardNote::new(guard, kind, "django", Role::Used, path));
    }
}
