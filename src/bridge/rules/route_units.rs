//! From rule captures to the mount graph's units (any framework whose routers are values: Express,
//! Koa, Fastify; the graph in `code_model::routes` and the linker in `extract::code::link` put them
//! together across files). A file's hits name routers made (`router.new`, named by the binding
//! whose value starts where they do), functions handed a router (`router.function` with
//! `router.param`), routes and mounts called on a receiver (`route.*`, `include.*`): each call goes
//! to the unit its receiver is in this file (a router it makes, the function whose parameter it is,
//! the chain it is called on), or to a name another file defines.

use std::collections::HashMap;
use std::ops::Range;

use super::hits::{Capture, Hit, guard_name, inside};
use super::paths::HTTP_METHODS;
use super::scopes::placed_in;
use super::text::literal;
use crate::bridge::code_model::guards::names::is_check_name;
use crate::bridge::code_model::guards::{GuardNote, Role, is_auth_name};
use crate::bridge::code_model::modules::{join_relative, parent_dir};
use crate::bridge::code_model::routes::RouteScan;
use crate::bridge::code_model::routes::graph::{Autoload, Item, LocalRoute, Mount, Target, Unit, add_guards};
use crate::bridge::facts::push_once;

/// How many calls a chain (`Router().use(a).get(…).post(…)`) is followed down.
const MAX_CHAIN: usize = 256;

/// Most rows of a mount table read.
const MAX_ROWS: usize = 256;

/// Reads a path or prefix the file writes at a place: its value with the file's constants
/// filled in (an unknown piece kept as a placeholder the linker fills), `None` if it is no
/// string; `prefix` also takes a bare name (`config.api.prefix`) as a placeholder.
pub type Render<'r> = &'r dyn Fn(&Range<usize>, bool) -> Option<String>;

/// Calls whose first string argument names the strategy (`passport.authenticate('jwt')`).
const STRATEGY_CALLS: &[&str] = &["passport.authenticate", "authenticate", "AuthGuard"];

/// Receivers a guard is reached through that add nothing to its name (`fastify.authenticate`).
const PLAIN_RECEIVERS: &[&str] = &["fastify", "app", "server", "instance", "this", "request", "req", "ctx"];

/// A function handed a receiver: what is called on its parameter inside `scope` goes to `name`.
struct Function {
    name: String,
    scope: Range<usize>,
}

/// Captures that belong to the call (or the route's scope) whose arguments hold them.
const HELD: &[&str] = &[
    "route.hint",
    "route.parsed",
    "route.response",
    "route.hook",
    "route.form",
    "route.model",
    "route.dependency",
    "route.alias",
    "call.guard",
    "option.method",
    "option.path",
    "option.handler",
    "layer.guard",
    "folder.part",
    "folder.flag",
    "folder.prefix",
];

/// Methods whose request carries no body (a form a view reads is no request shape of theirs).
const BODILESS: &[&str] = &["GET", "HEAD", "OPTIONS", "DELETE"];

/// Where a call goes.
#[derive(Clone)]
enum Receiver {
    Local(String),
    Foreign(String),
}

/// A route or mount call and what it is called on.
struct Call<'h, 't> {
    hit: &'h Hit<'t>,
    receiver: &'h Capture<'t>,
    at: Range<usize>,
}

