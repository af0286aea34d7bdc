//! The link step that puts all files' scans together ([`link`]), and linking routes across
//! files: mount targets and imported receivers are resolved through
//! each language's imports to the unit that defines them, NestJS controllers get the global
//! prefix, route shape hints are kept where a shape of that name exists, and the whole graph
//! is flattened to endpoints with full paths.

mod autoload;
mod constants;
mod django;
pub use std::collections::{HashMap, HashSet};

use self::autoload::Autohooks;

use super::guards::{self, GuardNote};
use super::routes::graph::{Item, LocalRoute, MAX_ENDPOINTS, Target, Unit, UnitKey, add_guards, flatten, join};
use super::routes::{HandlerShapes, RouteScan};
use crate::bridge::code_model::guards::is_auth_name;
use crate::bridge::code_model::syntax::rust::last_segment;
use crate::bridge::extract::code::modules::python::resolve_import as resolve_python;
use crate::bridge::extract::code::modules::rust::{RustModule, module_of, segments, target_module};
use crate::bridge::extract::code::modules::script::{Imported, ScriptModule};
use crate::bridge::extract::code::modules::script_resolve::{resolve_export, resolve_import, resolve_source};
use crate::bridge::extract::code::modules::{PathIndex, parent_dir};
use crate::bridge::extract::code::scan::FileScan;
/// The module table of a file in its language.
pub use crate::bridge::extract::code::scan::OwnedModule as Module;
use crate::bridge::facts::{Endpoint, Facts};
use crate::bridge::rules::naming::renamed;

/// How deep inline mounts are walked while linking.
const MAX_INLINE_DEPTH: usize = 32;

/// Resolves every file's mounts (through its module table and the constants it offers) and
/// flattens them into endpoints. `shapes` are the shape names of the run: a route's shape
/// hints are kept only where they name one.
fn endpoints(files: &[FileScan], shapes: &HashSet<String>) -> Vec<Endpoint> {
    let mut handlers: HashMap<&str, Vec<&HandlerShapes>> = HashMap::new();
    for handler in files.iter().flat_map(|file| &file.routes.handlers) {
        handlers.entry(handler.name.as_str()).or_default().push(handler);
    }
    let routes = || files.iter().map(|file| &file.routes);
    let linker = Linker {
        files,
        index: PathIndex::new(files.iter().map(|file| file.path.to_owned())),
        handlers,
        aliases: routes()
            .flat_map(|r| &r.aliases)
            .map(|(alias, to)| (alias.as_str(), to.as_str()))
            .collect(),
        schemes: routes().flat_map(|r| &r.schemes).map(String::as_str).collect(),
        django_defaults: routes().flat_map(|r| r.django.default_permissions.clone()).collect(),
        extractors: routes()
            .flat_map(|r| &r.guards)
            .filter_map(|note| (note.kind == "extractor").then_some(note.name.as_str()))
            .collect(),
    };
    let mut units: Vec<Unit> = routes().flat_map(|r| r.units.clone()).collect();
    let global_prefix = routes().find_map(|r| r.global_prefix.as_deref());
    if let Some(global) = global_prefix {
        for unit in units.iter_mut().filter(|unit| unit.framework == "nestjs") {
            unit.prefix = join(global, &unit.prefix, super::routes::graph::Join::Normalize);
        }
    }
    let mut at: HashMap<UnitKey, usize> = units
        .iter()
        .enumerate()
        .map(|(i, unit)| (unit.key.clone(), i))
        .collect();
    for unit in &mut units {
        if let Some(from) = linker.index.get(&unit.key.0) {
            linker.fill_unit(from, unit);
        }
    }
    for (from, file) in files.iter().enumerate() {
        for (name, framework, item) in &file.routes.foreign {
            let mut item = item.clone();
            linker.fill_items(from, std::slice::from_mut(&mut item), 0);
            let Some(key) = linker.resolve(from, name, &at).or_else(|| {
                linker
                    .may_hold(from, name)
                    .then(|| (file.path.to_owned(), name.clone()))
            }) else {
                continue;
            };
            let slot = *at.entry(key.clone()).or_insert_with(|| {
                units.push(Unit {
                    key,
                    framework,
                    ..Unit::default()
                });
                units.len() - 1
            });
            units[slot].items.push(item);
        }
    }
    let hooks = linker.autohooks(&units, &at);
    let snapshot = units.clone();
    let context = Context {
        units: &at,
        all: &snapshot,
        shapes,
        hooks: &hooks,
    };
    for unit in &mut units {
        let Some(from) = linker.index.get(&unit.key.0) else {
            continue;
        };
        linker.resolve_items(from, &mut unit.items, &context, 0);
    }
    let mut endpoints = flatten(&units);
    let global: Vec<String> = routes().flat_map(|r| r.nest_global_guards.clone()).collect();
    let bindings: Vec<_> = routes().flat_map(|r| r.nest_bindings.clone()).collect();
    super::routes::nest::apply(&mut endpoints, &global, &bindings, global_prefix.unwrap_or(""));
    endpoints
}

