//! Django's views from `django/views.scm`'s captures, for the code extractor's URLconf
//! linking: which module-level classes are views (a base
//! ending in `View`/`ViewSet`) and which are parts lending handlers to views that extend
//! them; permission and authentication classes defined (`BasePermission`, an
//! `…Authentication` base) and used (`permission_classes`, `authentication_classes`, auth
//! mixins and decorators); a viewset's `@action` routes; the serializer a handler reads the
//! body with; function views by their decorators (the models are `django_models`'s).

use std::collections::BTreeMap;

use super::hits::{Capture, Hit};
use crate::bridge::code_model::guards::{GuardNote, Role, is_auth_name};
use crate::bridge::code_model::routes::RouteScan;
use crate::bridge::code_model::routes::django::views::{Action, View};
use crate::bridge::code_model::syntax::python::last_segment;

/// Methods that read a request body.
const BODY_HANDLERS: &[&str] = &["post", "put", "patch", "create", "update", "partial_update"];

/// A captured node's place: what the hits about one class, field or list are grouped by, in
/// the file's order.
type Key = (usize, usize);

fn key(capture: &Capture<'_>) -> Key {
    (capture.range.start, capture.range.end)
}

/// Pushes `item` unless `list` holds it.
fn push_new<T: PartialEq>(list: &mut Vec<T>, item: Option<T>) {
    if let Some(item) = item.filter(|item| !list.contains(item)) {
        list.push(item);
    }
}

/// A class's methods by place: name and the `@action` on it.
type Methods = BTreeMap<Key, (String, Option<Action>)>;

