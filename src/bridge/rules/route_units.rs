//! From rule captures to the mount graph's units (any framework whose routers are values:
//! Express, Koa, Fastify; the graph and the linker in `extract::code::routes` put them
//! together across files). A file's hits name routers made (`router.new`, named by the
//! binding whose value starts where they do), functions handed a router (`router.function`
//! with `router.param`), routes and mounts called on a receiver (`route.*`, `include.*`):
//! each call goes to the unit its receiver is in this file (a router it makes, the function
//! whose parameter it is, the chain it is called on), or to a name another file defines.

use std::ops::Range;

use super::hits::{Capture, Hit, inside};
use super::paths::HTTP_METHODS;
use super::text::literal;
use crate::bridge::extract::code::guards::names::is_check_name;
use crate::bridge::extract::code::guards::{GuardNote, Role, is_auth_name};
use crate::bridge::extract::code::routes::RouteScan;
use crate::bridge::extract::code::routes::graph::{Item, LocalRoute, Mount, Target, Unit};

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

/// A function handed a receiver: what is called on `param` inside `scope` goes to `name`.
struct Function<'t> {
    name: String,
    param: &'t str,
    scope: Range<usize>,
}

/// Where a call goes.
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
    let mut out = RouteScan::default();
    if !hits.iter().any(|hit| hit.is("route") || hit.is("include")) {
        candidates(path, hits, &mut out);
        return out;
    }
    let bindings: Vec<(usize, String)> = hits
        .iter()
        .filter_map(|hit| {
            let value = hit.get("router.value")?;
            let name = hit.text("router.bind").or(hit.prop("bind"))?;
            Some((value.range.start, name.to_owned()))
        })
        .collect();
    // Routers made here, each named by what it is bound to (`chain@…` when nothing).
    let mut made: Vec<(Range<usize>, String)> = Vec::new();
    for hit in hits {
        let Some(new) = hit.get("router.new") else { continue };
        let name = bindings
            .iter()
            .find(|(start, _)| *start == new.range.start)
            .map_or_else(|| format!("chain@{}", new.range.start), |(_, name)| name.clone());
        let prefix = hit.get("router.prefix").and_then(|p| render(&p.range, true));
        out.declare(Unit {
            key: (path.to_owned(), name.clone()),
            framework: hit.framework(),
            prefix: prefix.unwrap_or_default(),
            app: hit.prop("app") == Some("true"),
            ..Unit::default()
        });
        made.push((new.range.clone(), name));
    }
    let functions: Vec<Function<'_>> = hits
        .iter()
        .filter_map(|hit| {
            let scope = hit.get("router.scope")?;
            let param = param_name(hit.text("router.param")?)?;
            Some(Function {
                name: function_name(hit),
                param,
                scope: scope.range.clone(),
            })
        })
        .collect();
    let calls = calls(hits);
    let file = File {
        path,
        hits,
        out: &mut out,
        made: &made,
        functions: &functions,
        calls: &calls,
        render,
    };
    let mut items: Vec<(usize, Receiver, Item)> = Vec::new();
    file.factories(hits, &mut items);
    for call in &calls {
        file.items(call, hits, &mut items);
    }
    items.sort_by_key(|(at, _, _)| *at);
    let framework = hits
        .iter()
        .find(|hit| hit.is("route") || hit.is("include"))
        .map_or("", |hit| hit.framework());
    for (_, receiver, item) in items {
        let guards = match &item {
            Item::Route(route) => route.guards.as_slice(),
            Item::Mount(mount) => mount.guards.as_slice(),
            Item::Guard(guard) | Item::UnitGuard(guard) => std::slice::from_ref(guard),
        };
        for guard in guards {
            note(file.out, guard, framework, path);
        }
        match receiver {
            Receiver::Local(name) => file.out.unit(path, &name, "").items.push(item),
            Receiver::Foreign(name) => file.out.foreign.push((name, framework, item)),
        }
    }
    candidates(path, hits, &mut out);
    out
}