/// Puts all files' scans together with the run's `shapes` (see `rules::link_shapes`):
/// cross-file links resolved, facts in file order; a note when the mounts make more endpoints
/// than a run lists.
pub fn link(scans: Vec<FileScan>, mut shaped: Facts) -> Facts {
    let shape_names: HashSet<String> = shaped.shapes.iter().map(|shape| shape.name.clone()).collect();
    let endpoints = endpoints(&scans, &shape_names);
    let over = endpoints
        .last()
        .filter(|_| endpoints.len() >= MAX_ENDPOINTS)
        .map(|last| {
            format!(
                "{}: routes mounted at more places than {MAX_ENDPOINTS} routes hold; the rest are left out",
                last.file
            )
        });
    shaped.shapes = crate::bridge::rules::bodies_only(std::mem::take(&mut shaped.shapes), &endpoints);
    let guard_notes: Vec<GuardNote> = scans
        .iter()
        .flat_map(|scan| scan.routes.guards.iter().cloned())
        .collect();
    let mut facts = Facts {
        endpoints,
        ..Facts::default()
    };
    facts.append(shaped);
    for scan in scans {
        facts.append(scan.facts);
    }
    facts.guards.extend(guards::link(&guard_notes, &facts.endpoints));
    facts.unparsed.extend(over);
    facts
}

/// The endpoints and guards of the files whose routes the rule engine read alone (Go's):
/// `(path, routes)` of each, linked like the code extractor's.
pub fn link_routes(files: Vec<(String, RouteScan)>) -> Facts {
    let files = files.into_iter().map(|(path, routes)| FileScan {
        path,
        routes,
        ..FileScan::default()
    });
    link(files.collect(), Facts::default())
}

/// What resolving a unit's items reads: the units by key (and as they were before resolving),
/// the run's shape names, and the folders' autoload hooks.
struct Context<'c> {
    units: &'c HashMap<UnitKey, usize>,
    all: &'c [Unit],
    shapes: &'c HashSet<String>,
    hooks: &'c Autohooks,
}

struct Linker<'s> {
    files: &'s [FileScan],
    index: PathIndex,
    /// Rust handler signatures by function name.
    handlers: HashMap<&'s str, Vec<&'s HandlerShapes>>,
    /// FastAPI dependency aliases (`CurrentUser` → `get_current_user`) and security schemes.
    aliases: HashMap<&'s str, &'s str>,
    schemes: HashSet<&'s str>,
    /// DRF's default permission classes (from the settings module).
    django_defaults: Vec<String>,
    /// The Rust extractors the run defines as guards.
    extractors: HashSet<&'s str>,
}

impl<'s> Linker<'s> {
    fn resolve_items(&self, from: usize, items: &mut [Item], context: &Context<'_>, depth: usize) {
        let (units, shapes) = (context.units, context.shapes);
        for item in items {
            match item {
                Item::Route(route) => {
                    if let Some(shapes) = route
                        .handler
                        .as_deref()
                        .and_then(|h| self.handler_shapes(&route.file, h))
                    {
                        route.request = route.request.take().or_else(|| shapes.request.clone());
                        route.response = route.response.take().or_else(|| shapes.response.clone());
                        let extractors = shapes.extractors.iter().filter(|e| self.is_extractor_guard(e));
                        add_guards(&mut route.guards, &extractors.cloned().collect::<Vec<_>>());
                    }
                    self.dependency_guards(route);
                    let known = |hints: &[String]| hints.iter().find_map(|hint| shape_named(hint, shapes));
                    if route.request.is_none() {
                        route.request = known(&route.request_hints);
                    }
                    if route.response.is_none() {
                        route.response = known(&route.response_hints);
                    }
                }
                Item::Mount(mount) => match &mut mount.target {
                    Target::Ref(reference) => {
                        if let Some(routes) = self.django_routes(from, reference) {
                            mount.target = Target::Inline(routes);
                        } else if let Some(key) = self
                            .resolve(from, reference, units)
                            .or_else(|| self.go_function(from, reference, units))
                        {
                            mount.target = Target::Unit(key);
                        }
                    }
                    Target::Inline(inner) if depth < MAX_INLINE_DEPTH => {
                        self.resolve_items(from, inner, context, depth + 1)
                    }
                    Target::Autoload(autoload) => {
                        let loaded = self.expand_autoload(autoload, units, context.all, context.hooks);
                        mount.target = Target::Inline(loaded);
                    }
                    _ => {}
                },
                Item::Guard(_) | Item::UnitGuard(_) => {}
            }
        }
    }