/// The units, foreign items and guard notes of one file's hits.
pub fn scan(path: &str, hits: &[Hit<'_>], render: Render<'_>) -> RouteScan {
    let mut out = RouteScan {
        handlers: super::signatures::of_file(path, hits),
        guards: super::signatures::extractors(path, hits),
        ..RouteScan::default()
    };
    // The framework the file imports (`router.uses`), which its guards and the routers it
    // adds to elsewhere are of (and, `#set! own-units`, the functions handed a router).
    let uses = hits.iter().find(|hit| hit.get("router.uses").is_some());
    let framework = uses.map_or("", |hit| hit.framework());
    let own_units = uses.is_some_and(|hit| hit.prop("own-units").is_some());
    if !hits
        .iter()
        .any(|hit| hit.is("route") || hit.is("include") || hit.get("router.guard").is_some())
    {
        candidates(path, hits, framework, &mut out);
        return out;
    }
    let bindings: HashMap<usize, &str> = hits
        .iter()
        .filter_map(|hit| {
            Some((
                hit.get("router.value")?.range.start,
                hit.text("router.bind").or(hit.prop("bind"))?,
            ))
        })
        .collect();
    // Routers made here, each named by what it is bound to (`chain@…` when nothing).
    let mut made: HashMap<(usize, usize), String> = HashMap::new();
    let mut items: Vec<(usize, Receiver, Item)> = Vec::new();
    for hit in hits {
        let Some(new) = hit.get("router.new") else { continue };
        // `let app = app().layer(…)`: the name is the router it mounts, not this one's.
        let from = hit.text("router.from");
        let name = bindings
            .get(&new.range.start)
            .filter(|name| from.is_none_or(|from| from.rsplit("::").next() != Some(**name)))
            .map_or_else(|| format!("chain@{}", new.range.start), |name| (*name).to_owned());
        let prefix = hit.get("router.prefix").and_then(|p| render(&p.range, true));
        // Patterns that read the same constructor (one with its options) are one router.
        if made.contains_key(&(new.range.start, new.range.end)) {
            if let (Some(prefix), Some(unit)) = (prefix, out.units.iter_mut().find(|u| u.key.1 == name)) {
                unit.prefix = prefix;
            }
            continue;
        }
        out.declare(Unit {
            key: (path.to_owned(), name.clone()),
            framework: hit.framework(),
            prefix: prefix.unwrap_or_default(),
            app: hit.prop("app") == Some("true"),
            ..Unit::default()
        });
        // A router another function returns (`users::router()`): this one mounts it.
        if let Some(from) = from {
            let mount = Item::mount("", Target::Ref(from.to_owned()));
            items.push((new.range.start, Receiver::Local(name.clone()), mount));
        }
        made.insert((new.range.start, new.range.end), name);
    }
    let mut functions: HashMap<&str, Vec<Function>> = HashMap::new();
    for hit in hits {
        if let (Some(scope), Some(param)) = (hit.get("router.scope"), hit.text("router.param").and_then(param_name)) {
            functions.entry(param).or_default().push(Function {
                name: function_name(hit),
                scope: scope.range.clone(),
            });
        }
    }
    let calls = calls(hits);
    let by_call: HashMap<(usize, usize), usize> = calls
        .iter()
        .enumerate()
        .map(|(i, call)| ((call.at.start, call.at.end), i))
        .collect();
    // What calls' arguments hold (hints, hooks, a route object's options), by place.
    let mut held: Vec<(&Capture<'_>, &Hit<'_>)> = hits
        .iter()
        .flat_map(|hit| hit.captures.iter().map(move |capture| (capture, hit)))
        .filter(|(capture, _)| HELD.contains(&capture.name))
        .collect();
    held.sort_by_key(|(capture, _)| capture.range.start);
    let verbs = verbs(hits);
    // The values `let` binds by name (a method router kept in a variable), in the file's order.
    let values: Vec<(&str, &Range<usize>)> = hits
        .iter()
        .filter_map(|hit| Some((hit.text("router.bind")?, &hit.get("router.value")?.range)))
        .collect();
    // The kind of each guard a pattern names one of (`#set! guard-kind "decorator"`).
    let kinds: HashMap<String, &'static str> = held
        .iter()
        .filter_map(|(capture, hit)| Some((written_guard(hit, capture.text)?, hit.prop("guard-kind")?)))
        .collect();
    let mut file = File {
        path,
        hits,
        out: &mut out,
        made: &made,
        functions: &functions,
        calls: &calls,
        by_call: &by_call,
        held: &held,
        verbs: &verbs,
        values: &values,
        render,
        framework,
        layers: Vec::new(),
    };
    file.unit_dependencies();
    file.factories(&mut items);
    let mut hooks = Vec::new();
    file.unit_guards(&mut items, &mut hooks);
    for call in &calls {
        file.items(call, &mut items);
    }
    items.sort_by_key(|(at, _, _)| *at);
    // A layer (Axum's `.layer(…)`) guards what was added to its router before it.
    for (layer_at, unit, guard) in &file.layers {
        for (at, receiver, item) in &mut items {
            let guards = match item {
                Item::Route(route) => &mut route.guards,
                Item::Mount(mount) => &mut mount.guards,
                _ => continue,
            };
            if *at < *layer_at && matches!(receiver, Receiver::Local(name) if *name == *unit) {
                add_guards(guards, std::slice::from_ref(guard));
            }
        }
    }
    // Route and router hooks (`{ onRequest: [fastify.authenticate] }`) are hooks, not middleware
    // (a hook of another kind, a view's decorator, is noted where it guards a route).
    let route_hooks = held
        .iter()
        .filter(|(capture, hit)| capture.name == "route.hook" && hit.prop("guard-kind").is_none())
        .filter_map(|(hook, hit)| Some((guard(hook.text)?, hit.framework())));
    for (name, framework) in hooks.into_iter().chain(route_hooks) {
        file.out.note_used(&name, "hook", framework, path);
    }
    // Where each unit of the file is (a file may hand thousands of functions a router).
    let mut unit_at: HashMap<String, usize> = file
        .out
        .units
        .iter()
        .enumerate()
        .filter(|(_, unit)| unit.key.0 == path)
        .map(|(at, unit)| (unit.key.1.clone(), at))
        .collect();
    // `jwt := middleware.JWT(…)`: a guard kept in a variable is named by what it calls.
    let aliases: HashMap<&str, String> = hits
        .iter()
        .filter_map(|hit| Some((hit.text("alias.var")?, guard_name(hit.text("alias.value")?))))
        .collect();
    for (_, receiver, mut item) in items {
        let guards = match &mut item {
            Item::Route(route) => route.guards.as_mut_slice(),
            Item::Mount(mount) => mount.guards.as_mut_slice(),
            Item::Guard(guard) | Item::UnitGuard(guard) => std::slice::from_mut(guard),
        };
        for guard in guards {
            if let Some(name) = aliases.get(guard.as_str()) {
                guard.clone_from(name);
            }
            if !file.out.guards.iter().any(|n| n.name == *guard && n.role == Role::Used) {
                let kind = kinds.get(guard).copied().unwrap_or("middleware");
                file.out.note_used(guard, kind, framework, path);
            }
        }
        match receiver {
            Receiver::Local(name) => {
                let units = &mut file.out.units;
                let at = *unit_at.entry(name).or_insert_with_key(|name| {
                    units.push(Unit {
                        key: (path.to_owned(), name.clone()),
                        framework: if own_units { framework } else { "" },
                        ..Unit::default()
                    });
                    units.len() - 1
                });
                units[at].items.push(item);
            }
            Receiver::Foreign(name) => file.out.foreign.push((name, framework, item)),
        }
    }
    candidates(path, hits, framework, &mut out);
    out
}

/// The route and mount calls of the file, one per call (patterns that match one call twice,
/// with fewer arguments taken as middleware, give the fullest).
fn calls<'h, 't>(hits: &'h [Hit<'t>]) -> Vec<Call<'h, 't>> {
    let mut calls: Vec<Call<'h, 't>> = Vec::new();
    let mut seen: HashMap<(usize, usize), usize> = HashMap::new();
    for hit in hits {
        let (Some(receiver), Some(at)) = (
            hit.get("route.receiver").or(hit.get("include.receiver")),
            hit.get("route.call").or(hit.get("include.call")),
        ) else {
            continue;
        };
        // A call handing several names to a function is one mount per name.
        let key = (at.range.start, at.range.end);
        let have = match hit.prop("pass") {
            Some(_) => None,
            None => seen.get(&key).and_then(|&i| calls.get_mut(i)),
        };
        match have {
            // A koa-router named route (`get('name', '/path', h)`) over the route whose path
            // would be its name; else the pattern that took the most.
            Some(have) if (preferred(hit), hit.captures.len()) > (preferred(have.hit), have.hit.captures.len()) => {
                have.hit = hit
            }
            Some(_) => {}
            None => {
                if hit.prop("pass").is_none() {
                    seen.insert(key, calls.len());
                }
                calls.push(Call {
                    hit,
                    receiver,
                    at: at.range.clone(),
                })
            }
        }
    }
    calls
}

