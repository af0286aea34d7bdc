//! From the captures of `families/nest` to the mount graph: each `@Controller` class is an
//! app unit with its prefix and guards, its decorated methods its routes (`Class.method`);
//! the global prefix, `APP_GUARD` guards and `consumer.apply(…).forRoutes(…)` bindings go to
//! the linker (`routes::link::nest`). A decorator (`decorator.at`) belongs to the class or
//! method whose name (`decl.class`, `decl.method`) comes first after it; a method's request
//! (`decl.request`) is the one inside it; an argument's array elements and object properties
//! (`argument.*`) are found by place.

use std::ops::Range;

use super::hits::{Capture, Hit, inside};
use super::route_units::{Render, guard};
use super::scopes::placed_in;
use super::text::literal;
use crate::bridge::code_model::guards::{GuardNote, Role, is_auth_name};
use crate::bridge::code_model::routes::RouteScan;
use crate::bridge::code_model::routes::graph::{Item, LocalRoute, Unit};
use crate::bridge::code_model::routes::nest::{Binding, RouteFilter};
use crate::bridge::code_model::syntax::PLACEHOLDER_OPEN;
use crate::bridge::code_model::syntax::script::unwrap_async_type;
use crate::bridge::facts::push_once;

/// A class (`owner` none) or a method of the class named at `owner`, with its decorators.
struct Decl<'h, 't> {
    hit: &'h Hit<'t>,
    name: &'h Capture<'t>,
    owner: Option<usize>,
    decorators: Vec<&'h Hit<'t>>,
}

/// One file's NestJS hits: argument contents and requests by place, and the path reader.
struct File<'f, 'h, 't> {
    hits: Vec<&'h Hit<'t>>,
    held: Vec<(&'h Capture<'t>, &'h Hit<'t>)>,
    requests: Vec<&'h Capture<'t>>,
    render: Render<'f>,
}