/// The route and mount calls of the file, one per call (patterns that match one call twice,
/// with fewer arguments taken as middleware, give the fullest).
fn calls<'h, 't>(hits: &'h [Hit<'t>]) -> Vec<Call<'h, 't>> {
    let mut calls: Vec<Call<'h, 't>> = Vec::new();
    for hit in hits {
        let (Some(receiver), Some(at)) = (
            hit.get("route.receiver").or(hit.get("include.receiver")),
            hit.get("route.call").or(hit.get("include.call")),
        ) else {
            continue;
        };
        let pass = hit.prop("pass").is_some();
        match calls
            .iter_mut()
            .find(|have| have.at == at.range && !pass && have.hit.prop("pass").is_none())
        {
            Some(have) if have.hit.captures.len() < hit.captures.len() => have.hit = hit,
            Some(_) => {}
            None => calls.push(Call {
                hit,
                receiver,
                at: at.range.clone(),
            }),
        }
    }
    calls
}

/// A function's name: its own, the variable it is bound to, or `#set! function` (`default`).
fn function_name(hit: &Hit<'_>) -> String {
    hit.text("router.function")
        .or(hit.prop("function"))
        .unwrap_or("default")
        .to_owned()
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

/// The auth middleware and checks the file defines: where a guard used elsewhere comes from.
fn candidates(path: &str, hits: &[Hit<'_>], out: &mut RouteScan) {
    for hit in hits {
        let Some(name) = hit.text("guard.candidate") else {
            continue;
        };
        let kind = match hit.prop("kind") {
            Some("check") if is_check_name(name) => "check",
            Some(_) => continue,
            None => "middleware",
        };
        if out
            .guards
            .iter()
            .any(|note| note.name == name && note.role == Role::Candidate)
        {
            continue;
        }
        out.guards
            .push(GuardNote::new(name, kind, hit.framework(), Role::Candidate, path));
    }
}

/// Notes that the file puts guard `name` on a route or router.
fn note(out: &mut RouteScan, name: &str, framework: &'static str, path: &str) {
    let note = GuardNote::new(name, "middleware", framework, Role::Used, path);
    if !out.guards.contains(&note) {
        out.guards.push(note);
    }
}

/// What reading one file's calls needs.
struct File<'f, 'h, 't> {
    path: &'f str,
    hits: &'h [Hit<'t>],
    out: &'f mut RouteScan,
    made: &'f [(Range<usize>, String)],
    functions: &'f [Function<'t>],
    calls: &'f [Call<'h, 't>],
    render: Render<'f>,
}

