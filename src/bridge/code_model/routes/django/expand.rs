//! Turning the views a URLconf or router names into routes when linking: a class-based view's
//! methods from the handlers it (and its bases in the run, in any module) define and from the
//! generic views and mixins it extends; a viewset's list and detail routes as a DRF router
//! makes them (`articles/`, `articles/<slug>/`, `@action` routes), each with the view's
//! permission classes (or the settings' defaults) as guards and the serializer it reads bodies
//! with as request.

use super::views::View;
use crate::bridge::code_model::lineage::ancestry;
use crate::bridge::code_model::routes::graph::{Item, LocalRoute, add_guards};
use crate::bridge::code_model::syntax::python::last_segment;

/// How many bases deep a view's inheritance is followed.
const MAX_BASES: usize = 8;

/// The actions each generic view, viewset and mixin of DRF brings.
const GENERIC_ACTIONS: &[(&str, &[&str])] = &[
    ("ListAPIView", &["list"]),
    ("CreateAPIView", &["create"]),
    ("RetrieveAPIView", &["retrieve"]),
    ("DestroyAPIView", &["destroy"]),
    ("UpdateAPIView", &["update", "partial_update"]),
    ("ListCreateAPIView", &["list", "create"]),
    ("RetrieveUpdateAPIView", &["retrieve", "update", "partial_update"]),
    ("RetrieveDestroyAPIView", &["retrieve", "destroy"]),
    (
        "RetrieveUpdateDestroyAPIView",
        &["retrieve", "update", "partial_update", "destroy"],
    ),
    (
        "ModelViewSet",
        &["list", "create", "retrieve", "update", "partial_update", "destroy"],
    ),
    ("ReadOnlyModelViewSet", &["list", "retrieve"]),
    ("ListModelMixin", &["list"]),
    ("CreateModelMixin", &["create"]),
    ("RetrieveModelMixin", &["retrieve"]),
    ("UpdateModelMixin", &["update", "partial_update"]),
    ("DestroyModelMixin", &["destroy"]),
];

/// Django's generic views and the HTTP methods they answer.
const DJANGO_GENERICS: &[(&str, &[&str])] = &[
    ("TemplateView", &["GET"]),
    ("ListView", &["GET"]),
    ("DetailView", &["GET"]),
    ("RedirectView", &["GET"]),
    ("ArchiveIndexView", &["GET"]),
    ("CreateView", &["GET", "POST"]),
    ("UpdateView", &["GET", "POST"]),
    ("DeleteView", &["GET", "POST"]),
    ("FormView", &["GET", "POST"]),
    ("LoginView", &["GET", "POST"]),
    ("PasswordChangeView", &["GET", "POST"]),
    ("PasswordResetView", &["GET", "POST"]),
    ("LogoutView", &["POST"]),
];

/// The HTTP method of an action on a view's own URL.
fn action_method(action: &str) -> Option<&'static str> {
    Some(match action {
        "get" | "list" | "retrieve" => "GET",
        "post" | "create" => "POST",
        "put" | "update" => "PUT",
        "patch" | "partial_update" => "PATCH",
        "delete" | "destroy" => "DELETE",
        "head" => "HEAD",
        "options" => "OPTIONS",
        _ => return None,
    })
}

/// A view with what its bases in the run add (see [`Resolved::of`]): `view` is the view with
/// its bases' parts merged in (its `methods` the actions and handler methods of the view, its
/// bases and DRF's generics).
#[derive(Default)]
pub struct Resolved {
    pub view: View,
    /// A REST framework view (`APIView`, a generic or a viewset, `@api_view`): the settings'
    /// default permission classes are its own unless it sets some.
    pub rest: bool,
    /// Django generics' HTTP methods.
    pub generic_methods: Vec<&'static str>,
    /// The class or one of its bases is a view by its own bases, or it handles methods: a
    /// class that is neither (a model a URLconf names) is no view the run knows.
    pub known: bool,
}

impl Resolved {
    /// `view` (defined in file `at`) with its bases: `find(at, name)` gives the view a base
    /// written in file `at` names, and the file that defines it. Bases are followed first to
    /// last, each before the next (Python's method resolution order, near enough).
    pub fn of<'v>(at: usize, view: &'v View, find: &impl Fn(usize, &str) -> Option<(usize, &'v View)>) -> Resolved {
        let mut out = Resolved {
            rest: view.function && view.allowed.is_some(),
            ..Resolved::default()
        };
        (out.view.name, out.view.function) = (view.name.clone(), view.function);
        let lineage = ancestry((at, view), MAX_BASES, |(at, view)| {
            view.bases.iter().filter_map(|base| find(*at, base)).collect()
        });
        // Mixins of the run that set permission classes: those stand for them, not their name.
        let lent: Vec<&str> = lineage[1..]
            .iter()
            .filter(|(_, base)| base.permissions.is_some())
            .map(|(_, base)| base.name.as_str())
            .collect();
        for (_, view) in lineage {
            out.known |= !view.part || !view.methods.is_empty() || !view.actions.is_empty();
            out.view.methods.extend(view.methods.iter().cloned());
            out.view.actions.extend(view.actions.iter().cloned());
            out.view.permissions = out.view.permissions.take().or_else(|| view.permissions.clone());
            out.view.serializer = out.view.serializer.take().or_else(|| view.serializer.clone());
            out.view.lookup = out.view.lookup.take().or_else(|| view.lookup.clone());
            out.view.allowed = out.view.allowed.take().or_else(|| view.allowed.clone());
            out.view.bodies.extend(view.bodies.iter().cloned());
            out.view.guards.extend(view.guards.iter().cloned());
            for base in &view.bases {
                let last = last_segment(base);
                let generic = GENERIC_ACTIONS.iter().find(|(name, _)| *name == last);
                out.rest |= last.ends_with("ViewSet") || last.ends_with("APIView") || generic.is_some();
                if let Some((_, actions)) = generic {
                    out.view.methods.extend(actions.iter().map(|a| a.to_string()));
                    out.view.bodies.extend(
                        actions
                            .iter()
                            .filter(|a| matches!(**a, "create" | "update" | "partial_update"))
                            .map(|a| (a.to_string(), "serializer_class".to_owned())),
                    );
                }
                if let Some((_, methods)) = DJANGO_GENERICS.iter().find(|(name, _)| *name == last) {
                    out.generic_methods.extend(methods.iter().copied());
                }
            }
        }
        out.known |= !out.view.methods.is_empty() || !out.generic_methods.is_empty();
        out.view.guards.retain(|guard| !lent.contains(&guard.as_str()));
        out
    }