    /// True for a handler parameter's type that is an auth guard: an extractor the run defines
    /// as one, or an auth name (`AuthUser`, `Claims`) from a crate.
    fn is_extractor_guard(&self, name: &str) -> bool {
        self.extractors.contains(name)
            || (is_auth_name(name) && !name.starts_with("Maybe") && !name.starts_with("Optional"))
    }

    /// Adds the FastAPI dependencies of a route that are guards: auth functions and security
    /// schemes, named directly or through an alias.
    fn dependency_guards(&self, route: &mut LocalRoute) {
        let through_aliases = route
            .guard_aliases
            .iter()
            .filter_map(|alias| self.aliases.get(alias.as_str()).map(|target| target.to_string()));
        let found = route.dependencies.iter().cloned().chain(through_aliases);
        let guards: Vec<String> = found
            .filter(|dependency| is_auth_name(dependency) || self.schemes.contains(dependency.as_str()))
            .collect();
        add_guards(&mut route.guards, &guards);
    }

    /// The signature of a Rust handler named by a route: the one in the route's file, else the
    /// only one of that name.
    fn handler_shapes(&self, file: &str, handler: &str) -> Option<&'s HandlerShapes> {
        if !file.ends_with(".rs") {
            return None;
        }
        let found = self.handlers.get(last_segment(handler))?;
        // `accounts::open`: the module the path names says which file (two `open`s in two
        // modules are kept apart).
        let from = self.files.iter().find(|f| f.path == file);
        if handler.contains("::")
            && let Some(Module::Rust(module)) = from.map(|f| &f.module)
            && let Some(wanted) = target_module(&module_of(file), &module.expand(&segments(handler)))
            && let Some(exact) = found.iter().find(|shapes| module_of(&shapes.file) == wanted)
        {
            return Some(exact);
        }
        let only = (found.len() == 1).then(|| &found[0]);
        found.iter().find(|shapes| shapes.file == file).or(only).copied()
    }

    /// The unit a name written in file `from` stands for.
    fn resolve(&self, from: usize, reference: &str, units: &HashMap<UnitKey, usize>) -> Option<UnitKey> {
        let file = &self.files[from];
        let local = (file.path.to_owned(), reference.to_owned());
        if units.contains_key(&local) {
            return Some(local);
        }
        let found = if let Module::Rust(module) = &file.module {
            return self.resolve_rust(from, module, reference, units);
        } else if let Some(dotted) = reference.strip_prefix("pymodule:") {
            return self.url_module(from, dotted).filter(|key| units.contains_key(key));
        } else if let Some(source) = reference.strip_prefix("module:") {
            let target = resolve_source(&self.index, &file.path, source)?;
            resolve_export(&self.index, &|at| self.script_module(at), target, "default")?
        } else {
            self.lead(from, reference)?
        };
        let (at, name) = found;
        Some((self.files[at].path.to_owned(), name)).filter(|key| units.contains_key(key))
    }

    /// Where a name written in file `from` leads through the file's imports: the file that
    /// defines it and its name there, dotted as written after the import (`users.router` with
    /// `import * as users from './users'`, `settings.API_V1_STR` with `from app.core.config
    /// import settings`, `views.X` with `from . import views`); `None` when its first part is
    /// no import of a file of the run.
    pub(super) fn lead(&self, from: usize, reference: &str) -> Option<(usize, String)> {
        let file = &self.files[from];
        let (first, rest) = match reference.split_once('.') {
            Some((first, rest)) => (first, Some(rest)),
            None => (reference, None),
        };
        let dotted = |name: &str| rest.map_or_else(|| name.to_owned(), |rest| format!("{name}.{rest}"));
        match &file.module {
            Module::Script(module) => {
                let import = module.imports.get(first)?;
                let modules = |at: usize| self.script_module(at);
                let Some(rest) = rest.filter(|_| import.name == Imported::Module) else {
                    let (at, local) = resolve_import(&self.index, &modules, from, import)?;
                    return Some((at, dotted(&local)));
                };
                let target = resolve_source(&self.index, &file.path, &import.source)?;
                let (member, tail) = rest.split_once('.').map_or((rest, None), |(m, t)| (m, Some(t)));
                Some(match resolve_export(&self.index, &modules, target, member) {
                    // `module.exports = { api: {…} }` exports `api` as a member of `default`.
                    Some((at, local)) if local == "default" && member != "default" => (at, format!("default.{rest}")),
                    Some((at, local)) => (at, tail.map_or(local.clone(), |tail| format!("{local}.{tail}"))),
                    // `const config = require('./config')` with `module.exports = {…}`.
                    None => (target, format!("default.{rest}")),
                })
            }
            Module::Python(module) => {
                let (at, name) = resolve_python(&self.index, &file.path, module.imports.get(first)?)?;
                Some((
                    at,
                    name.map_or_else(|| rest.map(str::to_owned), |name| Some(dotted(&name)))?,
                ))
            }
            _ => None,
        }
    }

    /// The Go function a mount written in file `from` calls (`users.UsersRegister`,
    /// `h.Register`), by its name: the one of its package (folder) if it has one, else the
    /// first of that name.
    fn go_function(&self, from: usize, reference: &str, units: &HashMap<UnitKey, usize>) -> Option<UnitKey> {
        let here = &self.files[from].path;
        let name = reference.rsplit('.').next()?;
        units
            .keys()
            .filter(|key| here.ends_with(".go") && key.0.ends_with(".go") && key.1 == name)
            .min_by_key(|key| (parent_dir(&key.0) != parent_dir(here), key.0.clone()))
            .cloned()
    }

    /// True if a name file `from` calls routes on, which no unit stands for, may still be a
    /// router: in a script, one imported from the project or a router package (not
    /// `axios.get('/users', …)`).
    fn may_hold(&self, from: usize, name: &str) -> bool {
        match &self.files[from].module {
            Module::Script(module) => module.imports.get(name).is_some_and(|import| {
                let source = import.source.as_str();
                source.starts_with('.')
                    || source.starts_with("@/")
                    || source.starts_with("~/")
                    || matches!(source, "express" | "koa" | "@koa/router" | "koa-router" | "fastify")
            }),
            _ => true,
        }
    }

    fn script_module(&self, at: usize) -> Option<&ScriptModule> {
        match &self.files.get(at)?.module {
            Module::Script(module) => Some(module),
            _ => None,
        }
    }

    /// `users::routes`, `crate::api::router`, or a bare function name: the module path says which
    /// file; a bare name defined in exactly one file is taken from there.
    fn resolve_rust(
        &self,
        from: usize,
        module: &RustModule,
        reference: &str,
        units: &HashMap<UnitKey, usize>,
    ) -> Option<UnitKey> {
        let path = module.expand(&segments(reference));
        let name = path.last()?.clone();
        let here = module_of(&self.files[from].path);
        let wanted = target_module(&here, &path)?;
        let candidates: Vec<&UnitKey> = units
            .keys()
            .filter(|key| key.1 == name && key.0.ends_with(".rs"))
            .collect();
        if let Some(exact) = candidates.iter().find(|key| module_of(&key.0) == wanted) {
            return Some((*exact).clone());
        }
        let suffix: Vec<&UnitKey> = candidates
            .iter()
            .copied()
            .filter(|key| module_of(&key.0).ends_with(&wanted) && !wanted.is_empty())
            .collect();
        match (suffix.as_slice(), candidates.as_slice()) {
            ([only], _) | ([], [only]) => Some((*only).clone()),
            _ => None,
        }
    }
}

/// The shape `hint` names: a type as written (`CreateUserDto[]`, `list[UserOut]`) as it is,
/// a value reached through a module (`userValidation.createUser`) by its own name, a schema's
/// instance (`user_schema`) by its class's (`UserSchema`).
fn shape_named(hint: &str, shapes: &HashSet<String>) -> Option<String> {
    // An instance named after its schema class (`user_schema = UserSchema()`).
    if hint.contains('_') && hint.chars().all(|c| c.is_ascii_lowercase() || c == '_') {
        let pascal = renamed(hint, Some("PascalCase"));
        if shapes.contains(&pascal) {
            return Some(pascal);
        }
    }
    let mut words = hint.split(|c: char| !(c.is_alphanumeric() || c == '_'));
    if !words.any(|word| shapes.contains(word)) {
        return None;
    }
    let dotted = hint.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '.');
    match hint.rsplit_once('.') {
        Some((_, last)) if dotted && shapes.contains(last) => Some(last.to_owned()),
        _ => Some(hint.to_owned()),
    }
}
