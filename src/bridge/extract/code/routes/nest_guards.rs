//! NestJS guards: `@UseGuards(JwtAuthGuard, RolesGuard)` on a controller or a handler, guard
//! classes (`implements CanActivate`, `extends AuthGuard('jwt')`), auth middleware classes
//! (`implements NestMiddleware`) bound with `consumer.apply(M).forRoutes({ path, method }, C)`,
//! Passport strategies, and global guards (`{ provide: APP_GUARD, useClass: X }`).

use tree_sitter::Node;

use super::RouteScan;
use crate::bridge::extract::code::guards::{GuardNote, Role, is_auth_name};
use crate::bridge::extract::syntax::literal::string;
use crate::bridge::extract::syntax::script::{arguments, decorator_arguments, decorator_name, member_chain, property};
use crate::bridge::extract::syntax::{Fields, ParsedFile, named_children};
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

/// The guards `@UseGuards(…)` decorators name.
pub fn use_guards(file: &ParsedFile<'_>, decorators: &[Node<'_>], out: &mut RouteScan) -> Vec<String> {
    let mut names = Vec::new();
    for decorator in decorators {
        if decorator_name(file, *decorator) != Some("UseGuards") {
            continue;
        }
        for argument in decorator_arguments(*decorator) {
            let name = guard_reference(file, argument);
            // A guard that limits rates (`ThrottlerGuard`) is no auth guard.
            if !is_auth_name(&name) {
                continue;
            }
            out.guards
                .push(GuardNote::new(&name, "guard", "nestjs", Role::Used, file.path));
            names.push(name);
        }
    }
    names
}

/// `JwtAuthGuard`, `AuthGuard('jwt')`, `new RolesGuard()` as a guard's name.
fn guard_reference(file: &ParsedFile<'_>, node: Node<'_>) -> String {
    match node.kind() {
        "call_expression" | "new_expression" => {
            let callee = node
                .field("function")
                .or_else(|| node.field("constructor"))
                .map_or("", |f| file.text(f));
            match arguments(node).first().and_then(|a| string(file, *a)) {
                Some(strategy) if node.kind() == "call_expression" => format!("{callee}('{strategy}')"),
                _ => callee.to_owned(),
            }
        }
        _ => file.text(node).to_owned(),
    }
}

/// A class that is a guard, auth middleware or Passport strategy: noted as defined.
pub fn guard_class(file: &ParsedFile<'_>, class: Node<'_>, out: &mut RouteScan) {
    let Some(name) = file.field_text(class, "name") else {
        return;
    };
    let Some(heritage) = named_children(class).into_iter().find(|c| c.kind() == "class_heritage") else {
        return;
    };
    let text = file.text(heritage);
    let kind = if (text.contains("CanActivate") || text.contains("AuthGuard(")) && is_auth_name(name) {
        "guard"
    } else if text.contains("NestMiddleware") && is_auth_name(name) {
        "middleware"
    } else if text.contains("PassportStrategy(") {
        "strategy"
    } else {
        return;
    };
    out.guards
        .push(GuardNote::new(name, kind, "nestjs", Role::Defined, file.path));
}

/// `{ provide: APP_GUARD, useClass: JwtAuthGuard }`: a guard on every route.
pub fn global_guard(file: &ParsedFile<'_>, object: Node<'_>, out: &mut RouteScan) {
    if property(file, object, "provide").map(|p| file.text(p)) != Some("APP_GUARD") {
        return;
    }
    if let Some(class) = property(file, object, "useClass").or_else(|| property(file, object, "useExisting")) {
        let name = file.text(class).to_owned();
        if !is_auth_name(&name) {
            return;
        }
        out.guards
            .push(GuardNote::new(&name, "guard", "nestjs", Role::Used, file.path));
        if !out.nest_global_guards.contains(&name) {
            out.nest_global_guards.push(name);
        }
    }
}

/// `consumer.apply(AuthMiddleware).exclude(…).forRoutes(…)` with auth middleware.
pub fn binding(file: &ParsedFile<'_>, call: Node<'_>, out: &mut RouteScan) {
    let (_, calls) = member_chain(file, call);
    let Some(apply) = calls.iter().find(|c| c.name == "apply") else {
        return;
    };
    let Some(for_routes) = calls.last().filter(|c| c.name == "forRoutes") else {
        return;
    };
    let guards: Vec<String> = apply
        .args
        .iter()
        .map(|arg| file.text(*arg).to_owned())
        .filter(|name| is_auth_name(name))
        .collect();
    if guards.is_empty() {
        return;
    }
    let mut routes = Vec::new();
    for arg in &for_routes.args {
        match arg.kind() {
            "object" => {
                let Some(path) = property(file, *arg, "path").and_then(|p| string(file, p)) else {
                    continue;
                };
                let method = property(file, *arg, "method")
                    .map(|m| file.text(m).rsplit('.').next().unwrap_or("").to_ascii_uppercase())
                    .filter(|m| m != "ALL");
                routes.push(RouteFilter::Path { path, method });
            }
            "identifier" => routes.push(RouteFilter::Controller(file.text(*arg).to_owned())),
            _ => {
                if let Some(path) = string(file, *arg) {
                    routes.push(RouteFilter::Path { path, method: None });
                }
            }
        }
    }
    for guard in &guards {
        out.guards
            .push(GuardNote::new(guard, "middleware", "nestjs", Role::Used, file.path));
    }
    out.nest_bindings.push(Binding { guards, routes });
}

/// Puts the global guards and the middleware bindings on the NestJS endpoints they cover.
/// Binding paths are written without the global prefix.
pub fn apply(endpoints: &mut [Endpoint], global: &[String], bindings: &[Binding], prefix: &str) {
    let prefix = format!("/{}", prefix.trim_matches('/'));
    for endpoint in endpoints.iter_mut().filter(|e| e.framework == "nestjs") {
        let mut guards: Vec<String> = global.to_vec();
        let local = endpoint
            .path
            .strip_prefix(prefix.as_str())
            .filter(|rest| rest.is_empty() || rest.starts_with('/'))
            .unwrap_or(&endpoint.path);
        let local = local.trim_matches('/');
        for binding in bindings {
            if binding.routes.iter().any(|filter| covers(filter, endpoint, local)) {
                guards.extend(binding.guards.iter().cloned());
            }
        }
        for guard in std::mem::take(&mut endpoint.guards) {
            guards.push(guard);
        }
        let mut unique = Vec::new();
        for guard in guards {
            if !unique.contains(&guard) {
                unique.push(guard);
            }
        }
        endpoint.guards = unique;
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