    /// The request shape an action reads.
    fn request(&self, action: &str) -> Option<String> {
        let (_, serializer) = self.view.bodies.iter().find(|(method, _)| method == action)?;
        if serializer == "serializer_class" {
            self.view.serializer.clone()
        } else {
            Some(serializer.clone())
        }
    }

    /// The guards on the view's routes: its permission classes (or `defaults`), `AllowAny`
    /// left out, and its auth decorators and mixins.
    fn guards(&self, defaults: &[String]) -> Vec<String> {
        let defaults = if self.rest { defaults } else { &[] };
        let permissions = self
            .view
            .permissions
            .clone()
            .unwrap_or_else(|| defaults.iter().map(|d| last_segment(d).to_owned()).collect());
        let mut out: Vec<String> = permissions.into_iter().filter(|p| p != "AllowAny").collect();
        add_guards(&mut out, &self.view.guards);
        out
    }

    fn route(&self, method: &str, path: String, action: &str, defaults: &[String], file: &str) -> Item {
        let handler = if self.view.function {
            self.view.name.clone()
        } else {
            format!("{}.{action}", self.view.name)
        };
        let (request, guards) = (self.request(action), self.guards(defaults));
        Item::Route(LocalRoute {
            request,
            guards,
            ..LocalRoute::new(method, path, Some(handler), file)
        })
    }

    /// The routes of the view at the URL that names it (`path('x/', View.as_view())`);
    /// `mapping` is a viewset's `as_view({'get': 'list'})` methods (`GET,POST`), or empty.
    pub fn routes(&self, mapping: &str, defaults: &[String], file: &str) -> Vec<Item> {
        let mut methods: Vec<(String, String)> = Vec::new();
        let mut add = |method: &str, action: &str| {
            if !methods.iter().any(|(m, _)| m == method) {
                methods.push((method.to_owned(), action.to_owned()));
            }
        };
        // A function view answers its allowed methods, else any; a viewset its mapping's.
        let named: Vec<&str> = match &self.view.allowed {
            Some(allowed) if self.view.function => allowed.iter().map(String::as_str).collect(),
            None if self.view.function => vec!["ALL"],
            _ => mapping.split(',').filter(|m| !m.is_empty()).collect(),
        };
        for method in &named {
            add(method, &method.to_ascii_lowercase());
        }
        // Any other view answers for its handlers and generics.
        if named.is_empty() && !self.view.function {
            for action in &self.view.methods {
                if let Some(method) = action_method(action) {
                    add(method, action);
                }
            }
            for method in &self.generic_methods {
                add(method, &method.to_ascii_lowercase());
            }
        }
        if let Some(allowed) = &self.view.allowed {
            methods.retain(|(m, _)| allowed.contains(m));
        }
        methods
            .iter()
            .map(|(method, action)| self.route(method, String::new(), action, defaults, file))
            .collect()
    }

    /// The routes a DRF router makes for a viewset registered under a prefix: the list route,
    /// the detail route under the lookup (`<pk>` unless the view sets `lookup_field`), and each
    /// `@action`; `trailing` is `/` or empty.
    pub fn router_routes(&self, trailing: &str, defaults: &[String], file: &str) -> Vec<Item> {
        let lookup = format!("<{}>", self.view.lookup.as_deref().unwrap_or("pk"));
        let mut items = Vec::new();
        let has = |action: &&str| self.view.methods.iter().any(|a| a == action);
        for action in ["list", "create", "retrieve", "update", "partial_update", "destroy"]
            .into_iter()
            .filter(has)
        {
            let path = match action {
                "list" | "create" => trailing.to_owned(),
                _ => format!("/{lookup}{trailing}"),
            };
            let method = action_method(action).unwrap_or_default();
            items.push(self.route(method, path, action, defaults, file));
        }
        for action in &self.view.actions {
            let path = if action.detail {
                format!("/{lookup}/{}{trailing}", action.url_path)
            } else {
                format!("/{}{trailing}", action.url_path)
            };
            for method in &action.methods {
                items.push(self.route(method, path.clone(), &action.name, defaults, file));
            }
        }
        items
    }
}

/// The routes of a view the run does not define: a generic view of Django's answers its
/// methods (`TemplateView.as_view(…)` → GET); a plain function view or a library's view any
/// method, as Django dispatches it.
pub fn unknown_view(name: &str, file: &str) -> Vec<Item> {
    let last = last_segment(name);
    let methods = DJANGO_GENERICS
        .iter()
        .find(|(generic, _)| *generic == last)
        .map_or(&["ALL"][..], |(_, methods)| *methods);
    methods
        .iter()
        .map(|method| Item::Route(LocalRoute::new(method, String::new(), Some(name.to_owned()), file)))
        .collect()
}