/// True for the pattern that reads a call most closely: a koa-router named route, a folder
/// of plugins.
fn preferred(hit: &Hit<'_>) -> bool {
    hit.prop("named").is_some() || hit.get("include.folder").is_some()
}

/// A function's name: its own, the variable it is bound to, or `#set! function` (`default`;
/// `closure`: named by where its body starts).
fn function_name(hit: &Hit<'_>) -> String {
    match (
        hit.text("router.function"),
        hit.prop("function"),
        hit.get("router.scope"),
    ) {
        (Some(name), _, _) => name.to_owned(),
        (None, Some("closure"), Some(scope)) => format!("closure@{}", scope.range.start),
        (None, other, _) => other.unwrap_or("default").to_owned(),
    }
}

/// A parameter's name as written (`app`, `app: Express`, `{ app }: { app: Application }`,
/// `router=None`): the name, or the first one a destructuring names.
fn param_name(text: &str) -> Option<&str> {
    let text = text.trim_start_matches(['{', ' ', '\n', '(']);
    let end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .unwrap_or(text.len());
    let name = &text[..end];
    (!name.is_empty()).then_some(name)
}

/// The auth middleware and checks the file defines: where a guard used elsewhere comes from;
/// its security schemes and the aliases of its dependencies (FastAPI).
fn candidates(path: &str, hits: &[Hit<'_>], framework: &'static str, out: &mut RouteScan) {
    // In the file's order (the hits are).
    let dependencies: Vec<&Capture<'_>> = hits.iter().flat_map(|hit| hit.all("route.dependency")).collect();
    for hit in hits {
        // `fastify.decorate('authenticate', …)`: a guard the file defines.
        if let Some(name) = hit.text("guard.defined") {
            out.guards
                .push(GuardNote::new(name, "hook", hit.framework(), Role::Defined, path));
        }
        // `oauth2_scheme = OAuth2PasswordBearer(…)`: a dependency that checks credentials.
        if let Some(name) = hit.text("guard.scheme") {
            let note = GuardNote::new(name, "security-scheme", hit.framework(), Role::Defined, path);
            if !out.guards.contains(&note) {
                out.guards.push(note);
                out.schemes.push(name.to_owned());
            }
        }
        // `CurrentUser = Annotated[User, Depends(get_current_user)]`: an alias of the dependency.
        if let (Some(alias), Some(value)) = (hit.text("dependency.alias"), hit.get("dependency.value"))
            && let Some(target) = dependencies[dependencies.partition_point(|d| d.range.start < value.range.start)..]
                .first()
                .filter(|d| inside(&d.range, &value.range))
        {
            out.aliases.push((alias.to_owned(), target.text.to_owned()));
        }
        let Some(name) = hit.text("guard.candidate") else {
            continue;
        };
        let kind = match (hit.prop("kind"), hit.prop("guard-kind")) {
            (Some("check"), _) if is_check_name(name) => "check",
            (Some(_), _) => continue,
            (None, Some(kind)) => kind,
            (None, None) => "middleware",
        };
        if out
            .guards
            .iter()
            .any(|note| note.name == name && note.role == Role::Candidate)
        {
            continue;
        }
        out.guards
            .push(GuardNote::new(name, kind, framework, Role::Candidate, path));
    }
}

/// The guard a pattern names: as written when its predicates decided (`#set! guard
/// "written"`), by the name it calls if that is an auth check (`#set! guard "called"`:
/// `middleware.RequireAuth(cfg)` → `RequireAuth`), else the auth guard the text names (see
/// [`guard`]).
fn written_guard(hit: &Hit<'_>, text: &str) -> Option<String> {
    match hit.prop("guard") {
        Some("written") => Some(text.to_owned()),
        Some("called") => Some(guard_name(text)).filter(|name| is_auth_name(name)),
        _ => guard(text),
    }
}

/// What reading one file's calls needs.
struct File<'f, 'h, 't> {
    path: &'f str,
    hits: &'h [Hit<'t>],
    out: &'f mut RouteScan,
    made: &'f HashMap<(usize, usize), String>,
    functions: &'f HashMap<&'t str, Vec<Function>>,
    calls: &'f [Call<'h, 't>],
    by_call: &'f HashMap<(usize, usize), usize>,
    held: &'f [(&'h Capture<'t>, &'h Hit<'t>)],
    /// Method routers (`get(h)`, `.post(h)`, `web::get().to(h)`), by place.
    verbs: &'f [Verb<'h, 't>],
    values: &'f [(&'t str, &'h Range<usize>)],
    render: Render<'f>,
    /// The framework the file imports (`router.uses`).
    framework: &'static str,
    /// The layers met: where, on which unit, the guard.
    layers: Vec<(usize, String, String)>,
}

/// A method router: its method (`get`, `routing::post`, `get_service`) and handler.
struct Verb<'h, 't> {
    name: &'h Capture<'t>,
    handler: Option<&'h Capture<'t>>,
}

/// The method routers of the file, in its order.
fn verbs<'h, 't>(hits: &'h [Hit<'t>]) -> Vec<Verb<'h, 't>> {
    let mut verbs: Vec<Verb<'h, 't>> = hits
        .iter()
        .filter_map(|hit| {
            let chained = || hit.get("route.name").filter(|_| call_kind(hit) == Some(CallKind::Verb));
            Some(Verb {
                name: hit.get("verb.name").or_else(chained)?,
                handler: hit.get("verb.handler").or(hit.get("route.handler")),
            })
        })
        .collect();
    verbs.sort_by_key(|verb| verb.name.range.start);
    verbs.dedup_by_key(|verb| verb.name.range.start);
    verbs
}

/// What a call on a receiver is, by its method's name (`route.name`) and the table its
/// pattern sets (`#set! methods "route=route nest=mount …"`): `route`, `any` (a route of any
/// method), `mount`, `layer` (guarding what was added before), `wrap` (guarding every route),
/// `verb` (a method router); a name the table does not list hands the router on.
fn call_kind(hit: &Hit<'_>) -> Option<CallKind> {
    let name = hit.text("route.name")?;
    let kind = hit.prop("methods")?.split_whitespace().find_map(|pair| {
        pair.split_once('=')
            .filter(|(method, _)| *method == name)
            .map(|(_, kind)| kind)
    });
    Some(kind.map_or(CallKind::Through, CallKind::named))
}

