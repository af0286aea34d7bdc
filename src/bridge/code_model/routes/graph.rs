//! The mount graph every backend framework's routes go through: units (an app, a router, a
//! blueprint, a plugin function, a route function) hold routes and mounts of other units
//! under a prefix; flattening from the roots gives each endpoint its full path.

use std::collections::{HashMap, HashSet};

use crate::bridge::code_model::syntax::PLACEHOLDER_OPEN;
use crate::bridge::facts::Endpoint;

/// How deep mounts are followed; real apps nest a handful of levels.
const MAX_MOUNT_DEPTH: usize = 24;

/// Most endpoints one run reports (a router mounted many times multiplies).
pub const MAX_ENDPOINTS: usize = 20_000;

/// Most routes and mounts one flattening visits (a lattice of mounts fans out).
const MAX_VISITS: usize = 200_000;

/// A unit is named by its file and its name there (a variable, a function, `default`).
pub type UnitKey = (String, String);

/// How a framework puts a prefix and a path together.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Join {
    /// `/api` + `/` → `/api` (Express, Koa, Fastify, NestJS, Axum).
    Normalize,
    /// `/users` + `/` → `/users/`; the path is appended as written (FastAPI, Flask, Actix, the
    /// Go routers).
    Append,
    /// `api/` + `articles/` → `/api/articles/`: the two strings put together (Django's URLconfs).
    Concat,
}

/// A router-like thing declared in a file.
#[derive(Debug, Clone, Default)]
pub struct Unit {
    pub key: UnitKey,
    /// Empty when the file does not say (a plugin function): the mounting unit's is used.
    pub framework: &'static str,
    /// The unit's own prefix (`APIRouter(prefix=…)`, `new Router({prefix})`, `url_prefix=`).
    pub prefix: String,
    pub items: Vec<Item>,
    /// An application object: flattened from even if something seems to mount it.
    pub app: bool,
    /// Guards on every route of the unit (`APIRouter(dependencies=…)`, `@UseGuards` on a
    /// controller, a Fastify plugin's `addHook`).
    pub guards: Vec<String>,
}

/// A route, a mount or a guard inside a unit.
#[derive(Debug, Clone)]
pub enum Item {
    Route(LocalRoute),
    Mount(Mount),
    /// A guard on the routes and mounts that come after it in the unit (`router.use(auth)`).
    Guard(String),
    /// A guard on every route and mount of the unit, wherever it is written (Fastify's
    /// `addHook`, Flask's `before_request`).
    UnitGuard(String),
}

impl Item {
    /// A mount of `target` under `prefix`, after the receiving unit's own prefix.
    pub fn mount(prefix: &str, target: Target) -> Item {
        Item::Mount(Mount {
            prefix: prefix.to_owned(),
            target,
            ..Mount::default()
        })
    }
}

impl LocalRoute {
    /// A route of `method` at `path` (relative to its unit), handled by `handler`, in `file`.
    pub fn new(method: &str, path: String, handler: Option<String>, file: &str) -> LocalRoute {
        LocalRoute {
            method: method.to_owned(),
            path,
            handler,
            file: file.to_owned(),
            ..LocalRoute::default()
        }
    }
}

/// A route as declared, path relative to its unit.
#[derive(Debug, Clone, Default)]
pub struct LocalRoute {
    pub method: String,
    pub path: String,
    pub handler: Option<String>,
    /// Shape names the code states outright (`@Body() dto: X`, `response_model=X`).
    pub request: Option<String>,
    pub response: Option<String>,
    /// Names that are a shape only if a shape of that name exists (type hints, middleware args).
    pub request_hints: Vec<String>,
    pub response_hints: Vec<String>,
    /// Guards the route itself names (middleware arguments, decorators, dependencies).
    pub guards: Vec<String>,
    /// FastAPI dependencies and annotation names that are guards if linking finds them to be
    /// (an auth function, a security scheme, an alias of one).
    pub dependencies: Vec<String>,
    pub guard_aliases: Vec<String>,
    pub file: String,
}

/// `prefix` + another unit's routes. `replace` means the mount's prefix replaces the unit's
/// own (Flask's `register_blueprint(url_prefix=…)`).
#[derive(Debug, Clone, Default)]
pub struct Mount {
    pub prefix: String,
    pub replace: bool,
    pub target: Target,
    /// Guards on everything mounted (`app.use('/admin', requireAdmin, admin)`).
    pub guards: Vec<String>,
    /// The prefix is a name that may not be a string at all (`app.use(config.prefix, r)` or
    /// `app.use(auth, r)`): dropped when linking finds no constant of that name.
    pub tentative: bool,
}

/// What a mount points at: routes written inline, or a unit found by name.
#[derive(Debug, Clone)]
pub enum Target {
    Inline(Vec<Item>),
    Unit(UnitKey),
    /// Not yet resolved: the language's linker turns it into `Unit` or drops it.
    Ref(String),
    /// Every plugin file under a folder (`@fastify/autoload`): the linker turns it into mounts.
    Autoload(Autoload),
}

/// What an `@fastify/autoload` registration loads (see `node::autoload`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Autoload {
    /// The folder, relative to the work tree's top.
    pub dir: String,
    /// Each folder's name prefixes the routes of its files (`dirNameRoutePrefix`, on by default).
    pub folder_prefixes: bool,
    /// `autohooks` files put their hooks on the plugins of their folder.
    pub hooks: bool,
    /// … and of the folders below it.
    pub cascade_hooks: bool,
    /// A folder named `_id` is the path parameter `:id`.
    pub route_params: bool,
}

impl Default for Target {
    fn default() -> Target {
        Target::Inline(Vec::new())
    }
}

