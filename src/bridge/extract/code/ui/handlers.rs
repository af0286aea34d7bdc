//! What the handler behind a file-system endpoint says of its request: the schema it parses the
//! body with (`postPatchSchema.parse(await req.json())`) and the auth checks it calls before
//! anything else (`await requireUserId(request)`, `authenticator.isAuthenticated(request, …)`).
//! The handler is the function the file exports: `GET`/`POST`… in a Next.js route file,
//! `default` in `pages/api`, `loader`/`action` in a Remix route.

use tree_sitter::Node;

use crate::bridge::extract::code::guards::names::is_check_name;
use crate::bridge::extract::code::guards::{GuardNote, Role};
use crate::bridge::extract::code::modules::script::{Export, ScriptModule};
use crate::bridge::extract::code::shapes::parsed::parsed_bodies;
use crate::bridge::extract::syntax::literal::unwrap_parens;
use crate::bridge::extract::syntax::script::arguments;
use crate::bridge::extract::syntax::{Fields, ParsedFile, Walk, named_children, walk};
use crate::bridge::facts::Endpoint;

/// What a handler's request is called.
const REQUEST_NAMES: &[&str] = &["request", "req", "ctx", "context", "event", "args"];

/// Most nodes of one handler searched for auth checks.
const MAX_NODES: usize = 20_000;

/// Fills in the request shape and guards of each of `endpoints` (all from `file`), noting the
/// guards in `notes`.
pub fn inspect(file: &ParsedFile<'_>, module: &ScriptModule, endpoints: &mut [Endpoint], notes: &mut Vec<GuardNote>) {
    for endpoint in endpoints.iter_mut() {
        let export = match endpoint.framework.as_str() {
            "remix" if endpoint.method == "GET" => "loader",
            "remix" => "action",
            "nextjs" if endpoint.method == "ALL" => "default",
            _ => endpoint.method.as_str(),
        };
        let Some(handler) = exported_function(file, module, export) else {
            continue;
        };
        // A handler shared by GET and PATCH parses the body only for the methods that send one.
        let sends_body = !matches!(endpoint.method.as_str(), "GET" | "HEAD" | "DELETE" | "OPTIONS");
        if endpoint.request.is_none() && sends_body {
            endpoint.request = parsed_bodies(file, handler).into_iter().next();
        }
        for guard in checks(file, handler) {
            let note = GuardNote::new(&guard, "check", framework(&endpoint.framework), Role::Used, file.path);
            if !notes.contains(&note) {
                notes.push(note);
            }
            if !endpoint.guards.contains(&guard) {
                endpoint.guards.push(guard);
            }
        }
    }
}

fn framework(name: &str) -> &'static str {
    match name {
        "remix" => "remix",
        "nextjs" => "nextjs",
        _ => "",
    }
}

/// The function `file` exports as `name`.
pub fn exported_function<'t>(file: &'t ParsedFile<'_>, module: &ScriptModule, name: &str) -> Option<Node<'t>> {
    let local = module.exports.iter().find_map(|export| match export {
        Export::Local { exported, local } if exported == name => Some(local.as_str()),
        _ => None,
    })?;
    for statement in named_children(file.root()) {
        let is_default = statement.kind() == "export_statement"
            && (0..statement.child_count())
                .filter_map(|at| statement.child(at as u32))
                .any(|child| child.kind() == "default");
        let declaration = match statement.kind() {
            "export_statement" => statement.field("declaration").or_else(|| statement.field("value")),
            _ => Some(statement),
        };
        let Some(declaration) = declaration.map(unwrap_parens) else {
            continue;
        };
        match declaration.kind() {
            "function_declaration" | "function_expression" | "arrow_function" | "function"
                if file.field_text(declaration, "name") == Some(local) || (is_default && local == "default") =>
            {
                return Some(declaration);
            }
            "lexical_declaration" | "variable_declaration" => {
                for declarator in named_children(declaration) {
                    if file.field_text(declarator, "name") == Some(local)
                        && let Some(value) = declarator.field("value")
                    {
                        return Some(unwrap_parens(value));
                    }
                }
            }
            _ => {}
        }
    }
    None
}

