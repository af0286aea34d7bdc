//! From one file's hits to facts. The capture names are the rule files' vocabulary:
//!
//! | capture | meaning |
//! |---|---|
//! | `endpoint.path`, `endpoint.method` | an HTTP route (`#set! method` when the call names none; `"GET /x"` splits; several methods, one endpoint each) |
//! | `endpoint.resource` + `#set! expand`, `endpoint.style` | a resource standing for several routes (see `resources`), with `endpoint.option(s)` pairs (`only: […]`, `param:`) and `endpoint.only`/`endpoint.except` |
//! | `endpoint.option(s)`, `endpoint.on` | route options (`to:` names the handler, `via:` the methods, `on: :member`/`:collection`) |
//! | `endpoint.receiver` | the router variable it is registered on (its groups' prefixes and guards apply) |
//! | `endpoint.handler`, `endpoint.guard`, `endpoint.request` | its handler, middleware put on it, request shape |
//! | `group.var`, `group.path`, `group.parent` | `v1 := r.Group("/v1")`: a router variable with a prefix |
//! | `prefix.path`, `prefix.scope` | routes inside the scope get the prefix (`r.Route("/x", func…)`, class-level mappings; `#set! prefix "/api"` for a fixed one) |
//! | `prefix.resource` + `#set! expand`, `prefix.on` | a resource's block nests the routes inside; `member`/`collection` scopes (see `prefixes`) |
//! | `prefix.controller` + `#set! handler "{controller}@{action}"` | the controller of the routes inside, whose handlers name only an action |
//! | `guard.name` + `guard.scope` or `guard.receiver` | a guard on the routes inside the scope or on the receiver; alone, a guard the code defines |
//! | `env.name` | an environment variable read (`#set! source`) |
//! | `table.name` or `table.model`, `table.scope` | a table (a model's name becomes a table by `#set! naming`) |
//! | `table.skip` | tables declared inside the scope are none (a migration's `down`) |
//! | `column.name` or `column.field`, `column.type` | a column of the table whose scope holds it |
//! | `column.embedded` | columns a call brings (`#set! columns "created_at updated_at"`, or templates `"{}_id {}_type"`) |
//! | `fk.column`, `fk.table` or `fk.model` | a foreign key of the table whose scope holds it (`#set! fk-column "{singular}_id"`, `fk-table "by-column"`) |
//! | `shape.name`, `shape.scope`, `field.name`, `field.type`, `field.rule` | a request shape and its fields; a rule makes it validation |
//! | `component.name`, `store.name` | a UI component, a client store (`#set! kind`) |
//! | `client_route.path`, `client_route.component`, `client_route.scope` | a client route; routes inside the scope are its children |
//!
//! Captures whose name starts with `_` only serve predicates.

use std::collections::HashMap;
use std::ops::Range;

use super::hits::{Hit, guard_name};
use super::prefixes::Prefixes;
use super::resources::{self, Resource};
use super::{naming, options, tags};
use crate::bridge::extract::code::guards::names::is_auth_name;
use crate::bridge::facts::{
    Column, Component, Endpoint, EnvVar, Facts, Field, ForeignKey, Guard, Route, Shape, StateStore, Table,
};

