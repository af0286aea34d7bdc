//! From the captures of `django/urls.scm` to the mount graph: each module variable holding
//! patterns (`urlpatterns`) is a unit whose items are the patterns (and router `urls`) its
//! value holds, each pattern a mount of what its view stands for (`view:X`, `view:X|GET,POST`,
//! `pymodule:app.urls`, a router, or the patterns an `include([…])` written in place holds);
//! each DRF router a unit of the viewsets it registers (`viewset:X|/`). A pattern belongs to
//! the innermost include or value around it, unless another pattern lies between (then it is
//! part of that pattern's view). Linking (`routes::link::django`) resolves modules and views.

use std::ops::Range;

use super::hits::{Capture, Hit};
use super::route_units::Render;
use crate::bridge::code_model::routes::RouteScan;
use crate::bridge::code_model::routes::graph::{Item, LocalRoute, Mount, Target};

/// How many wrappers and includes deep a view is followed.
const MAX_DEPTH: usize = 32;

/// What holds patterns: a module variable's value (by its index in `vars`) or what an
/// `include(…)` includes (by the index of its call in `calls`).
#[derive(Clone, Copy, PartialEq)]
enum Holder {
    Value(usize),
    Included(usize),
}

/// One file's URLconf hits, by what they are.
struct File<'f, 'h, 't> {
    render: Render<'f>,
    vars: Vec<(&'h Capture<'t>, &'h Capture<'t>)>,
    /// Includes, `as_view`s, wrappers and routers made, by where their call is.
    calls: Vec<(Range<usize>, &'h Hit<'t>)>,
    /// Patterns and router `urls`, each with what holds it (none: another pattern's view).
    entries: Vec<(&'h Hit<'t>, Option<Holder>)>,
}

