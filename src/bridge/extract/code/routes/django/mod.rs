//! Django and Django REST framework: URLconfs (`urlpatterns = [path('items/<int:pk>/', view),
//! re_path(r'^api/', include('app.urls'))]`, `url()` of older releases, lists of patterns
//! included by name or written in place, `(patterns, 'namespace')` tuples, `urlpatterns +=
//! router.urls`), DRF routers (`DefaultRouter().register(…)`),
//! and the views they point at (see [`views`]), which linking expands into routes.

pub mod expand;
pub mod views;

use tree_sitter::Node;

use super::RouteScan;
use super::graph::{Item, LocalRoute, Mount, Target, Unit};
use crate::bridge::extract::code::guards::{GuardNote, Role, is_auth_name};
use crate::bridge::extract::syntax::literal::{Constants, string};
use crate::bridge::extract::syntax::python::{keyword, last_segment, positional};
use crate::bridge::extract::syntax::{Fields, ParsedFile, named_children};

/// The functions of a URLconf entry: Django's `path`/`re_path` and the old `url`.
const PATTERN_FUNCTIONS: &[&str] = &["path", "re_path", "url"];

/// Reads the URLconfs and routers of one Python file into `out`.
pub fn scan(file: &ParsedFile<'_>, constants: &Constants, out: &mut RouteScan) {
    // Only Django's own modules: a Flask view's decorators are no Django view's.
    if !["django", "rest_framework", "urlpatterns"]
        .iter()
        .any(|name| file.text.contains(name))
    {
        return;
    }
    let reader = Reader { file, constants };
    for statement in named_children(file.root()) {
        if statement.has_error() {
            continue;
        }
        let Some(expression) = (statement.kind() == "expression_statement")
            .then(|| statement.named_child(0))
            .flatten()
        else {
            continue;
        };
        match expression.kind() {
            "assignment" => reader.assignment(expression, out),
            "augmented_assignment" => {
                let (Some(left), Some(right)) = (expression.field("left"), expression.field("right")) else {
                    continue;
                };
                let items = reader.patterns(right);
                if !items.is_empty() {
                    reader.unit(out, file.text(left)).items.extend(items);
                }
            }
            "call" => reader.register(expression, out),
            _ => {}
        }
    }
    // Views wrapped in a guard in the URLconf (`login_required(views.dashboard)`).
    let wrapped: Vec<String> = out
        .units
        .iter()
        .filter(|unit| unit.key.0 == file.path)
        .flat_map(|unit| &unit.items)
        .filter_map(|item| match item {
            Item::Mount(mount) => Some(mount.guards.iter().cloned()),
            _ => None,
        })
        .flatten()
        .collect();
    for guard in wrapped {
        let note = GuardNote::new(&guard, "decorator", "django", Role::Used, file.path);
        if !out.guards.contains(&note) {
            out.guards.push(note);
        }
    }
}

struct Reader<'s, 'a> {
    file: &'s ParsedFile<'a>,
    constants: &'s Constants,
}

