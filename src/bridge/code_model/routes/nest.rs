//! NestJS guards across files: the global guards (`APP_GUARD` providers) and the auth
//! middleware bound with `consumer.apply(M).forRoutes(…)` put on the endpoints they cover
//! (the rules read them: `families/nest`, `rules/nest.rs`).

use super::graph::add_guards;
use crate::bridge::facts::Endpoint;

/// Where middleware applied with `consumer.apply(…)` runs.
#[derive(Debug, Clone, PartialEq)]
pub enum RouteFilter {
    /// `{ path: 'articles/:slug', method: RequestMethod.PUT }` or `'articles'` (any method).
    Path { path: String, method: Option<String> },
    /// A controller class: all of its routes.
    Controller(String),
}

/// `consumer.apply(guards…).forRoutes(filters…)`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Binding {
    pub guards: Vec<String>,
    pub routes: Vec<RouteFilter>,
}

/// Puts the global guards and the middleware bindings on the NestJS endpoints they cover.
/// Binding paths are written without the global prefix.
pub fn apply(endpoints: &mut [Endpoint], global: &[String], bindings: &[Binding], prefix: &str) {
    let prefix = format!("/{}", prefix.trim_matches('/'));
    for endpoint in endpoints.iter_mut().filter(|e| e.framework == "nestjs") {
        let mut guards = Vec::new();
        add_guards(&mut guards, global);
        let local = endpoint
            .path
            .strip_prefix(prefix.as_str())
            .filter(|rest| rest.is_empty() || rest.starts_with('/'))
            .unwrap_or(&endpoint.path);
        let local = local.trim_matches('/');
        for binding in bindings {
            if binding.routes.iter().any(|filter| covers(filter, endpoint, local)) {
                add_guards(&mut guards, &binding.guards);
            }
        }
        add_guards(&mut guards, &endpoint.guards);
        endpoint.guards = guards;
    }
}

fn covers(filter: &RouteFilter, endpoint: &Endpoint, local: &str) -> bool {
    match filter {
        RouteFilter::Controller(name) => endpoint
            .handler
            .as_deref()
            .is_some_and(|handler| handler.split('.').next() == Some(name)),
        RouteFilter::Path { path, method } => {
            let path = path.trim_matches('/');
            let method_matches = method.as_deref().is_none_or(|m| m == endpoint.method);
            let path_matches = match path.strip_suffix('*') {
                Some(stem) => local.starts_with(stem.trim_end_matches(['/', '('])),
                None => local == path,
            };
            method_matches && path_matches
        }
    }
}