/// What one file's NestJS captures add to its scan.
pub fn scan(path: &str, hits: &[Hit<'_>], render: Render<'_>, out: &mut RouteScan) {
    let hits: Vec<&Hit<'_>> = hits.iter().filter(|hit| hit.framework() == "nestjs").collect();
    if hits.is_empty() {
        return;
    }
    let mut held: Vec<_> = hits
        .iter()
        .filter_map(|hit| Some((hit.get("argument.element").or(hit.get("argument.key"))?, *hit)))
        .collect();
    held.sort_by_key(|(argument, _)| argument.range.start);
    let mut requests: Vec<_> = hits.iter().filter_map(|hit| hit.get("decl.request")).collect();
    requests.sort_by_key(|request| request.range.start);
    let file = File {
        hits,
        held,
        requests,
        render,
    };
    let decls = file.decls();
    let note = |out: &mut RouteScan, name: &str, kind| out.note_used(name, kind, "nestjs", path);
    for class in decls.iter().filter(|decl| decl.owner.is_none()) {
        let Some(controller) = class.decorated("controller").next() else {
            continue;
        };
        let name = class.name.text;
        let mut items = Vec::new();
        for method in decls.iter().filter(|m| m.owner == Some(class.name.range.start)) {
            let request = method
                .hit
                .get("decl.scope")
                .and_then(|scope| file.request(&scope.range));
            let (response, guards) = (file.response(method), file.guards(method));
            for verb in method
                .decorators
                .iter()
                .filter_map(|hit| Some((hit.text("route.verb")?, *hit)))
            {
                for route_path in file.route_paths(verb.1) {
                    items.push(Item::Route(LocalRoute {
                        method: verb.0.to_ascii_uppercase(),
                        path: route_path,
                        handler: Some(format!("{name}.{}", method.name.text)),
                        request: request.clone(),
                        response: response.clone(),
                        guards: guards.clone(),
                        file: path.to_owned(),
                        ..LocalRoute::default()
                    }));
                }
            }
            guards.iter().for_each(|guard| note(out, guard, "guard"));
        }
        let guards = file.guards(class);
        guards.iter().for_each(|guard| note(out, guard, "guard"));
        let prefix = controller.get("decorator.argument").and_then(|first| {
            let at = match first.text.starts_with('{') {
                true => file.option(&first.range, "path")?,
                false => first,
            };
            (file.render)(&at.range, true)
        });
        out.declare(Unit {
            key: (path.to_owned(), name.to_owned()),
            framework: "nestjs",
            prefix: prefix.unwrap_or_default(),
            app: true,
            guards,
            ..Unit::default()
        });
        out.unit(path, name, "nestjs").items = items;
    }
    for hit in &file.hits {
        if let Some(name) = hit.text("guard.global") {
            note(out, name, "guard");
            push_once(&mut out.nest_global_guards, name.to_owned());
        }
        if let (Some(name), Some(kind)) = (hit.text("guard.class"), hit.prop("kind")) {
            out.guards
                .push(GuardNote::new(name, kind, "nestjs", Role::Defined, path));
        }
    }
    let calls = |kind| file.hits.iter().filter(move |hit| hit.prop("call") == Some(kind));
    let mut prefixes = calls("global-prefix").filter_map(|hit| file.resolved(hit.get("app.argument")?));
    out.global_prefix = prefixes.next_back().or(out.global_prefix.take());
    for routes in calls("for-routes") {
        let Some(at) = routes.get("app.call") else { continue };
        // The `apply` of the chain it is called on (the last one, in a chain of several).
        let apply = calls("apply")
            .filter(|hit| hit.get("app.call").is_some_and(|call| inside(&call.range, &at.range)))
            .max_by_key(|hit| hit.captures.first().map(|c| c.range.start));
        let guards: Vec<String> = apply
            .into_iter()
            .flat_map(|hit| hit.all("app.argument"))
            .map(|arg| arg.text.to_owned())
            .filter(|name| is_auth_name(name))
            .collect();
        if !guards.is_empty() {
            guards.iter().for_each(|guard| note(out, guard, "middleware"));
            let routes = routes
                .all("app.argument")
                .filter_map(|arg| file.route_filter(arg))
                .collect();
            out.nest_bindings.push(Binding { guards, routes });
        }
    }
}

impl<'h, 't> Decl<'h, 't> {
    /// Its decorators of `role` (`#set! role`).
    fn decorated<'s>(&'s self, role: &'s str) -> impl Iterator<Item = &'h Hit<'t>> + 's {
        self.decorators
            .iter()
            .copied()
            .filter(move |hit| hit.prop("role") == Some(role))
    }
}

impl<'h, 't> File<'_, 'h, 't> {
    /// The classes and methods in the file's order, each with the decorators before it.
    fn decls(&self) -> Vec<Decl<'h, 't>> {
        let mut decls: Vec<Decl<'h, 't>> = self
            .hits
            .iter()
            .filter_map(|hit| {
                let owner = hit.get("decl.owner").map(|owner| owner.range.start);
                let name = hit
                    .get("decl.class")
                    .or(hit.get("decl.method").filter(|_| owner.is_some()))?;
                Some(Decl {
                    hit,
                    name,
                    owner,
                    decorators: Vec::new(),
                })
            })
            .collect();
        decls.sort_by_key(|decl| decl.name.range.start);
        for hit in &self.hits {
            let Some(at) = hit.get("decorator.at") else { continue };
            let owner = decls.partition_point(|decl| decl.name.range.start < at.range.end);
            if let Some(decl) = decls.get_mut(owner) {
                decl.decorators.push(hit);
            }
        }
        decls
    }

    /// The `argument.*` hits inside `range` (an argument's array elements or object pairs).
    fn held<'s>(&'s self, range: &'s Range<usize>) -> impl Iterator<Item = &'h Hit<'t>> + 's {
        placed_in(&self.held, range, |(argument, _)| &argument.range).map(|(_, hit)| *hit)
    }

    /// The value of the `key` property of the object at `range`.
    fn option(&self, range: &Range<usize>, key: &str) -> Option<&'h Capture<'t>> {
        self.held(range)
            .find(|hit| hit.text("argument.key") == Some(key))
            .and_then(|hit| hit.get("argument.value"))
    }

    /// A string the code writes, its constants filled in; `None` if a piece is unknown.
    fn resolved(&self, at: &Capture<'_>) -> Option<String> {
        (self.render)(&at.range, false).filter(|path| !path.contains(PLACEHOLDER_OPEN))
    }

    /// `@Get()` → `[""]`, `@Get(':id')` → `[":id"]`, `@Get(['a', 'b'])` → both.
    fn route_paths(&self, hit: &Hit<'_>) -> Vec<String> {
        match hit.get("decorator.argument") {
            None => vec![String::new()],
            Some(list) if list.text.starts_with('[') => self
                .held(&list.range)
                .filter_map(|element| self.resolved(element.get("argument.element")?))
                .collect(),
            Some(path) => (self.render)(&path.range, false).into_iter().collect(),
        }
    }

    /// The guards `@UseGuards(…)` decorators name (auth ones: a `ThrottlerGuard` limits rates):
    /// `JwtAuthGuard`, `AuthGuard('jwt')`, `new RolesGuard()` → `RolesGuard`.
    fn guards(&self, decl: &Decl<'_, '_>) -> Vec<String> {
        let arguments = decl.decorated("guards").flat_map(|hit| hit.all("decorator.argument"));
        arguments
            .filter_map(|arg| guard(arg.text.strip_prefix("new ").unwrap_or(arg.text)))
            .collect()
    }

    /// The type of the `@Body()` parameter inside `method`.
    fn request(&self, method: &Range<usize>) -> Option<String> {
        let mut requests = placed_in(&self.requests, method, |request| &request.range);
        requests.next().map(|request| request.text.to_owned())
    }

    /// `@ApiOkResponse({ type: X })` (`[X]` → `X[]`), or the return type without `Promise<…>`.
    fn response(&self, method: &Decl<'_, '_>) -> Option<String> {
        let documented = method
            .decorated("response")
            .find_map(|hit| self.option(&hit.get("decorator.argument")?.range, "type"));
        if let Some(kind) = documented {
            return Some(match kind.text.strip_prefix('[') {
                Some(list) => format!(
                    "{}[]",
                    list.trim_end_matches(']').split(',').next().unwrap_or("").trim()
                ),
                None => literal(kind.text),
            });
        }
        let text = unwrap_async_type(method.hit.text("decl.returns")?);
        (!matches!(text, "void" | "any" | "unknown" | "")).then(|| text.to_owned())
    }

    /// What a `forRoutes` argument names: `{ path, method }`, a path, a controller class.
    fn route_filter(&self, argument: &Capture<'_>) -> Option<RouteFilter> {
        let text = argument.text;
        if text.starts_with('{') {
            let path = self.option(&argument.range, "path").map(|p| p.text)?;
            let method = self
                .option(&argument.range, "method")
                .map(|m| m.text.rsplit('.').next().unwrap_or(""));
            return path.starts_with(['\'', '"']).then(|| RouteFilter::Path {
                path: literal(path),
                method: method.map(str::to_ascii_uppercase).filter(|m| m != "ALL"),
            });
        }
        if text.starts_with(['\'', '"', '`']) {
            let path = literal(text);
            return Some(RouteFilter::Path { path, method: None });
        }
        let name = text.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '$');
        name.then(|| RouteFilter::Controller(text.to_owned()))
    }
}