/// The auth checks a handler calls, by name, in order.
fn checks(file: &ParsedFile<'_>, handler: Node<'_>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut budget = MAX_NODES;
    walk(handler, |node| {
        budget = budget.saturating_sub(1);
        if budget == 0 {
            return Walk::Stop;
        }
        if node.kind() == "call_expression"
            && let Some(callee) = node
                .field("function")
                .filter(|f| matches!(f.kind(), "identifier" | "member_expression"))
        {
            let name = file.text(callee);
            // A check is handed the request (`requireUserId(request)`); one handed the
            // credentials (`verifyLogin(email, password)`) is the login itself.
            let given_request = arguments(node)
                .iter()
                .any(|arg| REQUEST_NAMES.contains(&file.text(*arg)));
            if given_request && is_check_name(name) && !out.iter().any(|have| have == name) {
                out.push(name.to_owned());
            }
        }
        Walk::Enter
    });
    out
}

/// Next.js middleware (`middleware.ts` at the top or in `src/`) that is an auth guard:
/// `export default withAuth(…)`, `export default auth(…)`, `clerkMiddleware(…)`, or
/// `export { default } from "next-auth/middleware"`; with the paths its `config.matcher` names.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NextMiddleware {
    pub guard: String,
    pub matchers: Vec<String>,
}

/// The auth middleware `file` is, if it is Next.js's middleware file and an auth guard.
pub fn next_middleware(file: &ParsedFile<'_>, module: &ScriptModule) -> Option<NextMiddleware> {
    let name = file.path.rsplit('/').next().unwrap_or(file.path);
    let dir = file.path.strip_suffix(name).unwrap_or("").trim_end_matches('/');
    if !matches!(name, "middleware.ts" | "middleware.js" | "proxy.ts" | "proxy.js") || !(dir.is_empty() || dir == "src")
    {
        return None;
    }
    let mut guard = module.exports.iter().find_map(|export| match export {
        Export::From { exported, source, .. } if exported == "default" || exported == "middleware" => {
            Some(source.clone())
        }
        _ => None,
    });
    let mut matchers = Vec::new();
    for statement in named_children(file.root())
        .into_iter()
        .filter(|s| s.kind() == "export_statement")
    {
        if let Some(value) = statement.field("value").map(unwrap_parens)
            && value.kind() == "call_expression"
            && let Some(callee) = value.field("function")
        {
            guard = Some(file.text(callee).to_owned());
        }
        let Some(declaration) = statement.field("declaration") else {
            continue;
        };
        for declarator in named_children(declaration) {
            if file.field_text(declarator, "name") == Some("config")
                && let Some(matcher) = declarator
                    .field("value")
                    .and_then(|config| crate::bridge::extract::syntax::script::property(file, config, "matcher"))
            {
                let items = if matcher.kind() == "array" {
                    named_children(matcher)
                } else {
                    vec![matcher]
                };
                matchers.extend(
                    items
                        .into_iter()
                        .filter_map(|item| crate::bridge::extract::syntax::literal::string(file, item)),
                );
            }
        }
    }
    let guard = guard.filter(|g| crate::bridge::extract::code::guards::is_auth_name(g) || g.contains("auth"))?;
    Some(NextMiddleware { guard, matchers })
}

/// True if a `config.matcher` pattern covers `path` (`/api/:path*`, `/dashboard/:path*`,
/// `/((?!_next|static).*)`): the literal part before its first parameter or group is a
/// prefix of the path. Without a matcher the middleware runs on every path.
pub fn matches(matchers: &[String], path: &str) -> bool {
    if matchers.is_empty() {
        return true;
    }
    matchers.iter().any(|matcher| {
        let literal = matcher
            .split([':', '('])
            .next()
            .unwrap_or(matcher)
            .trim_end_matches('/');
        literal.is_empty() || path == literal || path.starts_with(&format!("{literal}/"))
    })
}