impl Reader<'_, '_> {
    fn unit<'o>(&self, out: &'o mut RouteScan, name: &str) -> &'o mut Unit {
        out.unit(self.file.path, name, "django")
    }

    /// `urlpatterns = [...]`, `router = DefaultRouter(trailing_slash=False)`.
    fn assignment(&self, assignment: Node<'_>, out: &mut RouteScan) {
        let (Some(left), Some(right)) = (assignment.field("left"), assignment.field("right")) else {
            return;
        };
        let name = self.file.text(left);
        // `router = DefaultRouter() if settings.DEBUG else SimpleRouter()`
        let router_call = match right.kind() {
            "conditional_expression" => right.named_child(0).unwrap_or(right),
            _ => right,
        };
        if router_call.kind() == "call"
            && let Some(router) = router_call.field("function").map(|f| last_segment(self.file.text(f)))
            && matches!(
                router,
                "DefaultRouter" | "SimpleRouter" | "ExtendedDefaultRouter" | "NestedSimpleRouter"
            )
        {
            let unit = self.unit(out, name);
            if router == "DefaultRouter" {
                // The API root view the default router adds.
                unit.items.push(Item::Route(LocalRoute {
                    method: "GET".into(),
                    path: String::new(),
                    handler: Some("api-root".into()),
                    file: self.file.path.to_owned(),
                    ..LocalRoute::default()
                }));
            }
            let trailing =
                keyword(self.file, router_call, "trailing_slash").map(|v| self.file.text(v)) != Some("False");
            out.django.routers.push((name.to_owned(), trailing));
            return;
        }
        let items = self.patterns(right);
        if !items.is_empty() {
            self.unit(out, name).items.extend(items);
        }
    }

    /// The items of a pattern list: `[path(...), ...]`, `router.urls`, `a + b`.
    fn patterns(&self, node: Node<'_>) -> Vec<Item> {
        match node.kind() {
            "list" | "tuple" => named_children(node)
                .into_iter()
                .filter_map(|entry| self.pattern(entry))
                .collect(),
            "binary_operator" => {
                let mut items = node.field("left").map(|l| self.patterns(l)).unwrap_or_default();
                items.extend(node.field("right").map(|r| self.patterns(r)).unwrap_or_default());
                items
            }
            "attribute" if self.file.field_text(node, "attribute") == Some("urls") => {
                let router = node.field("object").map(|o| self.file.text(o).to_owned());
                router.map(|r| Item::mount("", Target::Ref(r))).into_iter().collect()
            }
            _ => Vec::new(),
        }
    }

    /// One `path('x/', view)` / `re_path(r'^x/$', include(...))` entry.
    fn pattern(&self, call: Node<'_>) -> Option<Item> {
        if call.kind() != "call" {
            return None;
        }
        let function = last_segment(self.file.text(call.field("function")?));
        if !PATTERN_FUNCTIONS.contains(&function) {
            return None;
        }
        let args = positional(call);
        let route = self.constants.render_path(self.file, *args.first()?)?;
        let route = if function == "path" { route } else { regex_route(&route) };
        let view = args.get(1).copied().or_else(|| keyword(self.file, call, "view"))?;
        let mut guards = Vec::new();
        let target = self.target(view, &mut guards)?;
        Some(Item::Mount(Mount {
            prefix: route,
            target,
            guards,
            ..Mount::default()
        }))
    }

    /// What a pattern's view argument stands for: an include (`include('app.urls')`,
    /// `include(router.urls)`, `include(extra)`, `include(('app.urls', 'app'), namespace=…)`,
    /// a list of patterns written in place, bare or in a `(patterns, 'namespace')` tuple), a class-based view (`View.as_view()`, a
    /// viewset's `as_view({'get': 'list'})`) or a function view, possibly wrapped in a guard
    /// (`login_required(views.profile)`).
    fn target(&self, view: Node<'_>, guards: &mut Vec<String>) -> Option<Target> {
        match view.kind() {
            "identifier" | "attribute" => Some(Target::Ref(format!("view:{}", self.file.text(view)))),
            "call" => {
                let function = view.field("function")?;
                let name = last_segment(self.file.text(function));
                let args = positional(view);
                match name {
                    "include" => {
                        let first = *args.first()?;
                        let first = if first.kind() == "tuple" {
                            first.named_child(0)?
                        } else {
                            first
                        };
                        if let Some(module) = string(self.file, first) {
                            return Some(Target::Ref(format!("pymodule:{module}")));
                        }
                        match first.kind() {
                            // `include([path(...), ...])`, `include(([path(...)], "namespace"))`
                            "list" | "tuple" => Some(Target::Inline(self.patterns(first))),
                            "attribute" if self.file.field_text(first, "attribute") == Some("urls") => {
                                Some(Target::Ref(self.file.text(first.field("object")?).to_owned()))
                            }
                            "identifier" => Some(Target::Ref(self.file.text(first).to_owned())),
                            _ => None,
                        }
                    }
                    "as_view" => {
                        let class = self.file.text(function.field("object")?);
                        let methods = args
                            .first()
                            .filter(|mapping| mapping.kind() == "dictionary")
                            .map(|mapping| {
                                named_children(*mapping)
                                    .into_iter()
                                    .filter_map(|pair| pair.field("key").and_then(|k| string(self.file, k)))
                                    .map(|m| m.to_ascii_uppercase())
                                    .collect::<Vec<_>>()
                                    .join(",")
                            });
                        Some(Target::Ref(match methods {
                            Some(methods) => format!("view:{class}|{methods}"),
                            None => format!("view:{class}"),
                        }))
                    }
                    _ if is_auth_name(name) => {
                        guards.push(self.file.text(function).to_owned());
                        self.target(*args.first()?, guards)
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// `router.register(r'articles', ArticleViewSet, basename='article')`.
    fn register(&self, call: Node<'_>, out: &mut RouteScan) {
        let Some(function) = call.field("function").filter(|f| f.kind() == "attribute") else {
            return;
        };
        let (Some(router), Some("register")) = (function.field("object"), self.file.field_text(function, "attribute"))
        else {
            return;
        };
        let router = self.file.text(router);
        if !out.declares(self.file.path, router) {
            return;
        }
        let args = positional(call);
        let (Some(prefix), Some(viewset)) = (
            args.first().and_then(|p| self.constants.render_path(self.file, *p)),
            args.get(1).filter(|v| matches!(v.kind(), "identifier" | "attribute")),
        ) else {
            return;
        };
        let trailing = out
            .django
            .routers
            .iter()
            .find(|(name, _)| name == router)
            .is_none_or(|(_, trailing)| *trailing);
        let trailing = if trailing { "/" } else { "" };
        let unit = self.unit(out, router);
        unit.items.push(Item::mount(
            &regex_route(&prefix),
            Target::Ref(format!("viewset:{}|{trailing}", self.file.text(*viewset))),
        ));
    }
}

/// A regex route as a `path()`-style one: `^articles/(?P<slug>[-\w]+)/favorite/?$` →
/// `articles/<slug>/favorite`; an optional trailing slash is left out.
pub fn regex_route(regex: &str) -> String {
    let regex = regex.strip_prefix('^').unwrap_or(regex);
    let regex = regex.strip_suffix('$').unwrap_or(regex);
    let regex = regex.strip_suffix("/?").unwrap_or(regex);
    let mut out = String::new();
    let mut chars = regex.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '(' if chars.peek() == Some(&'?') => {
                let rest: String = chars.clone().take(2).collect();
                let mut depth = 1;
                let mut inner = String::new();
                for c in chars.by_ref() {
                    match c {
                        '(' => depth += 1,
                        ')' => depth -= 1,
                        _ => {}
                    }
                    if depth == 0 {
                        break;
                    }
                    inner.push(c);
                }
                if rest == "?P" {
                    if let Some(name) = inner.strip_prefix("?P<").and_then(|n| n.split('>').next()) {
                        out.push_str(&format!("<{name}>"));
                    }
                } else {
                    out.push('(');
                    out.push_str(&inner);
                    out.push(')');
                }
            }
            '\\' => {
                if let Some(next) = chars.next() {
                    out.push(next);
                }
            }
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::regex_route;

    #[test]
    fn regex_routes_read_like_path_routes() {
        assert_eq!(
            regex_route(r"^articles/(?P<article_slug>[-\w]+)/favorite/?$"),
            "articles/<article_slug>/favorite"
        );
        assert_eq!(regex_route(r"^api/"), "api/");
        assert_eq!(regex_route(r"^$"), "");
        assert_eq!(regex_route(r"^tags/?$"), "tags");
        assert_eq!(regex_route(r"^files/(?P<path>.+\.txt)$"), "files/<path>");
    }
}