/// What one file's URLconfs add to its scan.
pub fn scan(path: &str, hits: &[Hit<'_>], render: Render<'_>, out: &mut RouteScan) {
    let hits: Vec<&Hit<'_>> = hits
        .iter()
        .filter(|hit| hit.captures.iter().any(|c| c.name.starts_with("urls.")))
        .collect();
    if hits.is_empty() {
        return;
    }
    let file = File::of(&hits, render);
    // The file's DRF routers and whether their routes end with a slash.
    let mut routers: Vec<(&str, bool)> = Vec::new();
    for (var, value) in &file.vars {
        // `router = DefaultRouter() if settings.DEBUG else SimpleRouter()`: the first.
        let router = file.calls.iter().find(|(at, hit)| {
            at.start == value.range.start && at.end <= value.range.end && hit.get("urls.router_new").is_some()
        });
        let Some((_, router)) = router else { continue };
        let unit = out.unit(path, var.text, "django");
        if let Some(root) = router.prop("root") {
            // The API root view the default router adds.
            let route = LocalRoute::new("GET", String::new(), Some(root.to_owned()), path);
            unit.items.push(Item::Route(route));
        }
        let options = router
            .text("urls.router_options")
            .unwrap_or("")
            .replace(char::is_whitespace, "");
        routers.push((var.text, !options.contains("trailing_slash=False")));
    }
    for (index, (var, _)) in file.vars.iter().enumerate() {
        let items = file.items(Holder::Value(index), 0);
        if !items.is_empty() {
            out.unit(path, var.text, "django").items.extend(items);
        }
    }
    // router.register(r'articles', ArticleViewSet) on a router the file makes
    for hit in &hits {
        let (Some(router), Some(prefix), Some(viewset)) = (
            hit.text("urls.receiver"),
            hit.get("urls.prefix"),
            hit.text("urls.viewset"),
        ) else {
            continue;
        };
        let Some(prefix) = render(&prefix.range, false).filter(|_| out.declares(path, router)) else {
            continue;
        };
        let trailing = routers.iter().find(|(name, _)| *name == router).is_none_or(|(_, t)| *t);
        let target = Target::Ref(format!("viewset:{viewset}|{}", if trailing { "/" } else { "" }));
        out.unit(path, router, "django")
            .items
            .push(Item::mount(&regex_route(&prefix), target));
    }
    // Views wrapped in a guard in the URLconf (`login_required(views.dashboard)`).
    let units = out.units.iter().filter(|unit| unit.key.0 == path);
    let wrapped: Vec<String> = units
        .flat_map(|unit| &unit.items)
        .flat_map(|item| match item {
            Item::Mount(mount) => mount.guards.clone(),
            _ => Vec::new(),
        })
        .collect();
    for guard in wrapped {
        out.note_used(&guard, "decorator", "django", path);
    }
}

impl<'f, 'h, 't> File<'f, 'h, 't> {
    fn of(hits: &[&'h Hit<'t>], render: Render<'f>) -> Self {
        let vars: Vec<_> = hits
            .iter()
            .filter_map(|hit| Some((hit.get("urls.var")?, hit.get("urls.value")?)))
            .collect();
        let called = ["urls.include", "urls.as_view", "urls.wrapper", "urls.router_new"];
        let mut calls: Vec<(Range<usize>, &'h Hit<'t>)> = hits
            .iter()
            .filter_map(|hit| Some((called.iter().find_map(|name| hit.get(name))?.range.clone(), *hit)))
            .collect();
        calls.sort_by_key(|(at, _)| (at.start, at.end));
        // Every place, outer ones first (a holder before an entry at the same place); a sweep
        // keeps the places open around each: `(place, holder, entry)`.
        let mut places: Vec<(Range<usize>, Option<Holder>, Option<&'h Hit<'t>>)> = Vec::new();
        let values = vars
            .iter()
            .enumerate()
            .map(|(i, (_, value))| (value.range.clone(), Holder::Value(i)));
        let included = calls
            .iter()
            .enumerate()
            .filter_map(|(i, (_, hit))| Some((hit.get("urls.included")?.range.clone(), Holder::Included(i))));
        places.extend(values.chain(included).map(|(at, holder)| (at, Some(holder), None)));
        places.extend(hits.iter().filter_map(|hit| {
            let at = hit.get("urls.pattern").or(hit.get("urls.routes"))?;
            Some((at.range.clone(), None, Some(*hit)))
        }));
        places.sort_by_key(|(at, holder, _)| (at.start, std::cmp::Reverse(at.end), holder.is_none()));
        let mut entries = Vec::new();
        let mut open: Vec<(Range<usize>, Option<Holder>)> = Vec::new();
        for (at, holder, entry) in places {
            while open.last().is_some_and(|(outer, _)| outer.end < at.end) {
                open.pop();
            }
            if let Some(hit) = entry {
                // What holds it: the innermost place around, unless that is a pattern.
                entries.push((hit, open.last().and_then(|(_, around)| *around)));
            }
            open.push((at, holder));
        }
        File {
            render,
            vars,
            calls,
            entries,
        }
    }

    /// The hit of `kind` whose call is exactly at `at`.
    fn call_at(&self, at: &Range<usize>, kind: &str) -> Option<(usize, &'h Hit<'t>)> {
        let from = self.calls.partition_point(|(have, _)| have.start < at.start);
        let mut here = self.calls[from..].iter().take_while(|(have, _)| have.start == at.start);
        let i = from + here.position(|(have, hit)| have == at && hit.get(kind).is_some())?;
        Some((i, self.calls[i].1))
    }

    /// The items of the patterns (and, in a value, router `urls`) a holder holds, in the
    /// file's order.
    fn items(&self, holder: Holder, depth: usize) -> Vec<Item> {
        let held = self.entries.iter().filter(|(_, by)| *by == Some(holder));
        held.filter_map(|(hit, _)| match hit.text("urls.router") {
            // A router's `urls` in a value mounts its routes (in an include, the include does).
            Some(router) => matches!(holder, Holder::Value(_)).then(|| Item::mount("", Target::Ref(router.to_owned()))),
            None => self.pattern(hit, depth),
        })
        .collect()
    }

    /// One `path('x/', view)` / `re_path(r'^x/$', include(…))` pattern as a mount.
    fn pattern(&self, hit: &Hit<'_>, depth: usize) -> Option<Item> {
        let route = (self.render)(&hit.get("urls.route")?.range, false)?;
        let prefix = if hit.prop("route") == Some("regex") {
            regex_route(&route)
        } else {
            route
        };
        let mut guards = Vec::new();
        let target = self.target(hit.get("urls.view")?, &mut guards, depth)?;
        Some(Item::Mount(Mount {
            prefix,
            target,
            guards,
            ..Mount::default()
        }))
    }

    /// What a pattern's view stands for: an include, a class-based view (`View.as_view()`, a
    /// viewset's `as_view({'get': 'list'})`), a function view, one wrapped in a guard.
    fn target(&self, view: &Capture<'_>, guards: &mut Vec<String>, depth: usize) -> Option<Target> {
        if depth > MAX_DEPTH {
            return None;
        }
        if let Some((at, include)) = self.call_at(&view.range, "urls.include") {
            let included = include.get("urls.included")?;
            let text = included.text;
            let quoted = text
                .trim_start_matches(|c: char| c.is_ascii_alphabetic())
                .starts_with(['\'', '"']);
            return if text.starts_with(['[', '(']) {
                Some(Target::Inline(self.items(Holder::Included(at), depth + 1)))
            } else if quoted {
                Some(Target::Ref(format!(
                    "pymodule:{}",
                    (self.render)(&included.range, false)?
                )))
            } else if let Some(router) = text.strip_suffix(".urls") {
                Some(Target::Ref(router.to_owned()))
            } else {
                (is_name(text) && !text.contains('.')).then(|| Target::Ref(text.to_owned()))
            };
        }
        if let Some((at, as_view)) = self.call_at(&view.range, "urls.as_view") {
            let class = as_view.text("urls.class")?;
            // A match per key of the mapping (`{'get': 'list', 'post': 'create'}`).
            let matches = self.calls[at..].iter().take_while(|(have, _)| *have == view.range);
            let mut methods: Vec<String> = Vec::new();
            for key in matches.flat_map(|(_, hit)| hit.all("urls.method")) {
                let method = key.text.to_ascii_uppercase();
                if !methods.contains(&method) {
                    methods.push(method);
                }
            }
            return Some(Target::Ref(match methods.is_empty() {
                true => format!("view:{class}"),
                false => format!("view:{class}|{}", methods.join(",")),
            }));
        }
        if let Some((_, wrapper)) = self.call_at(&view.range, "urls.wrapper") {
            guards.push(wrapper.text("urls.guard")?.to_owned());
            return self.target(wrapper.get("urls.wrapped")?, guards, depth + 1);
        }
        is_name(view.text).then(|| Target::Ref(format!("view:{}", view.text)))
    }
}

/// A name or dotted name (`views.profile`).
fn is_name(text: &str) -> bool {
    !text.is_empty() && text.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '.')
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