/// The views, `x_view = XView.as_view()` aliases (as name and class), the settings'
/// `DEFAULT_PERMISSION_CLASSES` (dotted as written) and the guard notes of one file's hits.
pub fn views(path: &str, hits: &[Hit<'_>], out: &mut RouteScan) {
    let django = &mut out.django;
    // Module-level classes and functions, with the authentication classes a class names.
    let mut found: BTreeMap<Key, (View, Vec<String>, Methods)> = BTreeMap::new();
    let mut bodies: BTreeMap<usize, &str> = BTreeMap::new();
    for hit in hits.iter().filter(|hit| hit.is("view")) {
        let text = |name: &str| hit.text(name).map(str::to_owned);
        bodies.extend(hit.get("view.body").map(|body| (body.range.start, body.text)));
        django.default_permissions.extend(text("view.default_permission"));
        if let (Some(alias), Some(class)) = (text("view.alias"), text("view.alias_of")) {
            django.aliases.push((alias, class));
        }
        let Some(scope) = hit.get("view.scope") else { continue };
        let (view, authentication, methods) = found.entry(key(scope)).or_default();
        let names = || hit.all("view.name_item").map(|item| last_segment(item.text).to_owned());
        let upper = || hit.text("view.str_item").map(str::to_ascii_uppercase);
        if let Some(name) = text("view.class").or(text("view.function")) {
            view.name = name;
            view.function = hit.get("view.function").is_some();
        }
        push_new(&mut view.bases, text("view.base"));
        push_new(&mut view.guards, text("view.class_guard").filter(|g| is_auth_name(g)));
        let value = hit.text("view.value").unwrap_or("");
        if let Some(method) = hit.get("view.method_scope") {
            let name = text("view.action").or(text("view.method")).unwrap_or_default();
            let (_, action) = methods.entry(key(method)).or_insert((name.clone(), None));
            if let Some(call) = hit.text("view.action_call") {
                let action = action.get_or_insert_with(|| Action {
                    detail: call.starts_with("detail_route"),
                    url_path: name.clone(),
                    name,
                    ..Action::default()
                });
                match hit.text("view.key") {
                    Some("detail") => action.detail |= value == "True",
                    Some("methods") => push_new(&mut action.methods, upper()),
                    Some("url_path") => action.url_path = text("view.str_item").unwrap_or(action.url_path.clone()),
                    _ => {}
                }
            }
        }
        match hit.text("view.attr").or(hit.text("view.decorator").map(last_segment)) {
            Some("permission_classes") => view.permissions.get_or_insert_default().extend(names()),
            // Authentication identifies the user; it guards no route itself (the permission
            // classes do), so the classes are named as guards the code uses.
            Some("authentication_classes") => authentication.extend(names()),
            Some("serializer_class") => view.serializer = Some(value.to_owned()),
            Some("lookup_url_kwarg") => view.lookup = text("view.str_item").or(view.lookup.take()),
            Some("lookup_field") if view.lookup.is_none() => view.lookup = text("view.str_item"),
            Some("http_method_names" | "api_view" | "require_http_methods") => {
                push_new(view.allowed.get_or_insert_default(), upper())
            }
            Some("require_POST") => view.allowed = Some(vec!["POST".into()]),
            Some("require_GET" | "require_safe") => view.allowed = Some(vec!["GET".into()]),
            _ => push_new(&mut view.guards, text("view.decorator").filter(|d| is_auth_name(d))),
        }
    }
    for (mut view, authentication, methods) in found.into_values() {
        if view.name.is_empty() {
            continue;
        }
        for ((start, end), (name, action)) in methods {
            // The first call reading a body inside the method.
            let body = bodies.range(start..end).next().map(|(_, body)| match *body {
                "get_serializer" => "serializer_class".to_owned(),
                other => other.to_owned(),
            });
            let reads = match action {
                Some(mut action) => {
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
            function(path, view, out);
        } else {
            class(path, view, authentication, out);
        }
    }
}

/// One module-level class: a permission or authentication class, a view, a part, or nothing.
fn class(path: &str, mut view: View, authentication: Vec<String>, out: &mut RouteScan) {
    let bases: Vec<&str> = view.bases.iter().map(|base| last_segment(base)).collect();
    let defined = if bases.contains(&"BasePermission") {
        Some("permission")
    } else {
        let authentication = bases.iter().any(|base| base.ends_with("Authentication"));
        (authentication && view.name.ends_with("Authentication")).then_some("authentication")
    };
    if let Some(kind) = defined {
        out.guards
            .push(GuardNote::new(&view.name, kind, "django", Role::Defined, path));
        return;
    }
    // Mixins alone make no view (`class User(AbstractBaseUser, PermissionsMixin)`); such a
    // class is kept as a part, which only counts when a view extends it or a URLconf names it.
    view.part = !bases
        .iter()
        .any(|base| base.ends_with("View") || base.ends_with("ViewSet") || *base == "GenericAPIView");
    let auth_mixins = bases
        .iter()
        .filter(|base| base.ends_with("Mixin") && is_auth_name(base));
    view.guards.splice(0..0, auth_mixins.map(|base| base.to_string()));
    for name in authentication {
        out.note_used(&name, "authentication", "django", path);
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
    out.django.views.push(view);
}

/// A module-level function: a view by its decorators (`@api_view` answers GET unless it names
/// methods), else none.
fn function(path: &str, mut view: View, out: &mut RouteScan) {
    if view.allowed.as_ref().is_some_and(Vec::is_empty) {
        view.allowed = Some(vec!["GET".into()]);
    }
    if view.allowed.is_none() && view.permissions.is_none() && view.guards.is_empty() {
        return;
    }
    note_permissions(path, &view, out);
    out.django.views.push(view);
}

/// Notes the permission classes and guards a view (or a part, its permission classes) uses.
fn note_permissions(path: &str, view: &View, out: &mut RouteScan) {
    for permission in view.permissions.iter().flatten().filter(|p| *p != "AllowAny") {
        out.note_used(permission, "permission", "django", path);
    }
    // A part's mixins (a user model's `PermissionsMixin`) guard nothing until a view extends it.
    for guard in view.guards.iter().filter(|_| !view.part) {
        let kind = if guard.ends_with("Mixin") { "mixin" } else { "decorator" };
        out.note_used(guard, kind, "django", path);
    }
}