/// What a call on a receiver is ([`call_kind`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CallKind {
    Route,
    Any,
    Mount,
    Layer,
    Wrap,
    Verb,
    Through,
}

impl CallKind {
    /// The kind a `methods` table names; one it does not know hands the router on.
    fn named(kind: &str) -> CallKind {
        match kind {
            "route" => CallKind::Route,
            "any" => CallKind::Any,
            "mount" => CallKind::Mount,
            "layer" => CallKind::Layer,
            "wrap" => CallKind::Wrap,
            "verb" => CallKind::Verb,
            _ => CallKind::Through,
        }
    }
}

/// `get_service` → `GET`, `routing::any` → `ANY`, Actix's `web::route()` → `ANY`.
fn verb_method(name: &str) -> String {
    let name = name.rsplit("::").next().unwrap_or(name);
    match name.strip_suffix("_service").unwrap_or(name) {
        "route" => "ANY".to_owned(),
        method => method.to_ascii_uppercase(),
    }
}

impl<'h, 't> File<'_, 'h, 't> {
    /// The guards a router's own options hold (`APIRouter(dependencies=[Depends(auth)])`):
    /// on every route of its unit.
    fn unit_dependencies(&mut self) {
        for hit in self.hits {
            let Some(new) = hit.get("router.new") else { continue };
            let Some(name) = self.made.get(&(new.range.start, new.range.end)) else {
                continue;
            };
            let mut names = Vec::new();
            for (guard, of) in self.call_guards(&new.range) {
                if let Some(kind) = of.prop("guard-kind") {
                    self.out.note_used(&guard, kind, of.framework(), self.path);
                    names.push(guard);
                }
            }
            if !names.is_empty() {
                add_guards(&mut self.out.unit(self.path, name, "").guards, &names);
            }
        }
    }

    /// A factory returning a router it makes (`export default () => { const r = Router(); …;
    /// return r; }`) stands for it: the function's unit mounts it.
    fn factories(&self, items: &mut Vec<(usize, Receiver, Item)>) {
        for hit in self.hits {
            let (Some(returns), Some(scope)) = (hit.get("router.returns"), hit.get("router.scope")) else {
                continue;
            };
            let name = function_name(hit);
            if name != returns.text && self.out.declares(self.path, returns.text) {
                let target = Target::Ref(returns.text.to_owned());
                items.push((scope.range.start, Receiver::Local(name), Item::mount("", target)));
            }
        }
    }

    /// The unit a receiver at `at` named `name` is: the function whose parameter it is, a
    /// router the file makes, or (a call) the chain it continues; else a name from elsewhere.
    fn receiver(&self, capture: &Capture<'_>) -> Option<(Receiver, Option<String>)> {
        let mut at = capture.range.clone();
        let mut text = capture.text;
        let mut path = None;
        for _ in 0..MAX_CHAIN {
            if let Some(name) = self.made.get(&(at.start, at.end)) {
                return Some((Receiver::Local(name.clone()), path));
            }
            let Some(call) = self.by_call.get(&(at.start, at.end)).and_then(|&i| self.calls.get(i)) else {
                break;
            };
            if path.is_none() {
                path = call
                    .hit
                    .get("route.prefix")
                    .and_then(|prefix| (self.render)(&prefix.range, false));
            }
            at = call.receiver.range.clone();
            text = call.receiver.text;
        }
        if text.contains('(') {
            return None;
        }
        // The innermost function around the call with that parameter: of those starting before
        // it (in the file's order), the last that holds it.
        let function = self.functions.get(text).and_then(|functions| {
            let before = functions.partition_point(|function| function.scope.start <= at.start);
            functions[..before]
                .iter()
                .rev()
                .find(|function| inside(&at, &function.scope))
        });
        if let Some(function) = function {
            return Some((Receiver::Local(function.name.clone()), path));
        }
        if self.out.declares(self.path, text) {
            return Some((Receiver::Local(text.to_owned()), path));
        }
        Some((Receiver::Foreign(text.to_owned()), path))
    }

    /// The items one call adds, with where they go.
    fn items(&mut self, call: &Call<'_, '_>, items: &mut Vec<(usize, Receiver, Item)>) {
        let hit = call.hit;
        if hit.get("route.prefix").is_some() {
            return;
        }
        let Some((receiver, chained_path)) = self.receiver(call.receiver) else {
            return;
        };
        // Where the call's own name is: chained calls (`Router::new().route(…).layer(…)`) all
        // start where the chain does.
        let at = call.receiver.range.end;
        let kind = call_kind(hit);
        match kind {
            Some(CallKind::Route | CallKind::Any) => {}
            Some(CallKind::Mount | CallKind::Layer | CallKind::Wrap) => return self.include(call, receiver, items),
            // A method router chained on another, a call handing the router on.
            Some(_) => return,
            None => {}
        }
        // The path the call writes (none: its router's own), `None` when it is no string.
        let written = || {
            hit.get("route.path")
                .map_or(Some(String::new()), |p| (self.render)(&p.range, false))
        };
        if let Some(verbs) = hit.get("route.verbs").filter(|_| kind == Some(CallKind::Route)) {
            let Some(path) = written() else { return };
            // The method routers are what follows the path (a comment may come between).
            let after = hit
                .get("route.path")
                .map_or(call.receiver.range.end, |path| path.range.end);
            for (method, handler) in self.methods(verbs, &(after..call.at.end)) {
                let route = LocalRoute {
                    handler,
                    ..self.route(hit, method, path.clone())
                };
                items.push((at, receiver.clone(), Item::Route(route)));
            }
            return;
        }
        if let Some(options) = hit.get("route.options") {
            for route in self.route_object(hit, &options.range) {
                items.push((at, receiver.clone(), Item::Route(route)));
            }
            return;
        }
        // The method the call names, else those its options list (`@bp.route(…, methods=["GET",
        // "POST"])`: one route each), else the pattern's.
        let mut named: Vec<String> = hit
            .all("route.method")
            .filter_map(|method| http_method(method.text))
            .collect();
        if named.is_empty() {
            named = self
                .named(&call.at, "option.method")
                .filter_map(|(method, _)| http_method(&literal(method.text)))
                .collect();
        }
        let any = kind.filter(|kind| *kind == CallKind::Any).map(|_| "ANY");
        let mut methods = match (named.is_empty(), hit.get("route.method"), hit.prop("method").or(any)) {
            (false, _, _) => named,
            (true, _, Some(method)) => http_method(method).into_iter().collect(),
            (true, Some(_), None) => return,
            (true, None, None) => Vec::new(),
        };
        if !methods.is_empty() {
            let path = match hit.prop("chained") {
                Some(_) => chained_path,
                None => written(),
            };
            let Some(mut path) = path else { return };
            // Go 1.22's ServeMux names the method in the path: "GET /items/{id}".
            if let Some((method, rest)) = path.split_once(' ')
                && HTTP_METHODS.contains(&method)
            {
                (methods, path) = (vec![method.to_owned()], rest.trim_start().to_owned());
            }
            for method in methods {
                // `app.options('*', cors())` answers CORS preflights for every path: no endpoint.
                if method == "OPTIONS" && path == "*" {
                    continue;
                }
                let route = self.route(hit, method, path.clone());
                items.push((at, receiver.clone(), Item::Route(route)));
            }
        } else {
            self.include(call, receiver, items);
        }
    }

    /// The methods and handlers of the method routers the `arguments` hold (`get(list).post(create)`,
    /// `web::get().to(h)`), or the `let` the argument `verbs` names holds; one inside another's
    /// handler is none.
    fn methods(&self, verbs: &Capture<'_>, arguments: &Range<usize>) -> Vec<(String, Option<String>)> {
        let mut range = arguments;
        if !verbs.text.contains('(') && !verbs.text.starts_with("//") && !verbs.text.starts_with("/*") {
            match self
                .values
                .iter()
                .rev()
                .find(|(name, value)| *name == verbs.text && value.end <= verbs.range.start)
            {
                Some((_, value)) => range = *value,
                None => return Vec::new(),
            }
        }
        let from = self.verbs.partition_point(|verb| verb.name.range.start < range.start);
        let mut out = Vec::new();
        let mut inside_handler = 0;
        for verb in self.verbs[from..]
            .iter()
            .take_while(|verb| verb.name.range.start < range.end)
        {
            if verb.name.range.start < inside_handler {
                continue;
            }
            inside_handler = verb.handler.map_or(0, |handler| handler.range.end);
            out.push((
                verb_method(verb.name.text),
                verb.handler.and_then(|h| handler_name(h.text)),
            ));
        }
        out
    }

    /// A route: its handler, the auth middleware before it, the shapes it may take, what it
    /// depends on (its scope's: a decorated view's decorators and signature).
    fn route(&self, hit: &Hit<'_>, method: String, path: String) -> LocalRoute {
        let middleware: Vec<&Capture<'_>> = hit
            .all("route.guard")
            .chain(hit.get("route.options"))
            .chain(hit.get("route.scope"))
            .collect();
        let handler = hit.get("route.handler");
        let mut guards: Vec<String> = hit
            .all("route.guard")
            .filter_map(|m| written_guard(hit, m.text))
            .collect();
        let model = hit
            .get("route.call")
            .and_then(|call| self.named(&call.range, "route.model").next());
        let mut route = LocalRoute {
            response: model.map(|(model, _)| model.text.to_owned()),
            ..LocalRoute::default()
        };
        let mut forms = Vec::new();
        for (held, of) in middleware.iter().flat_map(|m| self.within(&m.range)) {
            match held.name {
                "route.hook" => add_guards(&mut guards, guard(held.text).as_slice()),
                "call.guard" => add_guards(&mut guards, written_guard(of, held.text).as_slice()),
                "route.hint" => route.request_hints.push(held.text.to_owned()),
                "route.response" => route.response_hints.push(held.text.to_owned()),
                "route.dependency" => route.dependencies.push(held.text.to_owned()),
                "route.alias" => route.guard_aliases.push(held.text.to_owned()),
                "route.form" if !forms.contains(&held.text) => forms.push(held.text),
                _ => {}
            }
        }
        if !BODILESS.contains(&method.as_str()) {
            route.request_hints.extend(forms.into_iter().map(str::to_owned));
        }
        for (parsed, _) in handler.into_iter().flat_map(|h| self.named(&h.range, "route.parsed")) {
            push_once(&mut route.request_hints, parsed.text.to_owned());
        }
        LocalRoute {
            method,
            path,
            handler: handler.and_then(|h| handler_name(h.text)),
            guards,
            file: self.path.to_owned(),
            ..route
        }
    }

    /// The routes a route object declares (`route({ method: ['PUT', 'PATCH'], url, handler })`):
    /// one per method.
    fn route_object(&self, hit: &Hit<'_>, options: &Range<usize>) -> Vec<LocalRoute> {
        let named = |wanted| self.named(options, wanted);
        let Some(path) = named("option.path")
            .next()
            .and_then(|(path, _)| (self.render)(&path.range, false))
        else {
            return Vec::new();
        };
        let handler = named("option.handler")
            .next()
            .and_then(|(handler, _)| handler_name(handler.text));
        named("option.method")
            .map(|(method, _)| literal(method.text).to_ascii_uppercase())
            .filter(|method| HTTP_METHODS.contains(&method.as_str()))
            .map(|method| LocalRoute {
                handler: handler.clone(),
                ..self.route(hit, method, path.clone())
            })
            .collect()
    }

    /// The held captures inside `range` (see [`HELD`]), with the hits they are of.
    fn within<'s>(&'s self, range: &'s Range<usize>) -> impl Iterator<Item = (&'h Capture<'t>, &'h Hit<'t>)> + 's {
        placed_in(self.held, range, |(capture, _)| &capture.range).copied()
    }

    /// The guards the options inside `range` hold (`dependencies=[Depends(auth)]`), with the
    /// hits naming them.
    fn call_guards(&self, range: &Range<usize>) -> Vec<(String, &'h Hit<'t>)> {
        self.named(range, "call.guard")
            .filter_map(|(capture, hit)| Some((written_guard(hit, capture.text)?, hit)))
            .collect()
    }

    /// The held captures named `name` inside `range`.
    fn named<'s>(
        &'s self,
        range: &'s Range<usize>,
        name: &'static str,
    ) -> impl Iterator<Item = (&'h Capture<'t>, &'h Hit<'t>)> + 's {
        self.within(range).filter(move |(capture, _)| capture.name == name)
    }

    /// Hooks on a router (`fastify.addHook('onRequest', fastify.authenticate)`): guards on every
    /// route of its unit, wherever they are written; middleware when the pattern says so
    /// (`#set! guard-kind "middleware"`, noted in its place like the other middleware).
    fn unit_guards(&self, items: &mut Vec<(usize, Receiver, Item)>, notes: &mut Vec<(String, &'static str)>) {
        let hits = self.hits;
        for hit in hits {
            let (Some(receiver), Some(written)) = (hit.get("router.receiver"), hit.get("router.guard")) else {
                continue;
            };
            let name = match hit.prop("named-by") {
                // A hook named by what it checks only when it calls no guard.
                Some(_) => {
                    let hook = hit.get("router.hook").map(|hook| &hook.range);
                    let called = hits.iter().any(|other| {
                        other.prop("named-by").is_none() && other.get("router.hook").map(|h| &h.range) == hook
                    });
                    (!called).then(|| written.text.to_owned())
                }
                None => written_guard(hit, written.text),
            };
            if let (Some(name), Some((receiver, _))) = (name, self.receiver(receiver)) {
                if hit.prop("guard-kind").is_none() {
                    notes.push((name.clone(), hit.framework()));
                }
                items.push((written.range.start, receiver, Item::UnitGuard(name)));
            }
        }
    }

    /// The folder a mount loads every plugin file of (`register(AutoLoad, { dir: … })`), with
    /// the prefix its options give them.
    fn folder(&self, folder: &Range<usize>) -> (Autoload, String) {
        let within = |name| self.named(folder, name);
        let parts: Vec<&str> = within("folder.part").map(|(part, _)| part.text).collect();
        let flag = |name: &str| {
            within("folder.flag")
                .find(|(flag, _)| flag.text == name)
                .and_then(|(_, hit)| hit.text("folder.value"))
                .map(|value| value == "true")
        };
        let dir = join_relative(parent_dir(self.path), &parts.join("/")).unwrap_or_default();
        let prefix = within("folder.prefix")
            .next()
            .and_then(|(prefix, _)| (self.render)(&prefix.range, true))
            .unwrap_or_default();
        let autoload = Autoload {
            dir,
            folder_prefixes: flag("dirNameRoutePrefix") != Some(false),
            hooks: flag("autoHooks") == Some(true),
            cascade_hooks: flag("cascadeHooks") == Some(true),
            route_params: flag("routeParams") == Some(true),
        };
        (autoload, prefix)
    }

    /// A mount (`use('/x', auth, router)`), or middleware alone guarding what follows.
    fn include(&mut self, call: &Call<'_, '_>, receiver: Receiver, items: &mut Vec<(usize, Receiver, Item)>) {
        let hit = call.hit;
        let at = call.receiver.range.end;
        // Axum's `.layer(from_fn(auth))` guards what was added before it (see `scan`), Actix's
        // `.wrap(auth)` every route of its app or scope.
        if let Some(wraps) = call_kind(hit).filter(|kind| matches!(kind, CallKind::Layer | CallKind::Wrap)) {
            let arguments = call.receiver.range.end..call.at.end;
            let named: Vec<String> = self
                .named(&arguments, "layer.guard")
                .filter_map(|(held, _)| guard(held.text))
                .collect();
            for name in named {
                let kind = if wraps == CallKind::Layer {
                    "layer"
                } else {
                    "middleware"
                };
                self.out.note_used(&name, kind, self.framework, self.path);
                match (&receiver, wraps) {
                    (Receiver::Local(unit), CallKind::Layer) => self.layers.push((at, unit.clone(), name)),
                    _ => items.push((at, receiver.clone(), Item::UnitGuard(name))),
                }
            }
            return;
        }
        let mut add = |item| items.push((at, receiver.clone(), item));
        if let Some(folder) = hit.get("include.folder") {
            let (autoload, prefix) = self.folder(&folder.range);
            return add(Item::mount(&prefix, Target::Autoload(autoload)));
        }
        let Some(target) = hit.get("include.target") else {
            return;
        };
        let mut guards: Vec<String> = hit
            .all("include.guard")
            .filter_map(|g| written_guard(hit, g.text))
            .collect();
        // The guards its options hold (`include_router(r, dependencies=[Depends(auth)])`).
        let held: Vec<String> = self.call_guards(&call.at).into_iter().map(|(guard, _)| guard).collect();
        add_guards(&mut guards, &held);
        let own_prefix = hit.get("include.prefix").and_then(|p| (self.render)(&p.range, true));
        // A prefix that replaces the target's own (Flask's `register_blueprint(url_prefix=…)`).
        let replace = own_prefix.is_some() && hit.prop("replace").is_some();
        let mut prefix = own_prefix.unwrap_or_default();
        let mut tentative = false;
        if let Some(first) = hit.get("include.path") {
            if first.text.starts_with(['\'', '"', '`']) {
                prefix = (self.render)(&first.range, false).unwrap_or_default();
            } else if let Some(name) = guard(first.text).filter(|_| !names_a_path(first.text)) {
                guards.insert(0, name);
            } else {
                // A name that may be a prefix held in another file (the linker decides), and
                // may be a router after all.
                prefix = (self.render)(&first.range, true).unwrap_or_default();
                tentative = true;
                if let Some(name) = target_name(first.text) {
                    add(Item::mount("", Target::Ref(name)));
                }
            }
        }
        if let Some(rows) = self.table_rows(call, target.text) {
            for (prefix_at, row_target) in rows.into_iter().take(MAX_ROWS) {
                let prefix = (self.render)(&prefix_at, true).unwrap_or_default();
                let Some(name) = target_name(row_target) else { continue };
                add(Item::mount(&prefix, Target::Ref(name)));
            }
            return;
        }
        // A router built inline or chained on another (`Router::new().route(…)`,
        // `users::router().layer(…)`) is the unit its chain starts with; `.nest("/api",
        // api::routes(state))` mounts the router a function returns; a closure handed a router
        // (`r.Route("/x", func(r chi.Router) { … })`) is its own unit.
        let closure = self.functions.values().flatten().find(|f| f.scope == target.range);
        let chain = match closure {
            Some(closure) => Some((Receiver::Local(closure.name.clone()), None)),
            None => target.text.contains('(').then(|| self.receiver(target)).flatten(),
        };
        let returned = || {
            let (callee, _) = target
                .text
                .split_once('(')
                .filter(|_| call_kind(hit) == Some(CallKind::Mount))?;
            target_name(callee)
        };
        if let Some((Receiver::Local(name), _)) = chain {
            let target = Target::Ref(name);
            return add(Item::Mount(Mount {
                prefix,
                target,
                guards,
                tentative,
                ..Mount::default()
            }));
        } else if let Some(name) = returned() {
            return add(Item::mount(&prefix, Target::Ref(name)));
        }
        let lone = hit.get("include.path").is_none()
            && hit.prop("pass").is_none()
            && hit.prop("mounts").is_none()
            && call_kind(hit).is_none();
        let lone_guard = lone.then(|| written_guard(hit, target.text)).flatten();
        let Some(name) = target_name(target.text).filter(|_| lone_guard.is_none()) else {
            guards.extend(lone_guard);
            return guards.into_iter().map(Item::Guard).for_each(add);
        };
        // Every argument after the prefix that names a router is mounted (koa's
        // `use('/x', r.routes(), r.allowedMethods())`), with the guards before it.
        let middle = hit
            .all("include.guard")
            .filter(|arg| written_guard(hit, arg.text).is_none());
        for name in middle.filter_map(|arg| target_name(arg.text)).chain([name]) {
            let (prefix, guards, target) = (prefix.clone(), guards.clone(), Target::Ref(name));
            add(Item::Mount(Mount {
                prefix,
                replace,
                target,
                guards,
                tentative,
            }));
        }
    }

    /// A mount inside an iteration over a table (`routes.forEach((r) => router.use(r.path,
    /// r.route))`): the prefix and target of each of the table's rows, by the keys the
    /// mount's two arguments read.
    fn table_rows(&self, call: &Call<'_, '_>, target: &str) -> Option<Vec<(Range<usize>, &'t str)>> {
        let path = call.hit.text("include.path")?;
        let (row, path_key) = path.split_once('.')?;
        let (target_row, target_key) = target.split_once('.')?;
        if row != target_row {
            return None;
        }
        let each = self
            .hits
            .iter()
            .filter(|hit| {
                hit.text("each.param").and_then(param_name) == Some(row)
                    && hit
                        .get("each.scope")
                        .is_some_and(|scope| inside(&call.at, &scope.range))
            })
            .max_by_key(|hit| hit.get("each.scope").map(|scope| scope.range.start))?;
        let table = each.text("each.table")?;
        let cells: Vec<(&Range<usize>, &str, &Capture<'t>)> = self
            .hits
            .iter()
            .filter(|hit| hit.text("entry.table") == Some(table))
            .filter_map(|hit| {
                Some((
                    &hit.get("entry.scope")?.range,
                    hit.text("entry.key")?,
                    hit.get("entry.value")?,
                ))
            })
            .collect();
        // A row per entry (its scope): the first cells of the two keys in it.
        let cell = |scope: &Range<usize>, key: &str| {
            let found = cells.iter().find(|(s, k, _)| *s == scope && *k == key);
            found.map(|(_, _, value)| *value)
        };
        let mut rows: Vec<(Range<usize>, &'t str)> = Vec::new();
        for (scope, _, _) in &cells {
            if let (Some(prefix), Some(target)) = (cell(scope, path_key), cell(scope, target_key))
                && !rows.iter().any(|(at, _)| *at == prefix.range)
            {
                rows.push((prefix.range.clone(), target.text));
            }
        }
        Some(rows)
    }
}

/// The HTTP method a route names (`get`, `"POST"`, `del`), `None` for what is none (`route`).
pub(super) fn http_method(text: &str) -> Option<String> {
    match text.to_ascii_uppercase().as_str() {
        "DEL" => Some("DELETE".to_owned()),
        "ALL" => Some("ALL".to_owned()),
        "ANY" => Some("ANY".to_owned()),
        other if HTTP_METHODS.contains(&other) => Some(other.to_owned()),
        _ => None,
    }
}

/// True for a name that reads like a path held elsewhere (`config.api.prefix`, `API_PREFIX`,
/// `basePath`), not middleware.
fn names_a_path(text: &str) -> bool {
    let words = crate::bridge::code_model::guards::names::words(text);
    text.chars()
        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        || words
            .iter()
            .any(|w| matches!(w.as_str(), "prefix" | "path" | "base" | "url" | "root" | "mount"))
}

/// What a mount names: `router`, `users.router`, `router.routes()`, `routes()`,
/// `require('./x')` and `import('./x')` (`module:./x`).
fn target_name(text: &str) -> Option<String> {
    let text = text.trim().trim_start_matches("await ").trim();
    for call in ["require(", "import("] {
        if let Some(rest) = text.strip_prefix(call) {
            let source = rest.trim_end_matches(')').trim();
            return source
                .starts_with(['\'', '"', '`'])
                .then(|| format!("module:{}", literal(source)));
        }
    }
    let text = text.strip_suffix("()").unwrap_or(text);
    let text = text
        .strip_suffix(".routes")
        .or_else(|| text.strip_suffix(".middleware"))
        .unwrap_or(text);
    is_plain(text).then(|| text.to_owned())
}

/// A name or a path of names (`users.list`, `api::routes`, `$router`).
fn is_plain(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '$' | '.' | ':'))
}