/// Methods an endpoint's method text may name, upper case.
const METHODS: &[&str] = &["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

/// The facts of one file's hits.
pub fn facts(path: &str, hits: &[Hit<'_>]) -> Facts {
    let mut facts = Facts::default();
    let routing = Routing::of(hits);
    for hit in hits {
        if hit.is("endpoint") {
            facts.endpoints.extend(routing.endpoints(path, hit));
        }
        let named = hit.all("guard.name").map(|name| guard(name.text));
        for name in named.chain(endpoint_guards(hit)) {
            facts.guards.push(Guard {
                name,
                kind: hit.prop("kind").unwrap_or("middleware").to_owned(),
                framework: Some(hit.framework().to_owned()),
                file: path.to_owned(),
                ..Guard::default()
            });
        }
        let env = hit.text("env.name").map(literal).or_else(|| {
            let tag = hit.text("env.tag")?;
            Some(tags::first(tags::get(tag, "env").or_else(|| tags::get(tag, "envconfig"))?).to_owned())
        });
        if let Some(name) = env.filter(|name| !name.is_empty()) {
            facts.env_vars.push(EnvVar {
                name,
                source: hit.prop("source").unwrap_or(hit.framework()).to_owned(),
                file: path.to_owned(),
            });
        }
        if let Some(name) = hit.text("component.name") {
            facts.components.push(Component {
                name: literal(name),
                kind: hit.prop("kind").unwrap_or("component").to_owned(),
                file: path.to_owned(),
            });
        }
        if let Some(name) = hit.text("store.name") {
            facts.state.push(StateStore {
                name: literal(name),
                kind: hit.prop("kind").unwrap_or(hit.framework()).to_owned(),
                file: path.to_owned(),
                ..StateStore::default()
            });
        }
        if hit.is("client_route") {
            facts.routes.extend(client_route(path, hit, hits));
        }
    }
    facts.tables = tables(path, hits);
    facts.shapes = shapes(path, hits, &mut facts.guards);
    facts
}

/// A string literal's content (`"x"`, `'x'`, `` `x` ``, Ruby's `:x`), or the text as it is.
pub fn literal(text: &str) -> String {
    let text = text.trim();
    for quote in ['"', '\'', '`'] {
        if let Some(inner) = text.strip_prefix(quote).and_then(|t| t.strip_suffix(quote)) {
            return inner.to_owned();
        }
    }
    text.strip_prefix(':').unwrap_or(text).to_owned()
}

/// A guard's name: a string as written (`'auth:sanctum'`), else the name an expression calls
/// or names (`middleware.RequireAuth(cfg)` → `RequireAuth`).
fn guard(text: &str) -> String {
    if text.starts_with(['"', '\'', '`', ':']) {
        literal(text)
    } else {
        guard_name(text)
    }
}

/// The middleware a route registration names that stands for an auth check (a rate limiter
/// or a logger is no guard).
fn endpoint_guards<'h>(hit: &'h Hit<'_>) -> impl Iterator<Item = String> + 'h {
    hit.all("endpoint.guard")
        .map(|name| guard(name.text))
        .filter(|name| is_auth_name(name))
}

/// `prefix` and `path` joined with one `/` between them.
pub fn join(prefix: &str, path: &str) -> String {
    let prefix = prefix.trim_end_matches('/');
    let path = path.trim_start_matches('/');
    match (prefix.is_empty(), path.is_empty()) {
        (true, true) => "/".to_owned(),
        (true, false) => format!("/{path}"),
        (false, true) => prefix.to_owned(),
        (false, false) => format!("{prefix}/{path}"),
    }
}

fn inside(range: &Range<usize>, scope: &Range<usize>) -> bool {
    scope.start <= range.start && range.end <= scope.end && range != scope
}

/// A router variable with its prefix, parent and guards.
#[derive(Default)]
struct Group {
    path: String,
    parent: Option<String>,
    guards: Vec<String>,
}

/// What places routes: prefixes and guards by scope, groups by variable.
struct Routing {
    prefixes: Prefixes,
    /// `(scope, guard)`.
    scoped_guards: Vec<(Range<usize>, String)>,
    groups: HashMap<String, Group>,
}

impl Routing {
    fn of(hits: &[Hit<'_>]) -> Routing {
        let mut prefixes = Prefixes::default();
        let mut scoped_guards = Vec::new();
        let mut groups: HashMap<String, Group> = HashMap::new();
        for hit in hits {
            prefixes.add(hit);
            if let Some(var) = hit.text("group.var") {
                let group = groups.entry(var.to_owned()).or_default();
                if let Some(path) = hit.text("group.path") {
                    group.path = literal(path);
                }
                group.parent = hit
                    .text("group.parent")
                    .map(str::to_owned)
                    .filter(|parent| parent != var);
            }
            for name in hit.all("guard.name") {
                if let Some(scope) = hit.get("guard.scope") {
                    scoped_guards.push((scope.range.clone(), guard(name.text)));
                }
                if let Some(receiver) = hit.text("guard.receiver") {
                    groups
                        .entry(receiver.to_owned())
                        .or_default()
                        .guards
                        .push(guard(name.text));
                }
            }
        }
        prefixes.sort();
        Routing {
            prefixes,
            scoped_guards,
            groups,
        }
    }

    /// The receiver's chain of groups, outermost first (bounded: a cycle stops it).
    fn chain(&self, receiver: Option<&str>) -> Vec<&Group> {
        let mut chain = Vec::new();
        let mut at = receiver;
        while let Some(name) = at {
            let Some(group) = self.groups.get(name) else { break };
            if chain.len() >= 16 {
                break;
            }
            chain.push(group);
            at = group.parent.as_deref();
        }
        chain.reverse();
        chain
    }

    /// The endpoints of one hit: its full path and method(s), handler and guards (a resource
    /// stands for several).
    fn endpoints(&self, path: &str, hit: &Hit<'_>) -> Vec<Endpoint> {
        let Some(route) = ["endpoint.path", "endpoint.resource", "endpoint.method"]
            .iter()
            .find_map(|name| hit.get(name))
        else {
            return Vec::new();
        };
        let set = options::of(hit, "endpoint");
        let on = hit
            .text("endpoint.on")
            .map(literal)
            .or_else(|| options::first(&set, "on"));
        let (mut full, around) = self.prefixes.of(&route.range, on.as_deref());
        let chain = self.chain(hit.text("endpoint.receiver"));
        for group in &chain {
            full = join(&full, &group.path);
        }
        let routes: Vec<(String, String, Option<String>)> = match Resource::of(hit, "endpoint") {
            Some(resource) => resource
                .routes()
                .into_iter()
                .map(|route| (route.method.to_owned(), join(&full, &route.path), Some(route.handler)))
                .collect(),
            None => {
                let written = hit.text("endpoint.path").map(literal).unwrap_or_default();
                // Go 1.22's ServeMux: "GET /items/{id}".
                let (method_in_path, written) = match written.split_once(' ') {
                    Some((method, rest)) if METHODS.contains(&method) => {
                        (Some(method.to_owned()), rest.trim().to_owned())
                    }
                    _ => (None, written),
                };
                // A route in a resource's block without a handler goes to that resource's
                // controller, its path naming the action (`get :feed, on: :collection`).
                let handler = hit
                    .text("endpoint.handler")
                    .map(resources::handler)
                    .map(|handler| self.prefixes.handler(&route.range, &handler).unwrap_or(handler))
                    .or_else(|| options::first(&set, "to"))
                    .or_else(|| around.map(|resource| resource.handler(written.trim_start_matches('/'))));
                let methods: Vec<String> = match method_in_path.or_else(|| hit.prop("method").map(str::to_owned)) {
                    Some(method) => vec![method],
                    // `via: [:get, :post]` names the methods of a route that names none.
                    None => match options::words_of(&set, "via") {
                        via if !via.is_empty() => via.iter().map(|m| method_of(m)).collect(),
                        _ => hit.all("endpoint.method").map(|m| method_of(m.text)).collect(),
                    },
                };
                let methods = if methods.is_empty() {
                    vec!["ALL".to_owned()]
                } else {
                    methods
                };
                let full = join(&full, &written);
                methods
                    .into_iter()
                    .map(|method| (method, full.clone(), handler.clone()))
                    .collect()
            }
        };
        let mut guards: Vec<String> = self
            .scoped_guards
            .iter()
            .filter(|(scope, _)| inside(&route.range, scope))
            .map(|(_, name)| name.clone())
            .collect();
        guards.extend(chain.iter().flat_map(|group| group.guards.iter().cloned()));
        guards.extend(endpoint_guards(hit));
        guards.dedup();
        routes
            .into_iter()
            .map(|(method, full, handler)| Endpoint {
                method,
                path: full,
                handler: handler.map(|handler| self.prefixes.qualify(&route.range, handler)),
                request: hit.text("endpoint.request").map(literal),
                framework: hit.framework().to_owned(),
                file: path.to_owned(),
                guards: guards.clone(),
                ..Endpoint::default()
            })
            .collect()
    }
}

/// `GET`, `.Get`, `GetMapping`, `HandleFunc`, `any` → `GET`, `GET`, `GET`, `ALL`, `ALL`.
fn method_of(text: &str) -> String {
    let word = literal(text).trim_start_matches('.').to_ascii_uppercase();
    let word = word.strip_suffix("MAPPING").unwrap_or(&word).to_owned();
    if METHODS.contains(&word.as_str()) {
        word
    } else {
        "ALL".to_owned()
    }
}

/// A client route, its path joined to the paths of the route objects around it.
fn client_route(path: &str, hit: &Hit<'_>, hits: &[Hit<'_>]) -> Option<Route> {
    let route = hit.get("client_route.path")?;
    let mut parents: Vec<(&Range<usize>, String)> = hits
        .iter()
        .filter_map(|other| {
            Some((
                &other.get("client_route.scope")?.range,
                literal(other.text("client_route.path")?),
            ))
        })
        .filter(|(scope, _)| inside(&route.range, scope))
        .collect();
    parents.sort_by_key(|(scope, _)| scope.start);
    let own = literal(route.text);
    let full = if own.starts_with('/') {
        own
    } else {
        parents.iter().fold(String::new(), |at, (_, parent)| join(&at, parent)) + "/" + &own
    };
    let full = if full.len() > 1 {
        full.replace("//", "/").trim_end_matches('/').to_owned()
    } else {
        full
    };
    Some(Route {
        path: if full.is_empty() { "/".to_owned() } else { full },
        component: hit.text("client_route.component").map(literal),
        framework: hit.framework().to_owned(),
        file: path.to_owned(),
    })
}

/// Tables: one per `table.scope` (hits naming the same scope are one table), with the columns
/// and keys captured inside it.
fn tables(path: &str, hits: &[Hit<'_>]) -> Vec<Table> {
    let mut tables: Vec<(Range<usize>, Table)> = Vec::new();
    for hit in hits.iter().filter(|hit| hit.is("table")) {
        let Some(scope) = hit.get("table.scope") else { continue };
        let name = match (hit.text("table.name"), hit.text("table.model")) {
            (Some(name), _) => Some(literal(name)),
            (None, Some(model)) => Some(naming::table_of(&literal(model), hit.prop("naming").unwrap_or(""))),
            (None, None) => None,
        };
        let at = match tables.iter().position(|(have, _)| *have == scope.range) {
            Some(at) => at,
            None => {
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
        let Some((_, table)) = tables.get_mut(at) else { continue };
        // An explicit name (`@Table(name=…)`, `TableName()`) wins over the convention.
        if let Some(model) = hit.text("table.model") {
            table.model = Some(literal(model));
        }
        if let Some(name) = name
            && (table.name.is_empty() || hit.text("table.name").is_some())
        {
            table.name = name;
        }
    }
    for hit in hits {
        // A hit whose scope is the call it captures (`add_column :users, …`) places its
        // columns by what it holds, not by the scope itself.
        let placed = hit.captures.iter().find(|capture| capture.name != "table.scope");
        let Some(at) = placed.map(|capture| capture.range.clone()) else {
            continue;
        };
        let Some((_, table)) = tables
            .iter_mut()
            .filter(|(scope, _)| inside(&at, scope))
            .max_by_key(|(scope, _)| scope.start)
        else {
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
                    .map_or_else(|| column_of(&literal(field), naming), str::to_owned),
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
        if let Some(column) = hit.text("fk.column") {
            // `#set! fk-column "{singular}_id"` makes the column's name from the captured one,
            // `#set! fk-table "by-column"` the referenced table from the column (`author_id` → `authors`).
            let column = match hit.prop("fk-column") {
                Some(template) => naming::fill(template, &literal(column)),
                None => column_of(&literal(column), naming),
            };
            let referenced = hit.text("fk.table").map(literal).or_else(|| {
                hit.text("fk.model")
                    .map(|m| naming::table_of(&literal(m), hit.prop("fk-naming").unwrap_or(naming)))
                    .or_else(|| (hit.prop("fk-table") == Some("by-column")).then(|| naming::table_of_key(&column)))
            });
            if let Some(referenced) = referenced {
                table.foreign_keys.push(ForeignKey {
                    columns: vec![column],
                    references_table: referenced,
                    references_columns: vec![hit.prop("fk-references").unwrap_or("id").to_owned()],
                    ..ForeignKey::default()
                });
            }
        }
    }
    // `func (User) TableName() string { return "app_users" }`
    for hit in hits {
        if let (Some(model), Some(name)) = (hit.text("table.of"), hit.text("table.rename")) {
            let model = model.trim_start_matches('*');
            if let Some((_, table)) = tables.iter_mut().find(|(_, t)| t.model.as_deref() == Some(model)) {
                table.name = literal(name);
            }
        }
    }
    relations(&mut tables);
    let skipped: Vec<&Range<usize>> = hits
        .iter()
        .filter_map(|hit| hit.get("table.skip"))
        .map(|c| &c.range)
        .collect();
    tables
        .into_iter()
        .filter(|(scope, _)| !skipped.iter().any(|skip| inside(scope, skip)))
        .map(|(_, table)| table)
        .filter(|table| !table.name.is_empty())
        .collect()
}

/// A column whose type is another table's model is a relation, not a column: it goes, and
/// the column `<relation>_id` beside it (GORM's `AuthorID` with `Author User`) becomes a
/// foreign key to that table.
fn relations(tables: &mut [(Range<usize>, Table)]) {
    let models: Vec<(String, String)> = tables
        .iter()
        .filter_map(|(_, table)| Some((table.model.clone()?, table.name.clone())))
        .collect();
    for (_, table) in tables.iter_mut() {
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
                table.foreign_keys.push(ForeignKey {
                    columns: vec![key],
                    references_table: referenced.clone(),
                    references_columns: vec!["id".to_owned()],
                    ..ForeignKey::default()
                });
            }
        }
    }
}

/// Adds a column to a table unless it has one of that name.
fn add_column(table: &mut Table, name: String, data_type: Option<String>, primary_key: bool) {
    if table.columns.iter().any(|column| column.name == name) {
        return;
    }
    if primary_key && !table.primary_key.contains(&name) {
        table.primary_key.push(name.clone());
    }
    table.columns.push(Column {
        name,
        data_type,
        primary_key,
        ..Column::default()
    });
}

/// A field's column by the convention: `snake` for conventions that snake-case names.
fn column_of(field: &str, naming: &str) -> String {
    if naming.starts_with("snake") {
        naming::snake_case(field)
    } else {
        field.to_owned()
    }
}

/// Shapes with the fields captured inside them; a shape with a validation rule on a field is
/// also a validation guard.
fn shapes(path: &str, hits: &[Hit<'_>], guards: &mut Vec<Guard>) -> Vec<Shape> {
    let mut shapes: Vec<(Range<usize>, Shape, bool)> = hits
        .iter()
        .filter_map(|hit| {
            let scope = hit.get("shape.scope")?;
            let shape = Shape {
                name: literal(hit.text("shape.name")?),
                kind: hit.prop("kind").unwrap_or("struct").to_owned(),
                file: path.to_owned(),
                ..Shape::default()
            };
            Some((scope.range.clone(), shape, hit.prop("validation").is_some()))
        })
        .collect();
    shapes.dedup_by(|a, b| a.0 == b.0);
    for hit in hits {
        let Some(name) = hit.get("field.name") else { continue };
        let Some((_, shape, validated)) = shapes
            .iter_mut()
            .filter(|(scope, _, _)| inside(&name.range, scope))
            .max_by_key(|(scope, _, _)| scope.start)
        else {
            continue;
        };
        // A rule on the field (`field.rule`, or a Go tag's `binding`/`validate`) makes the
        // shape a validation; `required` among the rules makes the field required.
        let rules = hit.text("field.rule").map(str::to_owned).or_else(|| {
            let tag = hit.text("field.tag")?;
            Some(
                tags::get(tag, "binding")
                    .or_else(|| tags::get(tag, "validate"))?
                    .to_owned(),
            )
        });
        *validated |= rules.is_some();
        let field = literal(name.text);
        if !shape.fields.iter().any(|f| f.name == field) {
            shape.fields.push(Field {
                name: field,
                data_type: hit.text("field.type").map(str::to_owned),
                // `#set! required-by "rules"`: required only with a `required` rule.
                optional: hit.prop("optional") == Some("true")
                    || (hit.prop("required-by") == Some("rules")
                        && !rules.as_deref().is_some_and(|rules| rules.contains("required"))),
            });
        }
    }
    let framework = hits
        .iter()
        .find(|hit| hit.is("shape"))
        .map(|hit| hit.framework().to_owned());
    for (_, shape, validated) in &shapes {
        if *validated {
            guards.push(Guard {
                name: shape.name.clone(),
                kind: "validation".into(),
                framework: framework.clone(),
                file: path.to_owned(),
                ..Guard::default()
            });
        }
    }
    shapes.into_iter().map(|(_, shape, _)| shape).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_and_joins() {
        assert_eq!(literal("\"/users\""), "/users");
        assert_eq!(literal(":articles"), "articles");
        assert_eq!(literal("`/x`"), "/x");
        assert_eq!(join("/api/", "/v1"), "/api/v1");
        assert_eq!(join("", ""), "/");
        assert_eq!(join("/api", ""), "/api");
        assert_eq!(method_of(".GET"), "GET");
        assert_eq!(method_of("PostMapping"), "POST");
        assert_eq!(method_of("HandleFunc"), "ALL");
    }
}