/// Joins a prefix and a path the way `join` says; the result starts with `/`.
pub fn join(prefix: &str, path: &str, join: Join) -> String {
    let out = match (join, prefix.trim_end_matches('/')) {
        // `api/` + `/x` → `api/x`
        (Join::Concat, _) if prefix.ends_with('/') => format!("{prefix}{}", path.strip_prefix('/').unwrap_or(path)),
        (Join::Concat, _) => format!("{prefix}{path}"),
        (_, prefix) if path.is_empty() || (join == Join::Normalize && path == "/") => prefix.to_owned(),
        (_, prefix) if path.starts_with('/') => format!("{prefix}{path}"),
        (_, prefix) => format!("{prefix}/{path}"),
    };
    if out.is_empty() {
        "/".into()
    } else if out.starts_with(['/', '$', '{', PLACEHOLDER_OPEN]) {
        out
    } else {
        format!("/{out}")
    }
}

/// The join rule of a framework.
pub fn join_of(framework: &str) -> Join {
    match framework {
        "fastapi" | "flask" | "actix" | "gin" | "echo" | "fiber" | "chi" | "net/http" => Join::Append,
        "django" => Join::Concat,
        _ => Join::Normalize,
    }
}

/// Flattens `units` (mount targets already resolved) into endpoints with full paths. Roots are
/// the apps and every unit nothing mounts; a unit mounted twice yields its routes twice.
pub fn flatten(units: &[Unit]) -> Vec<Endpoint> {
    let by_key: HashMap<&UnitKey, &Unit> = units.iter().map(|unit| (&unit.key, unit)).collect();
    let mut mounted = HashSet::new();
    for unit in units {
        collect_mounted(&unit.items, &mut mounted, 0);
    }
    let mut walk = Flatten {
        by_key,
        stack: Vec::new(),
        out: Vec::new(),
        budget: MAX_VISITS,
    };
    for unit in units.iter().filter(|unit| unit.app || !mounted.contains(&unit.key)) {
        let framework = Some(unit.framework).filter(|own| !own.is_empty()).unwrap_or("express");
        let base = join("", &unit.prefix, join_of(framework));
        walk.stack.push(&unit.key);
        walk.emit(unit, framework, &unit.items, &base, &unit.guards);
        walk.stack.pop();
    }
    walk.out
}

fn collect_mounted<'u>(items: &'u [Item], mounted: &mut HashSet<&'u UnitKey>, depth: usize) {
    for item in items {
        let Item::Mount(mount) = item else { continue };
        match &mount.target {
            Target::Unit(key) => {
                mounted.insert(key);
            }
            Target::Inline(inner) if depth < MAX_MOUNT_DEPTH => collect_mounted(inner, mounted, depth + 1),
            _ => {}
        }
    }
}

/// The state of one flattening: units by key, the mounts being followed, the endpoints so far.
struct Flatten<'u> {
    by_key: HashMap<&'u UnitKey, &'u Unit>,
    stack: Vec<&'u UnitKey>,
    out: Vec<Endpoint>,
    budget: usize,
}

impl<'u> Flatten<'u> {
    /// Emits `items` of `unit` under `base`, with `guards` on every one of them.
    fn emit(&mut self, unit: &'u Unit, framework: &'static str, items: &'u [Item], base: &str, guards: &[String]) {
        if self.stack.len() > MAX_MOUNT_DEPTH {
            return;
        }
        let rule = join_of(framework);
        let mut guards = guards.to_vec();
        for item in items {
            if let Item::UnitGuard(name) = item {
                add_guards(&mut guards, std::slice::from_ref(name));
            }
        }
        for item in items {
            if self.out.len() >= MAX_ENDPOINTS || self.budget == 0 {
                return;
            }
            self.budget -= 1;
            match item {
                Item::Guard(name) => add_guards(&mut guards, std::slice::from_ref(name)),
                Item::UnitGuard(_) => {}
                Item::Route(route) => {
                    let mut all = guards.clone();
                    add_guards(&mut all, &route.guards);
                    self.out.push(Endpoint {
                        method: route.method.clone(),
                        path: join(base, &route.path, rule),
                        handler: route.handler.clone(),
                        request: route.request.clone(),
                        response: route.response.clone(),
                        framework: framework.to_owned(),
                        file: route.file.clone(),
                        guards: all,
                    })
                }
                Item::Mount(mount) => {
                    let at = join(base, &mount.prefix, rule);
                    let mut inner_guards = guards.clone();
                    add_guards(&mut inner_guards, &mount.guards);
                    match &mount.target {
                        Target::Inline(inner) => {
                            self.stack.push(&unit.key);
                            self.emit(unit, framework, inner, &at, &inner_guards);
                            self.stack.pop();
                        }
                        Target::Unit(key) => {
                            let Some(&child) = self.by_key.get(key) else { continue };
                            if self.stack.contains(&key) {
                                continue;
                            }
                            let child_framework =
                                Some(child.framework).filter(|own| !own.is_empty()).unwrap_or(framework);
                            let child_base = if mount.replace {
                                at
                            } else {
                                join(&at, &child.prefix, join_of(child_framework))
                            };
                            add_guards(&mut inner_guards, &child.guards);
                            self.stack.push(key);
                            self.emit(child, child_framework, &child.items, &child_base, &inner_guards);
                            self.stack.pop();
                        }
                        Target::Ref(_) | Target::Autoload(_) => {}
                    }
                }
            }
        }
    }
}

/// Appends the guards of `more` that `guards` does not hold yet.
pub fn add_guards(guards: &mut Vec<String>, more: &[String]) {
    for guard in more {
        if !guards.contains(guard) {
            guards.push(guard.clone());
        }
    }
}

#[cfg(test)]
#[path = "graph_tests.rs"]
mod tests;
