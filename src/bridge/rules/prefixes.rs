//! The path prefixes scopes put on the routes inside them: a written prefix (`prefix.path`,
//! or a fixed `#set! prefix` such as Laravel's `/api` for `routes/api.php`), or a resource's
//! block, whose routes sit under its nested path (`/articles/:article_id`) unless a
//! `member`/`collection` scope (`prefix.on`) or the route's own `on:` (`endpoint.on`) puts
//! them on its member (`/articles/:id`) or collection (`/articles`) path. A scope may also name
//! the controller of the routes inside (`prefix.controller` with `#set! handler
//! "{controller}@{action}"`), whose handlers name only the action.

use std::ops::Range;

use super::hits::{Hit, inside};
use super::paths::{MAX_NESTING, join};
use super::resources::{self, Resource};
use super::scopes;
use super::text::literal;

/// What a scope puts before the paths inside it.
enum Prefix {
    Path(String),
    Resource(Resource),
}

/// Every prefix scope of a file, outermost first, and the member/collection scopes.
#[derive(Default)]
pub struct Prefixes {
    scopes: Vec<(Range<usize>, Prefix)>,
    selectors: Vec<(Range<usize>, String)>,
    /// `(scope, handler template with the controller filled in)`.
    controllers: Vec<(Range<usize>, String)>,
    /// `(scope, module)`: a prefix that also names the module of the controllers inside
    /// (`#set! module "true"`, Rails' `namespace`).
    modules: Vec<(Range<usize>, String)>,
}

impl Prefixes {
    /// Takes the prefix a hit declares, if any.
    pub fn add(&mut self, hit: &Hit<'_>) {
        let Some(scope) = hit.get("prefix.scope") else { return };
        let prefix = match Resource::of(hit, "prefix") {
            Some(resource) => Some(Prefix::Resource(resource)),
            None => hit
                .text("prefix.path")
                .map(literal)
                .or_else(|| hit.prop("prefix").map(str::to_owned))
                .map(Prefix::Path),
        };
        if let (Some(Prefix::Path(path)), Some("true")) = (&prefix, hit.prop("module")) {
            self.modules
                .push((scope.range.clone(), path.trim_matches('/').to_owned()));
        }
        if let Some(prefix) = prefix {
            self.scopes.push((scope.range.clone(), prefix));
        }
        if let (Some(controller), Some(template)) = (hit.text("prefix.controller"), hit.prop("handler")) {
            let controller = resources::handler(controller);
            let controller = controller.strip_suffix("::class").unwrap_or(&controller);
            self.controllers
                .push((scope.range.clone(), template.replace("{controller}", controller)));
        }
        if let Some(on) = hit.text("prefix.on") {
            self.selectors.push((scope.range.clone(), literal(on)));
        }
    }

    /// Orders the scopes outermost first (call once all are added).
    pub fn sort(&mut self) {
        self.scopes
            .sort_by_key(|(scope, _)| (scope.start, std::cmp::Reverse(scope.end)));
    }

    /// The handler of a route at `at` that names only its `action`, by the innermost
    /// controller scope around it.
    pub fn handler(&self, at: &Range<usize>, action: &str) -> Option<String> {
        if action.contains(['@', '#']) {
            return None;
        }
        scopes::around(self.controllers.iter().map(|(scope, template)| (scope, template)), at)
            .map(|template| template.replace("{action}", action))
    }

    /// A `controller#action` handler of a route at `at` with the modules of the namespaces
    /// around it: `articles#index` in `namespace :api` → `api/articles#index`.
    pub fn qualify(&self, at: &Range<usize>, handler: String) -> String {
        if !handler.contains('#') || handler.contains('/') {
            return handler;
        }
        let mut modules: Vec<&(Range<usize>, String)> =
            self.modules.iter().filter(|(scope, _)| inside(at, scope)).collect();
        if modules.is_empty() {
            return handler;
        }
        modules.sort_by_key(|(scope, _)| scope.start);
        let path: Vec<&str> = modules.iter().map(|(_, module)| module.as_str()).collect();
        format!("{}/{handler}", path.join("/"))
    }

    /// The prefix of a route at `at` (its own `on:` given as `on`), and the innermost resource
    /// whose block holds it.
    pub fn of(&self, at: &Range<usize>, on: Option<&str>) -> Option<(String, Option<&Resource>)> {
        let around: Vec<&(Range<usize>, Prefix)> = self.scopes.iter().filter(|(scope, _)| inside(at, scope)).collect();
        if around.len() > MAX_NESTING {
            return None;
        }
        let innermost = around
            .iter()
            .rposition(|(_, prefix)| matches!(prefix, Prefix::Resource(_)));
        let on = on.map(str::to_owned).or_else(|| {
            let resource_scope = &around.get(innermost?)?.0;
            let selectors = self.selectors.iter().filter(|(scope, _)| inside(scope, resource_scope));
            scopes::around(selectors.map(|(scope, on)| (scope, on)), at).cloned()
        });
        let mut full = String::new();
        let mut resource = None;
        for (index, (_, prefix)) in around.iter().enumerate() {
            let segment = match prefix {
                Prefix::Path(path) => path.clone(),
                Prefix::Resource(found) => {
                    resource = Some(found);
                    match on.as_deref().filter(|_| Some(index) == innermost) {
                        Some("member") => found.member(),
                        Some("collection") => found.collection(),
                        _ => found.nested(),
                    }
                }
            };
            full = join(&full, &segment);
        }
        Some((full, resource))
    }
}
