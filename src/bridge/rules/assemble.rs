//! From one file's hits to facts. The capture names are the rule files' vocabulary:
//!
//! | capture | meaning |
//! |---|---|
//! | `endpoint.path`, `endpoint.method` | an HTTP route (`#set! method` when the call names none; `"GET /x"` splits; several methods, one endpoint each) |
//! | `endpoint.resource` + `#set! expand`, `endpoint.style` | a resource standing for several routes (see `resources`), with `endpoint.option(s)` pairs (`only: […]`, `param:`) and `endpoint.only`/`endpoint.except`, or `endpoint.chain` + `endpoint.chain_args`: a call chained on it, whose arguments are that list when it is `only`/`except` |
//! | `endpoint.option(s)`, `endpoint.on` | route options (`to:` names the handler, `via:` the methods, `on: :member`/`:collection`) |
//! | `endpoint.handler`, `endpoint.request` | its handler, request shape |
//! | `prefix.path`, `prefix.scope` | routes inside the scope get the prefix (`r.Route("/x", func…)`, class-level mappings; `#set! prefix "/api"` for a fixed one) |
//! | `prefix.resource` + `#set! expand`, `prefix.on` | a resource's block nests the routes inside; `member`/`collection` scopes (see `prefixes`) |
//! | `prefix.controller` + `#set! handler "{controller}@{action}"` | the controller of the routes inside, whose handlers name only an action |
//! | `request.type`, `request.scope` | routes inside the scope that name no request have this one (a handler's body parameter) |
//! | `guard.name` + `guard.scope` | a guard on the routes inside the scope; alone, a guard the code defines |
//! | `env.name` | an environment variable read (`#set! source`, or the text `env.source` captures); with `#set! env-prefix`, a config key the variable `<prefix><KEY_IN_SNAKE_CASE>` sets |
//! | `env.placeholders` | a string whose upper-case `${VAR}`/`${VAR:default}` placeholders are env vars read |
//! | `table.name` or `table.model`, `table.scope` | a table (a model's name becomes a table by `#set! naming`) |
//! | `table.skip` | tables declared inside the scope are none (a migration's `down`) |
//! | `table.parent` | the class a model extends (a mapped superclass lends it columns; `inherit.rs`) |
//! | `embed.model`, `embed.type` | a model embeds another (an embeddable lends it columns; `inherit.rs`) |
//! | `join.model`, `join.column`, `join.target` | a key column on the target model's table, to the model's (`inherit.rs`) |
//! | `column.name` or `column.field`, `column.type` | a column of the table whose scope holds it |
//! | `column.scope` + `column.annotation`, `column.length`, `column.nullable`, `column.unique`, `column.primary`, `fk.references` | one column whatever matches inside the scope declare it (`columns.rs`; `#set! nullable`, `length-type`, `fk-references "primary"`, `fk-table "dotted"` for `"t.id"`, `type-text "python"`) |
//! | `table.schema`, `table.key` (`#set! key` unless named); `#set! tentative` + `origin` | the table's schema and key columns; a class taken for a lender until a match says it is a table |
//! | `revision.id`, `revision.down` | an Alembic migration's revision and the ones it follows (`alembic.rs`; they order the replay) |
//! | `migration.function` + `migration.body`, `migration.helper`, `migration.splat` | a migration file's functions, a call to one (`upgrade()` is followed into them), a `*helper()` among a table's columns |
//! | `change.call` + `change.op`, `change.receiver`, `change.arg`, `change.key`/`change.value`, `change.sql` | an Alembic operation (`op.create_table(…)`) or a table constraint among its columns (`sa.PrimaryKeyConstraint`, `ForeignKeyConstraint`, `UniqueConstraint`): its positional arguments (one capture each, ordered by place), keywords, the SQL of `op.execute` |
//! | `batch.scope`, `batch.alias`, `batch.table` | `with op.batch_alter_table("t") as batch_op:`: operations on the alias inside are on the table |
//! | `fk.of` + `fk.column`, `fk.model` | a foreign key on the table whose model `fk.of` names (`joinable!`) |
//! | `index.column`(s), `index.name`, `index.unique`, `index.scope` | an index on the table whose scope holds it (or the `table.scope` the hit names); fields stand for their columns |
//! | `join.scope`, `join.other`, `join.property` + `join.table`, `join.own_column`, `join.other_column` | a many-to-many relation whose join table the framework names (`#set! join-naming`; `join_naming.rs`) |
//! | `join.model` + `join.table` or `join.tag` | a many-to-many field: its join table, keyed to both sides |
//! | `column.embedded` | columns a call brings (`#set! columns "created_at updated_at"`, or templates `"{}_id {}_type"`) |
//! | `fk.column`, `fk.table` or `fk.model` or `fk.module`, `fk.references` | a foreign key of the table whose scope holds it (`#set! fk-column "{singular}_id"`, `fk-table "by-column"`; a module's entity resolved across files) |
//! | `shape.name`, `shape.scope`, `field.name`, `field.type`, `field.rule` | a request shape (`#set! kind`; `#set! validation` or a rule on a field makes it a validation) and the fields captured inside its scope (see `shapes.rs`) |
//! | `shape.base`, `base.mode`, `base.keys` | a shape it takes fields from, in any file (`partial`/`PartialType`, `required`, `pick`/`PickType`, `omit`/`OmitType` with the names `base.keys` lists); `#set! kind "inherit"`: a shape only if a base is one, of its kind |
//! | `shape.required`, `shape.rename_all`, `shape.param` + `shape.default`, `shape.env_prefix` | the names of its required fields; the case its fields' wire names take (`camelCase`, …); a generic parameter's default, the type of fields of the parameter's type; a settings class's (`kind settings`) prefix of the env vars its fields are |
//! | `field.scope`, `field.rename`, `field.skip` | the field (one inside another field is a nested object's, not the shape's); its name on the wire; a field that is none. `field.value`: the text `#set! optional-when "a|b"`/`required-when` look for those words in (optional if it holds one / unless it does). `#set! optional "true"`, `#set! required-by "rules"`, `#set! type "call"` (`z.string().min(1)` → `string`) |
//! | `valid.type` | a type a handler binds with validation (`@Valid Pet pet`; `validated.rs`) |
//! | `component.name`, `store.name` | a UI component, a client store (`#set! kind`) |
//! | `component.scope`, `component.renders`, `component.broken` | a component counts when its scope holds JSX it renders and no syntax error (`components.rs`) |
//! | `component.kind`, `component.default` | its kind as written (`memo`), `default` when it is the default export |
//! | `component.local`, `component.export`, `component.alias` | a top-level component counting when the file exports its name (as the alias) |
//! | `component.anonymous` | an anonymous default export, named by its file |
//! | `component.source` + `component.original`/`component.reexport`, `component.star` | a component re-exported from another file (`links.rs`) |
//! | `store.scope`, `store.key` | the store's definition; keys captured inside it are its keys |
//! | `store.var` | the variable a store is bound to: its name unless a `store.name` names the same scope (`stores.rs`) |
//! | `store.callee`, `store.import` | the function a store is made by: a store only if the file imports it |
//! | `store.creator`, `wrap.outer`, `wrap.inner`, `state.scope`, `state.key` | the argument a store is made from: a store only if it is, through calls passing their first argument on (`wrap`), a state creator, whose keys are the store's |
//! | `store.provider`, `store.value` | an element providing the store it names: the function around it is the provider, its keys (or those of the `binding` that `store.value` names) the store's |
//! | `store.hook` | a call reading the store it names: the function around it is the hook (`#set! function-prefix`) |
//! | `function.name`, `function.scope` | a named function (what "the function around" means) |
//! | `binding.name`, `binding.key` | a variable bound to an object and its keys |
//! | `service.name`, `service.method` | a service class and (in the same hit) one of its public methods; hits naming one service are one (`services.rs`) |
//! | `service.private` | a method that is not public (`private`, an accessor): the `service.method` at its place is left out |
//! | `client_route.path`, `client_route.component`, `client_route.scope` | a client route; routes inside the scope are its children |
//! | `client_route.module` | a lazily imported module (`() => import('./pages/Article.vue')`): its file names the component |
//! | `client_route.index`, `client_route.prefix` | a route at its parent's path (`index: true`); a scope's path that is no route of its own |
//! | `client_route.file` | the file is a page: its place makes the path (`file_routes`); `#set! path "tanstack"`: the path is a TanStack route id |
//! | `constant.name`, `constant.value` | a string constant of the file, which a route's path may name |
//! | `constant.class` | the class whose attribute the constant is (`Settings.API_V1_STR`; `families/modules`, read on demand by `extract/code/modules`) |
//! | `import.source` + `import.default`, `import.module` or `import.name` (+ `import.local`); `import.from`, `import.statement` | an import binding (`#set! require` for `require()`); Python's module and statement (`families/modules`) |
//! | `export.local` (+ `export.default`), `export.value`, `export.name` + `export.as`, `export.source`, `export.namespace`, `export.star`, `export.target` | what a script module exports, `module.exports` and `exports.x` included (`families/modules`) |
//! | `endpoint.body` | the handler (or the `function.scope` of the function `endpoint.handler` names): `check.name` calls inside it guard it (guards of kind `check`), a `parse.schema` parsing the body (`parse.value` reads it, or is a `body.var`) is its request |
//! | `middleware.guard`, `middleware.matcher` | Next.js middleware checking auth, on the endpoints its matchers cover (`links.rs`) |
//! | `endpoint.action`, `#set! path "file"` | the endpoint's path is the one its file's place makes (`file_routes`); an action adds to it |
//! | `matcher.at`, `matcher.args`, `matcher.access`, `matcher.access_args` | a request-matcher rule guarding the endpoints its patterns match, in any file (`matchers.rs`) |
//!
//! Routers that are values (Express, Koa, Fastify, the Go routers…) go to the mount graph (`route_units.rs`),
//! which places routes under the prefixes they are mounted at across files:
//!
//! | capture | meaning |
//! |---|---|
//! | `router.new` (`#set! app "true"`), `router.prefix` | a router or app made (`express()`, `new Router({ prefix })`) with its own prefix |
//! | `router.bind` or `#set! bind`, `router.value` | what names the router made where the value starts (`const api = …`, `module.exports = …` → `default`) |
//! | `router.function` or `#set! function`, `router.param`, `router.scope` | a function handed a router: calls on the parameter inside it are the function's unit (mounted where it is called) |
//! | `router.returns` + `router.scope` | a factory returning a router it makes stands for it |
//! | `route.receiver`, `route.call`, `route.method` (or `#set! method`), `route.path`, `route.guard`, `route.handler` | a route called on a receiver (a variable, a parameter, or a call it is chained on: `Router().get(…)`), its middleware (auth-named ones are guards) and handler |
//! | `route.prefix` + `route.call` | `router.route('/x')`: calls chained on it (`#set! chained`) take its path |
//! | `route.hint`, `route.parsed`, `route.response` | a name in a route's middleware or options (`validate(schema)`, `schema: { body: X }`) or one its handler parses the body with: its request shape if a shape of that name exists; `route.response` its response's |
//! | `route.options` + `option.method`, `option.path`, `option.handler` | a route declared as an object (`route({ method: ['PUT', 'PATCH'], url, handler })`): one per method |
//! | `route.hook` | a hook in a route's middleware or options (`{ onRequest: [fastify.authenticate] }`): a guard of kind `hook` |
//! | `route.scope`, `route.model` | a decorated view (`@router.get(…) def f(…)`): what it holds (`route.hint`, `route.response`, `route.hook`…) is the route's; the response model its call declares, as written (`option.method`s inside a route call are its methods when it names none) |
//! | `route.dependency`, `route.alias` | what a route's handler depends on (`Depends(get_user)`), a name that may alias a dependency (`user: CurrentUser`): the linker keeps those that are guards |
//! | `route.form` | a form or schema a view reads (`form = LoginForm()`, `@use_kwargs(schema)`): its request shape on methods that send a body |
//! | `call.guard` (`#set! guard-kind`) | a guard a call's options hold (`dependencies=[Depends(auth)]`): on the route, the mount, or every route of the router made by the call holding it |
//! | `dependency.alias`, `dependency.value` | `CurrentUser = Annotated[User, Depends(get_user)]`: an alias of the `route.dependency` inside the value |
//! | `guard.scheme` | a security scheme the file makes or extends (`OAuth2PasswordBearer(…)`): a dependency on it is a guard |
//! | `#set! guard "written"`, `#set! guard-kind`, `#set! replace`, `#set! own-units` | the guard a pattern names is as written (its predicates decided); the kind of the guards it names (`decorator`, `dependency`); a mount's prefix replaces its target's own; the file's functions handed a router are units of its framework |
//! | `router.receiver`, `router.guard`, `router.hook` (`#set! named-by "hook"`) | a hook on a router (`addHook('onRequest', auth)`): a guard on every route of its unit; named by the hook when it calls no guard |
//! | `router.uses` | the package the file imports: the framework of its guards and of what it adds to routers of other files |
//! | `include.prefix`, `#set! mounts` | a registration's prefix option (`register(plugin, { prefix })`); its target is always mounted |
//! | `include.folder` + `folder.part`, `folder.flag`/`folder.value`, `folder.prefix` | a mount of every plugin file under a folder (`@fastify/autoload`: `dir: path.join(__dirname, 'routes')`, its flags, the prefix of its options) |
//! | `guard.defined` | a guard the file defines (`fastify.decorate('authenticate', …)`) |
//! | `include.receiver`, `include.call`, `include.path`, `include.guard`, `include.target` | a mount of a target (a name, `require('./x')`, `x.routes()`) under a prefix; a lone auth-named target guards what follows; `#set! pass` for a call handing the receiver to a function (`routes(app)`) |
//! | `entry.table`, `entry.scope`, `entry.key`, `entry.value`, `each.table`, `each.param`, `each.scope` | mounts read from a table: a mount whose prefix and target are two keys of the iterated row is one mount per row |
//! | `guard.candidate` (`#set! kind "check"`) | an auth middleware (or check) the file defines: where a guard another file uses comes from |
//! | `router.from` + `router.new` | a router another function returns (`users::router()`): the unit made here mounts it |
//! | `route.name` + `#set! methods "route=route nest=mount …"` | a call on a receiver whose method's name says what it is: `route` (one route per method router after its `route.path`, or in the `let` the `route.verbs` argument names), `any` (a route of any method), `mount` (`include.path`, `include.target`), `layer` (a guard on what was added to the router before it), `wrap` (a guard on every route of the router), `verb`; a name not listed hands the router on |
//! | `verb.name`, `verb.handler` | a method router (`get(h)`, `.post(h)`, `web::get().to(h)`) |
//! | `layer.guard` | the guard a layer's argument names (`from_fn(require_auth)`) |
//! | `handler.name`, `handler.params`, `handler.returns`, `handler.json`, `handler.extractor` | a Rust handler's signature: the `Json<T>` inside its parameters (its request) and return type (its response), its parameters' plain types (extractors: guards when they are auth ones), matched to routes by name (`signatures.rs`) |
//! | `decl.class` + `decl.body`, `decl.method` + `decl.scope` (`decl.returns`) | a class, a method (its return type): the decorators before its name are its own (`nest.rs`) |
//! | `decorator.at` + `decorator.argument`s, `#set! role` (`controller`, `guards`, `response`) or `route.verb` | a class decorator making a controller (a unit with the first argument as prefix), a method decorator mapping a route per path, guards (auth-named arguments) on the class's or method's routes, a response shape (`{ type }`) |
//! | `argument.element`, `argument.key` + `argument.value` | an array element, an object property of a call's argument (what a decorator's or call's argument holds) |
//! | `decl.request` | the request shape of the method around it (`@Body() dto: X`) |
//! | `app.call` + `app.argument`s, `#set! call` (`global-prefix`, `apply`, `for-routes`) | a prefix of every controller; middleware applied (auth-named) to the routes a `for-routes` call chained on the `apply` names |
//! | `guard.global`, `guard.class` + `#set! kind` | a guard on every route (`APP_GUARD`); a guard, middleware or strategy class the code defines |
//! | `urls.var` + `urls.value` | a module variable: a unit of the patterns (`urls.pattern`) and router `urls` (`urls.routes` + `urls.router`) its value holds (`django_urls.rs`) |
//! | `urls.pattern` + `urls.route`, `urls.view` (`#set! route "regex"`) | a URL pattern: a mount of what its view stands for under its route |
//! | `urls.include` + `urls.included`, `urls.as_view` + `urls.class`, `urls.method`, `urls.wrapper` + `urls.guard`, `urls.wrapped` | a view that includes a module, a router's or a variable's patterns or patterns written in place; a class-based view (with its method mapping); a view behind an auth decorator |
//! | `urls.router_new` + `urls.router_options` (`#set! root`), `urls.receiver` + `urls.prefix`, `urls.viewset` | a router made (the variable it starts the value of), a viewset registered on it |
//!
//! Captures whose name starts with `_` only serve predicates.
//!
//! `(#set! @capture key value)` sets `key` only in a match holding `@capture`: patterns of one
//! shape that differ in a value are one pattern whose alternation's branches capture (`_`
//! captures will do) what tells them apart, one query step to compile instead of several.