impl<'t> File<'_, '_, 't> {
    /// A factory returning a router it makes (`export default () => { const r = Router(); …;
    /// return r; }`) stands for it: the function's unit mounts it.
    fn factories(&self, hits: &[Hit<'_>], items: &mut Vec<(usize, Receiver, Item)>) {
        for hit in hits {
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
            if let Some((_, name)) = self.made.iter().find(|(made, _)| *made == at) {
                return Some((Receiver::Local(name.clone()), path));
            }
            let Some(call) = self.calls.iter().find(|call| call.at == at) else {
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
        let function = self
            .functions
            .iter()
            .filter(|function| function.param == text && inside(&at, &function.scope))
            .max_by_key(|function| function.scope.start);
        if let Some(function) = function {
            return Some((Receiver::Local(function.name.clone()), path));
        }
        if self.out.declares(self.path, text) {
            return Some((Receiver::Local(text.to_owned()), path));
        }
        Some((Receiver::Foreign(text.to_owned()), path))
    }

    /// The items one call adds, with where they go.
    fn items(&self, call: &Call<'_, '_>, hits: &[Hit<'_>], items: &mut Vec<(usize, Receiver, Item)>) {
        let hit = call.hit;
        if hit.get("route.prefix").is_some() {
            return;
        }
        let Some((receiver, chained_path)) = self.receiver(call.receiver) else {
            return;
        };
        let at = call.at.start;
        if let Some(method) = hit.text("route.method").or(hit.prop("method")) {
            let chained = hit.prop("chained").is_some();
            let path = match (chained, hit.get("route.path")) {
                (true, _) => match chained_path {
                    Some(path) => path,
                    None => return,
                },
                (false, Some(path)) => match (self.render)(&path.range, false) {
                    Some(path) => path,
                    None => return,
                },
                (false, None) => String::new(),
            };
            let method = match method.to_ascii_uppercase().as_str() {
                "DEL" => "DELETE".to_owned(),
                "ALL" | "ANY" => "ALL".to_owned(),
                other if HTTP_METHODS.contains(&other) => other.to_owned(),
                _ => return,
            };
            // `app.options('*', cors())` answers CORS preflights for every path: no endpoint.
            if method == "OPTIONS" && path == "*" {
                return;
            }
            let route = self.route(hit, hits, method, path);
            items.push((at, receiver, Item::Route(route)));
        } else {
            self.include(call, receiver, items);
        }
    }

    /// A route: its handler, the auth middleware before it, the shapes it may take.
    fn route(&self, hit: &Hit<'_>, hits: &[Hit<'_>], method: String, path: String) -> LocalRoute {
        let middleware: Vec<&Capture<'_>> = hit.all("route.guard").collect();
        let handler = hit.get("route.handler");
        let mut request_hints = Vec::new();
        for other in hits {
            if let Some(hint) = other.get("route.hint")
                && middleware.iter().any(|m| inside(&hint.range, &m.range))
            {
                request_hints.push(hint.text.to_owned());
            }
            if let Some(parsed) = other.get("route.parsed")
                && handler.is_some_and(|h| inside(&parsed.range, &h.range))
                && !request_hints.iter().any(|have| have == parsed.text)
            {
                request_hints.push(parsed.text.to_owned());
            }
        }
        LocalRoute {
            method,
            path,
            handler: handler.and_then(|h| handler_name(h.text)),
            request_hints,
            guards: middleware.iter().filter_map(|m| guard(m.text)).collect(),
            file: self.path.to_owned(),
            ..LocalRoute::default()
        }
    }

    /// A mount (`use('/x', auth, router)`), or middleware alone guarding what follows.
    fn include(&self, call: &Call<'_, '_>, receiver: Receiver, items: &mut Vec<(usize, Receiver, Item)>) {
        let hit = call.hit;
        let at = call.at.start;
        let Some(target) = hit.get("include.target") else {
            return;
        };
        let mut guards: Vec<String> = hit.all("include.guard").filter_map(|g| guard(g.text)).collect();
        let mut prefix = String::new();
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
                    let mount = Item::mount("", Target::Ref(name));
                    items.push((at, self.same(&receiver), mount));
                }
            }
        }
        if let Some(rows) = self.table_rows(call, target.text) {
            for (prefix_at, row_target) in rows.into_iter().take(MAX_ROWS) {
                let prefix = (self.render)(&prefix_at, true).unwrap_or_default();
                let Some(name) = target_name(row_target) else { continue };
                items.push((at, self.same(&receiver), Item::mount(&prefix, Target::Ref(name))));
            }
            return;
        }
        let lone = hit.get("include.path").is_none() && hit.prop("pass").is_none();
        if lone && let Some(name) = guard(target.text) {
            items.push((at, receiver, Item::Guard(name)));
            return;
        }
        let Some(name) = target_name(target.text) else {
            for guard in guards {
                items.push((at, self.same(&receiver), Item::Guard(guard)));
            }
            return;
        };
        let mount = Item::Mount(Mount {
            prefix,
            target: Target::Ref(name),
            guards,
            tentative,
            ..Mount::default()
        });
        items.push((at, receiver, mount));
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
        let mut rows = Vec::new();
        let mut seen: Vec<&Range<usize>> = Vec::new();
        for (scope, _, _) in &cells {
            if seen.contains(scope) {
                continue;
            }
            seen.push(scope);
            let cell = |key: &str| {
                cells
                    .iter()
                    .find(|(s, k, _)| s == scope && *k == key)
                    .map(|(_, _, v)| *v)
            };
            if let (Some(prefix), Some(target)) = (cell(path_key), cell(target_key)) {
                rows.push((prefix.range.clone(), target.text));
            }
        }
        Some(rows)
    }

    fn same(&self, receiver: &Receiver) -> Receiver {
        match receiver {
            Receiver::Local(name) => Receiver::Local(name.clone()),
            Receiver::Foreign(name) => Receiver::Foreign(name.clone()),
        }
    }
}

/// True for a name that reads like a path held elsewhere (`config.api.prefix`, `API_PREFIX`,
/// `basePath`), not middleware.
fn names_a_path(text: &str) -> bool {
    let words = crate::bridge::extract::code::guards::names::words(text);
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
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '$' | '.'));
    plain.then(|| text.to_owned())
}

/// A handler's name: `list`, `users.list`, `asyncHandler(list)` → `list`,
/// `orders.show.bind(orders)` → `orders.show`; an inline function has none.
fn handler_name(text: &str) -> Option<String> {
    let mut text = text.trim();
    for _ in 0..8 {
        if !text.contains('(') {
            let plain = text
                .chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '_' | '$' | '.'));
            return (plain && !text.is_empty()).then(|| text.to_owned());
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
    if callee.is_empty()
        || !callee
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '$' | '.'))
    {
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