/// A handler's name: `list`, `users.list`, `asyncHandler(list)` → `list`,
/// `orders.show.bind(orders)` → `orders.show`; an inline function has none.
fn handler_name(text: &str) -> Option<String> {
    let mut text = text.trim();
    for _ in 0..8 {
        if !text.contains('(') {
            return is_plain(text).then(|| text.to_owned());
        }
        if let Some((bound, _)) = text.split_once(".bind(") {
            text = bound;
            continue;
        }
        let (callee, rest) = text.split_once('(')?;
        if callee.contains([' ', '=', '>']) || callee.is_empty() {
            return None;
        }
        let inner = rest.strip_suffix(')')?.trim();
        if inner.contains(',') {
            return None;
        }
        text = inner;
    }
    None
}

/// The auth guard a middleware argument names, as written: `requireAuth`, `auth.required`,
/// `auth('manageUsers')` → `auth`, `passport.authenticate('jwt', …)` →
/// `passport.authenticate('jwt')`, `fastify.authenticate` → `authenticate`; `None` for what is
/// no auth check (a logger, a validator).
pub fn guard(text: &str) -> Option<String> {
    let text = text.trim();
    let callee = text.split('(').next().unwrap_or(text).trim();
    if !is_plain(callee) {
        return None;
    }
    let plain = match callee.split_once('.') {
        Some((object, rest)) if PLAIN_RECEIVERS.contains(&object) && !rest.contains('.') => rest,
        _ => callee,
    };
    if !is_auth_name(plain) {
        return None;
    }
    let strategy = STRATEGY_CALLS
        .contains(&plain)
        .then(|| text.split_once('(').map(|(_, args)| args))
        .flatten()
        .and_then(|args| {
            let first = args.split([',', ')']).next()?.trim();
            first.starts_with(['\'', '"', '`']).then(|| literal(first))
        });
    Some(match strategy {
        Some(strategy) => format!("{plain}('{strategy}')"),
        None => plain.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bridge::extract::Source;

    /// Thousands of routes in one file and a chain of twenty calls are read in one pass
    /// each (no call looked up by scanning the others).
    #[test]
    fn a_file_of_thousands_of_routes_and_a_chain_of_twenty_calls_are_read_in_one_pass() {
        let mut routes = String::from("import { Router } from 'express';\nexport const router = Router();\n");
        for i in 0..5_000 {
            routes.push_str(&format!("router.get('/r{i}', auth, h{i});\n"));
        }
        let mut chain = String::from("import express from 'express';\nmodule.exports = express.Router()");
        for i in 0..20 {
            chain.push_str(&format!(".get('/c{i}', h)"));
        }
        chain.push_str(";\n");
        let files = [("src/routes.ts", routes), ("src/chain.js", chain)];
        let sources: Vec<Source<'_>> = files.iter().map(|(path, text)| Source { path, text }).collect();
        let facts = crate::bridge::extract::code::extract(&sources);
        let chained = facts.endpoints.iter().filter(|e| e.path.starts_with("/c")).count();
        assert_eq!(facts.endpoints.len() - chained, 5_000, "{:?}", facts.unparsed);
        assert_eq!(chained, 20);
        assert!(facts.endpoints.iter().any(|e| e.path == "/r0" && e.guards == ["auth"]));
    }

    /// Thousands of Axum router functions in one file, a chain of two hundred routes, method
    /// routers nested in a handler's closure (which are no routes of their own), and a
    /// thousand Actix handlers routed by their attributes.
    #[test]
    fn an_axum_file_of_thousands_of_routers_and_a_long_chain_is_read() {
        let mut routers = String::from("use axum::{routing::get, Router};\n");
        for i in 0..3_000 {
            routers.push_str(&format!(
                "pub fn r{i}() -> Router {{ Router::new().route(\"/r{i}\", get(h{i}).post(|| async {{ client.get(url).await }})).layer(from_fn(require_auth)) }}\n"
            ));
        }
        let mut chain = String::from("use axum::{routing::get, Router};\nfn app() -> Router { Router::new()");
        for i in 0..200 {
            chain.push_str(&format!(".route(\"/c{i}\", get(h))"));
        }
        chain.push_str(" }\n");
        let mut handlers = String::from("use actix_web::{get, web};\n");
        for i in 0..1_000 {
            handlers.push_str(&format!(
                "#[get(\"/a{i}\")]\nasync fn a{i}(body: web::Json<New{i}>) {{}}\n"
            ));
        }
        let files = [
            ("src/routers.rs", routers),
            ("src/chain.rs", chain),
            ("src/handlers.rs", handlers),
        ];
        let sources: Vec<Source<'_>> = files.iter().map(|(path, text)| Source { path, text }).collect();
        let facts = crate::bridge::extract::code::extract(&sources);
        let chained = facts.endpoints.iter().filter(|e| e.path.starts_with("/c")).count();
        let attributed = facts.endpoints.iter().filter(|e| e.path.starts_with("/a")).count();
        assert_eq!(
            facts.endpoints.len() - chained - attributed,
            6_000,
            "{:?}",
            facts.unparsed
        );
        assert_eq!(attributed, 1_000);
        assert_eq!(chained, 200);
        let r0: Vec<_> = facts.endpoints.iter().filter(|e| e.path == "/r0").collect();
        assert_eq!(r0.len(), 2);
        assert!(r0.iter().all(|e| e.guards == ["require_auth"] && e.framework == "axum"));
        assert_eq!(r0[0].handler.as_deref(), Some("h0"));
    }

    #[test]
    fn names_from_the_text_of_arguments() {
        assert_eq!(handler_name("users.list").as_deref(), Some("users.list"));
        assert_eq!(
            handler_name("asyncHandler(orders.list)").as_deref(),
            Some("orders.list")
        );
        assert_eq!(handler_name("orders.show.bind(orders)").as_deref(), Some("orders.show"));
        assert_eq!(handler_name("async (req, res) => { res.json(1) }"), None);
        assert_eq!(
            target_name("require('./routes/admin')").as_deref(),
            Some("module:./routes/admin")
        );
        assert_eq!(target_name("router.routes()").as_deref(), Some("router"));
        assert_eq!(target_name("api()").as_deref(), Some("api"));
        assert_eq!(guard("auth('manageUsers')").as_deref(), Some("auth"));
        assert_eq!(
            guard("passport.authenticate('jwt', { session: false })").as_deref(),
            Some("passport.authenticate('jwt')")
        );
        assert_eq!(guard("fastify.authenticate").as_deref(), Some("authenticate"));
        assert_eq!(guard("cors()"), None);
        assert_eq!(param_name("{ app }: { app: express.Application }"), Some("app"));
        assert_eq!(param_name("app: Router"), Some("app"));
    }
}