use std::collections::HashMap;
use std::ops::Range;

use super::hits::{Hit, guard_name, inside};
use super::paths::join;
use super::prefixes::Prefixes;
use super::resources::{self, Resource};
use super::route_units::http_method;
pub use super::text::literal;
use super::{alembic, columns, components, file_routes, naming, options, placeholders, scopes, services, stores, tags};
use crate::bridge::facts::{Column, Endpoint, EnvVar, Facts, ForeignKey, Guard, Index, Route, Table};

/// The facts of one file's hits.
pub fn facts(path: &str, hits: &[Hit<'_>]) -> Facts {
    let mut facts = Facts::default();
    let routing = Routing::of(hits);
    // `const PROJECTS = 'projects'`: string constants a route's path may name.
    let constants: HashMap<&str, String> = hits
        .iter()
        .filter_map(|hit| Some((hit.text("constant.name")?, literal(hit.text("constant.value")?))))
        .collect();
    let route_scopes = route_scopes(hits, &constants);
    let mut routes: Vec<(bool, Route)> = Vec::new();
    for hit in hits {
        let mut placed = false;
        if hit.is("endpoint") {
            let endpoints = routing.endpoints(path, hit);
            placed = !endpoints.is_empty();
            facts.endpoints.extend(endpoints);
        }
        let named = hit.all("guard.name").map(|name| guard(name.text));
        // The checks of a handler that is an endpoint (a page's default export is none).
        let checks = routing
            .checks_in(hit)
            .into_iter()
            .filter(|_| placed)
            .map(|name| (name, "check"));
        for (name, kind) in named.map(|name| (name, "middleware")).chain(checks) {
            facts.guards.push(Guard {
                name,
                kind: hit.prop("kind").unwrap_or(kind).to_owned(),
                framework: Some(hit.framework().to_owned()),
                file: path.to_owned(),
                ..Guard::default()
            });
        }
        let env = hit
            .text("env.name")
            .map(|name| env_name(&literal(name), hit.prop("env-prefix")))
            .or_else(|| {
                let tag = hit.text("env.tag")?;
                Some(tags::first(tags::get(tag, "env").or_else(|| tags::get(tag, "envconfig"))?).to_owned())
            });
        let placeholders = hit
            .all("env.placeholders")
            .flat_map(|text| placeholders::env_names(text.text));
        // Each variable once per file, where it is first read.
        for name in env.into_iter().chain(placeholders) {
            if name.is_empty() || facts.env_vars.iter().any(|v| v.name == name) {
                continue;
            }
            facts.env_vars.push(EnvVar {
                name,
                source: hit
                    .prop("source")
                    .or(hit.text("env.source"))
                    .unwrap_or(hit.framework())
                    .to_owned(),
                file: path.to_owned(),
            });
        }
        if hit.is("client_route") {
            routes.extend(client_route(path, hit, &route_scopes, &constants));
        }
    }
    // Patterns matching the same route object give it once, with the component one names (a
    // path's default child, `{ path: '' }`, is its parent; an `index` route is a route of its own).
    let mut seen: HashMap<(String, bool), usize> = HashMap::new();
    for (index, route) in routes {
        match seen
            .get(&(route.path.clone(), index))
            .and_then(|&at| facts.routes.get_mut(at))
        {
            Some(have) => have.component = have.component.take().or(route.component),
            None => {
                seen.insert((route.path.clone(), index), facts.routes.len());
                facts.routes.push(route);
            }
        }
    }
    facts.components = components::components(path, hits);
    facts.state = stores::stores(path, hits);
    facts.services = services::services(path, hits);
    (facts.tables, facts.indexes) = tables(path, hits);
    if hits.iter().any(|hit| hit.framework() == "alembic") {
        alembic::read(path, hits, &mut facts);
    }
    facts
}

/// The variable an `env.name` names: itself, or with a prefix the config key in
/// SCREAMING_SNAKE_CASE after it (`apiBase` with `NUXT_PUBLIC_` → `NUXT_PUBLIC_API_BASE`).
fn env_name(name: &str, prefix: Option<&str>) -> String {
    match prefix {
        Some(prefix) => format!("{prefix}{}", naming::snake_case(name).to_ascii_uppercase()),
        None => name.to_owned(),
    }
}

/// A guard's name: a string as written (`'auth:sanctum'`), else the name an expression calls
/// or names (`middleware.RequireAuth(cfg)` → `RequireAuth`).
pub(super) fn guard(text: &str) -> String {
    if text.starts_with(['"', '\'', '`', ':']) {
        literal(text)
    } else {
        guard_name(text)
    }
}

/// What places routes: prefixes and guards by scope.
struct Routing {
    prefixes: Prefixes,
    /// `(scope, guard)`.
    scoped_guards: Vec<(Range<usize>, String)>,
    /// `(scope, request shape)`.
    requests: Vec<(Range<usize>, String)>,
    /// Where each auth check is called (`check.name`), each schema parses a value
    /// (`parse.schema`, `parse.value`), each variable holds the request's body (`body.var`).
    checks: Vec<(Range<usize>, String)>,
    parses: Vec<(Range<usize>, String, String)>,
    bodies: Vec<(Range<usize>, String)>,
    /// Named functions (`function.scope`, `function.name`): the body of a handler named.
    functions: Vec<(Range<usize>, String)>,
}

impl Routing {
    fn of(hits: &[Hit<'_>]) -> Routing {
        let mut prefixes = Prefixes::default();
        let mut scoped_guards = Vec::new();
        for hit in hits {
            prefixes.add(hit);
            if let Some(scope) = hit.get("guard.scope") {
                scoped_guards.extend(
                    hit.all("guard.name")
                        .map(|name| (scope.range.clone(), guard(name.text))),
                );
            }
        }
        prefixes.sort();
        // The text of each capture named `name`, with where the hit's capture `scope` is.
        let scoped = |scope: &'static str, name: &'static str| {
            let pairs = hits
                .iter()
                .filter_map(|hit| Some((&hit.get(scope)?.range, hit.text(name)?)));
            pairs.map(|(at, text)| (at.clone(), text.to_owned())).collect()
        };
        Routing {
            prefixes,
            scoped_guards,
            requests: scoped("request.scope", "request.type"),
            checks: scoped("check.name", "check.name"),
            parses: hits
                .iter()
                .filter_map(|hit| {
                    let (schema, value) = (hit.get("parse.schema")?, hit.text("parse.value")?);
                    Some((schema.range.clone(), schema.text.to_owned(), value.to_owned()))
                })
                .collect(),
            bodies: scoped("body.var", "body.var"),
            functions: scoped("function.scope", "function.name"),
        }
    }

    /// The handler of an endpoint hit: its `endpoint.body`, or the function its handler names.
    fn body(&self, hit: &Hit<'_>) -> Option<Range<usize>> {
        hit.get("endpoint.body").map(|body| body.range.clone()).or_else(|| {
            let handler = hit.text("endpoint.handler")?;
            self.functions
                .iter()
                .find(|(_, name)| name == handler)
                .map(|(scope, _)| scope.clone())
        })
    }

    /// The auth checks an endpoint hit's handler calls.
    fn checks_in(&self, hit: &Hit<'_>) -> Vec<String> {
        let Some(body) = self.body(hit) else { return Vec::new() };
        self.checks
            .iter()
            .filter(|(at, _)| inside(at, &body))
            .map(|(_, name)| name.clone())
            .collect()
    }

    /// The endpoints of one hit: its full path and method(s), handler and guards.
    fn endpoints(&self, path: &str, hit: &Hit<'_>) -> Vec<Endpoint> {
        let Some(route) = [
            "endpoint.path",
            "endpoint.resource",
            "endpoint.method",
            "endpoint.action",
        ]
        .iter()
        .find_map(|name| hit.get(name)) else {
            return Vec::new();
        };
        let at = route.range.clone();
        let set = options::of(hit, "endpoint");
        let on = hit
            .text("endpoint.on")
            .map(literal)
            .or_else(|| options::first(&set, "on"));
        // A route nested deeper than any router is written is left out (see `MAX_NESTING`).
        let Some((base, around)) = self.prefixes.of(&at, on.as_deref()) else {
            return Vec::new();
        };
        let routes: Vec<(String, String, Option<String>)> = match Resource::of(hit, "endpoint") {
            Some(resource) => resource
                .routes()
                .into_iter()
                .map(|route| (route.method.to_owned(), join(&base, &route.path), Some(route.handler)))
                .collect(),
            None => {
                let written = match hit.prop("path") {
                    Some("file") => file_routes::endpoint_path(path, hit.framework(), hit.text("endpoint.action")),
                    _ => Some(hit.text("endpoint.path").map(literal).unwrap_or_default()),
                };
                let Some(written) = written else { return Vec::new() };
                // A route in a resource's block without a handler goes to that resource's
                // controller, its path naming the action (`get :feed, on: :collection`).
                let handler = hit
                    .text("endpoint.handler")
                    .map(resources::handler)
                    .map(|handler| self.prefixes.handler(&at, &handler).unwrap_or(handler))
                    .or_else(|| options::first(&set, "to"))
                    .or_else(|| around.map(|resource| resource.handler(written.trim_start_matches('/'))));
                let mut methods: Vec<String> = match hit.prop("method") {
                    Some(method) => vec![method.to_owned()],
                    // `via: [:get, :post]` names the methods of a route that names none.
                    None => match options::words_of(&set, "via") {
                        via if !via.is_empty() => via.iter().map(|m| method_of(m)).collect(),
                        _ => hit.all("endpoint.method").map(|m| method_of(m.text)).collect(),
                    },
                };
                if methods.is_empty() {
                    methods.push("ALL".to_owned());
                }
                let full = join(&base, &written);
                methods
                    .into_iter()
                    .map(|method| (method, full.clone(), handler.clone()))
                    .collect()
            }
        };
        let mut guards: Vec<String> = self
            .scoped_guards
            .iter()
            .filter(|(scope, _)| inside(&at, scope))
            .map(|(_, name)| name.clone())
            .collect();
        // A handler (`endpoint.body`) guards itself with the checks it calls, and states its
        // request by the schema it parses the body with.
        let body = self.body(hit);
        let held = |at: &Range<usize>| body.as_ref().is_some_and(|body| inside(at, body));
        guards.extend(self.checks_in(hit));
        let parsed = self
            .parses
            .iter()
            .find(|(at, _, value)| {
                held(at) && (reads_body(value) || self.bodies.iter().any(|(var, name)| held(var) && name == value))
            })
            .map(|(_, schema, _)| schema.clone());
        let mut seen = std::collections::HashSet::new();
        guards.retain(|guard| seen.insert(guard.clone()));
        let request = hit.text("endpoint.request").map(literal).or_else(|| {
            let (_, request) = self.requests.iter().find(|(scope, _)| inside(&at, scope))?;
            Some(literal(request))
        });
        routes
            .into_iter()
            .map(|(method, full, handler)| {
                // A handler shared by GET and PATCH parses the body only for the methods that send one.
                let sends_body = !matches!(method.as_str(), "GET" | "HEAD" | "DELETE" | "OPTIONS");
                Endpoint {
                    request: request.clone().or_else(|| parsed.clone().filter(|_| sends_body)),
                    method,
                    path: full,
                    handler: handler.map(|handler| self.prefixes.qualify(&at, handler)),
                    framework: hit.framework().to_owned(),
                    file: path.to_owned(),
                    guards: guards.clone(),
                    ..Endpoint::default()
                }
            })
            .collect()
    }
}

/// How a request body is read: `await req.json()`, `req.body`, `await request.formData()`.
fn reads_body(text: &str) -> bool {
    text.contains(".json()") || text.contains(".body") || text.contains("formData()") || text == "body"
}

/// `GET`, `.Get`, `GetMapping`, `HandleFunc`, `any` → `GET`, `GET`, `GET`, `ALL`, `ALL`.
fn method_of(text: &str) -> String {
    let word = literal(text).trim_start_matches('.').to_ascii_uppercase();
    let word = word.strip_suffix("MAPPING").unwrap_or(&word);
    http_method(word)
        .filter(|method| method != "ANY")
        .unwrap_or_else(|| "ALL".to_owned())
}

/// The route objects whose children are routes (`client_route.scope`) with their paths
/// (`client_route.path`, or `client_route.prefix` for a scope that is no route), by where they
/// start: found once per file, not once per route.
fn route_scopes(hits: &[Hit<'_>], constants: &HashMap<&str, String>) -> Vec<(Range<usize>, String)> {
    let mut scopes: Vec<(Range<usize>, String)> = hits
        .iter()
        .filter_map(|hit| {
            let path = hit.text("client_route.path").or(hit.text("client_route.prefix"))?;
            Some((hit.get("client_route.scope")?.range.clone(), resolve(path, constants)?))
        })
        .collect();
    scopes.sort_by_key(|(scope, _)| scope.start);
    // Two rule files may share the patterns (`; inherits:`) and find the same parent.
    scopes.dedup_by(|a, b| a.0 == b.0);
    scopes
}

/// A path as written, or the string constant of the file it names (`path: PROJECTS`).
fn resolve(text: &str, constants: &HashMap<&str, String>) -> Option<String> {
    match text.starts_with(['"', '\'', '`']) {
        true => Some(literal(text)),
        false => constants.get(text).cloned(),
    }
}

/// A client route (written as a path, an `index` flag or a page file): its path joined to the paths of the route objects around it; a TanStack route id
/// (`#set! path "tanstack"`) or a page file (`client_route.file`) by their conventions.
fn client_route(
    path: &str,
    hit: &Hit<'_>,
    scopes: &[(Range<usize>, String)],
    constants: &HashMap<&str, String>,
) -> Option<(bool, Route)> {
    let route = ["client_route.path", "client_route.index", "client_route.file"]
        .iter()
        .find_map(|name| hit.get(name))?;
    let own = match route.name {
        "client_route.path" => resolve(route.text, constants)?,
        _ => String::new(),
    };
    let full = match (route.name, hit.prop("path")) {
        ("client_route.file", _) => file_routes::page_path(path, hit.framework())?,
        (_, Some("tanstack")) => file_routes::tanstack_url(&own)?,
        _ => {
            let parents = scopes
                .iter()
                .take_while(|(scope, _)| scope.start <= route.range.start)
                .filter(|(scope, _)| inside(&route.range, scope));
            let full = match own.starts_with('/') {
                true => own,
                false => parents.fold(String::new(), |at, (_, parent)| join(&at, parent)) + "/" + &own,
            };
            match full.len() > 1 {
                true => full.replace("//", "/").trim_end_matches('/').to_owned(),
                false => full,
            }
        }
    };
    let component = hit.text("client_route.component").map(literal).or_else(|| {
        hit.text("client_route.module")
            .map(|module| module_name(&literal(module)))
    });
    let route = Route {
        path: if full.is_empty() { "/".to_owned() } else { full },
        component,
        framework: hit.framework().to_owned(),
        file: path.to_owned(),
    };
    Some((hit.get("client_route.index").is_some(), route))
}

/// The component a module path names: its file's stem (`./pages/Article.vue` → `Article`),
/// an `index` file's folder (`./pages/Admin/index.vue` → `Admin`).
fn module_name(module: &str) -> String {
    let mut parts = module.rsplit('/');
    let file = parts.next().unwrap_or(module);
    let stem = file.split('.').next().unwrap_or(file);
    match parts.next() {
        Some(folder) if stem == "index" && !folder.starts_with('.') => folder.to_owned(),
        _ => stem.to_owned(),
    }
}

/// Tables: one per `table.scope` (hits naming the same scope are one table), with the columns
/// and keys captured inside it.
fn tables(path: &str, hits: &[Hit<'_>]) -> (Vec<Table>, Vec<Index>) {
    let mut tables: Vec<(Range<usize>, Table)> = Vec::new();
    let mut lenders: Vec<Range<usize>> = Vec::new();
    // The key a table has unless its hits name one (`#set! key "id"`).
    let mut defaults: Vec<Option<&str>> = Vec::new();
    for hit in hits.iter().filter(|hit| hit.is("table")) {
        let Some(scope) = hit.get("table.scope") else { continue };
        let name = hit.text("table.name").map(literal).or_else(|| {
            let model = literal(hit.text("table.model")?);
            Some(naming::table_of(&model, hit.prop("naming").unwrap_or("")))
        });
        let tentative = hit.prop("tentative") == Some("true");
        let at = match tables.iter().position(|(have, _)| *have == scope.range) {
            // A class taken for a lender until a match says it is an entity.
            Some(at) if !tentative && lenders.contains(&scope.range) => {
                lenders.retain(|lender| *lender != scope.range);
                tables[at].1.origin = hit.prop("origin").unwrap_or("model").to_owned();
                tables[at].1.framework = Some(hit.framework().to_owned());
                tables[at].1.name.clear();
                at
            }
            Some(at) => at,
            None => {
                if tentative {
                    lenders.push(scope.range.clone());
                }
                tables.push((
                    scope.range.clone(),
                    Table {
                        origin: hit.prop("origin").unwrap_or("model").to_owned(),
                        framework: Some(hit.framework().to_owned()),
                        file: path.to_owned(),
                        ..Table::default()
                    },
                ));
                tables.len() - 1
            }
        };
        defaults.resize(tables.len(), None);
        if let Some(key) = hit.prop("key") {
            defaults[at] = Some(key);
        }
        let Some((_, table)) = tables.get_mut(at) else { continue };
        // An explicit name (`@Table(name=…)`, `TableName()`) wins over the convention.
        if let Some(model) = hit.text("table.model") {
            table.model = Some(literal(model));
        }
        if let Some(schema) = hit.text("table.schema") {
            table.schema = Some(literal(schema));
        }
        if let Some(key) = hit.text("table.key").map(literal)
            && !table.primary_key.contains(&key)
        {
            table.primary_key.push(key);
        }
        if let Some(name) = name
            && (table.name.is_empty() || hit.text("table.name").is_some())
        {
            table.name = name;
        }
    }
    let scopes: Vec<Range<usize>> = tables.iter().map(|(scope, _)| scope.clone()).collect();
    let mut slots = columns::slots(hits, &scopes);
    let mut indexes = Vec::new();
    let mut keyed = Vec::new();
    for hit in hits {
        // The table whose scope holds the column (or, without one, the hit's first capture).
        let column = hit
            .captures
            .iter()
            .find(|capture| capture.name.starts_with("column.") || capture.name == "fk.column");
        // (A hit whose scope is the call it captures, `add_column :users, …`, is placed by what
        // it holds, not by the scope itself.)
        let held = hit.captures.iter().find(|capture| capture.name != "table.scope");
        let Some(at) = column.or(held).map(|capture| capture.range.clone()) else {
            continue;
        };
        // `joinable!(posts -> users (author_id))`: a key on the table `fk.of` names.
        if hit.get("fk.of").is_some() {
            keyed.push(hit);
            continue;
        }
        if hit.get("index.column").is_some() {
            let table = match hit.get("table.scope") {
                Some(scope) => scopes.iter().position(|have| *have == scope.range),
                None => scopes::around(scopes.iter().zip(0..), &at),
            };
            if let Some(table) = table {
                columns::index(&mut indexes, hit, table, path);
            }
            continue;
        }
        let own = hit.get("column.scope").map_or(&at, |scope| &scope.range);
        if let Some(slot) = columns::slot_at(&mut slots, own) {
            slot.take(hit);
            continue;
        }
        let Some(table) = scopes::around(tables.iter_mut().map(|(scope, table)| (&*scope, table)), &at) else {
            continue;
        };
        let naming = hit.prop("naming").unwrap_or("");
        let tag = hit.text("column.tag");
        if tag.and_then(|tag| tags::get(tag, "gorm")) == Some("-") {
            continue;
        }
        let column_name = hit.text("column.name").map(literal).or_else(|| {
            let field = hit.text("column.field")?;
            Some(
                tag.and_then(tags::gorm_column)
                    .map_or_else(|| naming::column_of(&literal(field), naming), str::to_owned),
            )
        });
        let primary = hit.prop("primary");
        if let Some(name) = column_name {
            let key = primary == Some("true") || tag.is_some_and(tags::gorm_primary_key);
            add_column(table, name, hit.text("column.type").map(literal), key);
        }
        if let Some(embedded) = hit.text("column.embedded") {
            // `#set! columns "{}_id {}_type"`: names made from the captured one.
            for name in hit.prop("columns").unwrap_or("").split_whitespace() {
                let name = if name.contains('{') {
                    naming::fill(name, &literal(embedded))
                } else {
                    name.to_owned()
                };
                let key = primary == Some(name.as_str());
                add_column(table, name, None, key);
            }
        }
        table.foreign_keys.extend(foreign_key(hit, naming));
    }
    for (at, column, key) in slots.into_iter().filter_map(columns::Slot::column) {
        if let Some((_, table)) = tables.get_mut(at) {
            columns::add(table, column);
            table.foreign_keys.extend(key);
        }
    }
    for hit in keyed {
        let of = hit.text("fk.of").map(literal);
        let found = tables
            .iter_mut()
            .find(|(_, table)| table.model.is_some() && table.model == of);
        if let Some((_, table)) = found {
            table
                .foreign_keys
                .extend(foreign_key(hit, hit.prop("naming").unwrap_or("")));
        }
    }
    // The key's columns (`table.key`, else `#set! key`) are marked.
    for ((_, table), key) in tables.iter_mut().zip(&defaults) {
        if table.primary_key.is_empty()
            && let Some(key) = key
        {
            table.primary_key.push((*key).to_owned());
        }
        for column in table.columns.iter_mut().filter(|c| table.primary_key.contains(&c.name)) {
            column.primary_key = true;
        }
    }
    let joins = join_tables(path, hits, &tables);
    // `func (User) TableName() string { return "app_users" }`
    for hit in hits {
        if let (Some(model), Some(name)) = (hit.text("table.of"), hit.text("table.rename")) {
            let model = model.trim_start_matches('*');
            if let Some((_, table)) = tables.iter_mut().find(|(_, t)| t.model.as_deref() == Some(model)) {
                table.name = literal(name);
            }
        }
    }
    let placed: Vec<Table> = tables.iter().map(|(_, table)| table.clone()).collect();
    let indexes = columns::place_indexes(indexes, &placed);
    // Tables declared in a migration's `down` are none.
    let skipped: Vec<&Range<usize>> = hits
        .iter()
        .filter_map(|hit| hit.get("table.skip"))
        .map(|capture| &capture.range)
        .collect();
    let tables = tables
        .into_iter()
        .filter(|(scope, _)| !skipped.iter().any(|skip| inside(scope, skip)))
        .map(|(_, table)| table)
        .chain(joins)
        .filter(|table| !table.name.is_empty())
        .collect();
    (tables, indexes)
}

/// The foreign key a hit declares on its `fk.column`. `#set! fk-column "{singular}_id"` makes
/// the column's name from the captured one, `#set! fk-table "by-column"` the referenced table
/// from the column (`author_id` → `authors`); `fk.module` is a Rust module's entity
/// (`super::cake::Entity`), resolved across files; `fk-references "primary"` leaves the
/// referenced column to the table's key.
fn foreign_key(hit: &Hit<'_>, naming: &str) -> Option<ForeignKey> {
    let column = hit.text("fk.column")?;
    let column = match hit.prop("fk-column") {
        Some(template) => naming::fill(template, &literal(column)),
        None => naming::column_of(&literal(column), naming),
    };
    let referenced = hit
        .text("fk.table")
        .or(hit.text("fk.module"))
        .map(literal)
        .or_else(|| {
            hit.text("fk.model")
                .map(|m| naming::table_of(&literal(m), hit.prop("fk-naming").unwrap_or(naming)))
                .or_else(|| (hit.prop("fk-table") == Some("by-column")).then(|| naming::table_of_key(&column)))
        })?;
    let references = match (hit.text("fk.references"), hit.prop("fk-references")) {
        (Some(written), _) => vec![naming::fill(hit.prop("fk-column").unwrap_or("{}"), &literal(written))],
        (None, Some("primary")) => Vec::new(),
        (None, other) => vec![other.unwrap_or("id").to_owned()],
    };
    Some(columns::key(column, referenced, references))
}

/// Join tables a many-to-many field names (`join.table`, or GORM's `many2many:` tag in
/// `join.tag`): a key to the table whose scope holds the field and one to the other model's.
fn join_tables(path: &str, hits: &[Hit<'_>], tables: &[(Range<usize>, Table)]) -> Vec<Table> {
    let mut joins = Vec::new();
    for hit in hits {
        let Some(other) = hit.get("join.model") else { continue };
        let name = hit
            .text("join.table")
            .map(literal)
            .or_else(|| hit.text("join.tag").and_then(tags::gorm_many2many).map(str::to_owned));
        let owner = scopes::around(tables.iter().map(|(scope, table)| (scope, table)), &other.range);
        let (Some(name), Some(owner)) = (name, owner) else {
            continue;
        };
        if joins.iter().any(|join: &Table| join.name == name) {
            continue;
        }
        let naming = hit.prop("naming").unwrap_or("snake_plural");
        let other_model = literal(other.text).trim_start_matches('*').to_owned();
        let sides = [
            (
                owner.model.clone().unwrap_or_else(|| owner.name.clone()),
                owner.name.clone(),
            ),
            (other_model.clone(), naming::table_of(&other_model, naming)),
        ];
        let mut join = Table {
            name,
            origin: "model".into(),
            framework: Some(hit.framework().to_owned()),
            file: path.to_owned(),
            ..Table::default()
        };
        for (model, table) in sides {
            let column = format!("{}_id", naming::snake_case(&model));
            add_column(&mut join, column.clone(), None, false);
            join.foreign_keys
                .push(columns::key(column, table, vec!["id".to_owned()]));
        }
        joins.push(join);
    }
    joins
}

/// A column whose type is another table's model (in any file) is a relation, not a column: it goes, and
/// the column `<relation>_id` beside it (GORM's `AuthorID` with `Author User`) becomes a
/// foreign key to that table.
pub fn relations(tables: &mut [Table]) {
    let models: Vec<(String, String)> = tables
        .iter()
        .filter_map(|table| Some((table.model.clone()?, table.name.clone())))
        .collect();
    for table in tables.iter_mut() {
        let mut related = Vec::new();
        table.columns.retain(|column| {
            let model = column.data_type.as_deref().map(|t| t.trim_start_matches('*'));
            match models.iter().find(|(name, _)| Some(name.as_str()) == model) {
                Some((model, _)) => {
                    related.push((column.name.clone(), model.clone()));
                    false
                }
                None => true,
            }
        });
        for (relation, model) in related {
            let key = format!("{relation}_id");
            if table.columns.iter().any(|column| column.name == key)
                && let Some((_, referenced)) = models.iter().find(|(name, _)| *name == model)
            {
                let key = columns::key(key, referenced.clone(), vec!["id".to_owned()]);
                table.foreign_keys.push(key);
            }
        }
    }
}

/// Adds a column to a table unless it has one of that name.
fn add_column(table: &mut Table, name: String, data_type: Option<String>, primary_key: bool) {
    if !table.columns.iter().any(|column| column.name == name) {
        let column = Column {
            name,
            data_type,
            primary_key,
            ..Column::default()
        };
        columns::add(table, column);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_and_joins() {
        assert_eq!(literal("\"/users\""), "/users");
        assert_eq!(literal(":articles"), "articles");
        assert_eq!(literal("`/x`"), "/x");
        assert_eq!(method_of(".GET"), "GET");
        assert_eq!(method_of("PostMapping"), "POST");
        assert_eq!(method_of("HandleFunc"), "ALL");
        assert_eq!(module_name("../pages/Article.vue"), "Article");
        assert_eq!(module_name("@/views/Home"), "Home");
        assert_eq!(module_name("./pages/Admin/index.vue"), "Admin");
    }
}
