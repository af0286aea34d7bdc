//! Auth guards in Express, Koa and Fastify code: middleware arguments of routes and mounts
//! (`router.get('/x', requireAuth, h)`, `app.use('/admin', isAdmin, admin)`), Fastify's route
//! hooks (`{ preHandler: [fastify.authenticate] }`) and plugin hooks (`fastify.addHook(…)`),
//! request decorators (`fastify.decorate('authenticate', …)`), and the middleware functions a
//! file defines (`(req, res, next)` functions with auth names), which a use elsewhere names.

use tree_sitter::Node;

use super::{MAX_WRAPPING, Scanner};
use crate::bridge::extract::code::guards::names::is_check_name;
use crate::bridge::extract::code::guards::{GuardNote, Role, is_auth_name};
use crate::bridge::extract::syntax::literal::{string, unwrap_parens};
use crate::bridge::extract::syntax::script::{arguments, property};
use crate::bridge::extract::syntax::{Fields, ParsedFile, Walk, named_children, walk};

/// Fastify route options and hooks that run before the handler.
pub(super) const HOOKS: &[&str] = &["onRequest", "preParsing", "preValidation", "preHandler"];

/// Calls whose first string argument names the strategy (`passport.authenticate('jwt')`).
const STRATEGY_CALLS: &[&str] = &["passport.authenticate", "authenticate", "AuthGuard"];

/// Receivers a guard is reached through that add nothing to its name (`fastify.authenticate`).
const PLAIN_RECEIVERS: &[&str] = &["fastify", "app", "server", "instance", "this", "request", "req", "ctx"];

/// How many nodes of an anonymous hook are searched for what it checks.
const MAX_HOOK_NODES: usize = 4_000;

/// What an anonymous hook's body says when it is an auth check.
const AUTH_BODY_SIGNS: &[&str] = &[
    "nauthorized",
    "jwtVerify",
    "uthenticat",
    "authorization",
    "session.user",
    "401",
    "403",
    "orbidden",
];

impl Scanner<'_, '_> {
    /// The guards a middleware or hook argument puts on a route: an auth-named function,
    /// `auth('role')`, `passport.authenticate('jwt')`, a list of them, or an inline function
    /// that calls one (`(req, reply) => req.isAdmin(reply)`).
    pub(super) fn guards_of(&mut self, node: Node<'_>, kind: &'static str) -> Vec<String> {
        let node = unwrap_parens(node);
        match node.kind() {
            "array" => named_children(node)
                .into_iter()
                .flat_map(|item| self.guards_of(item, kind))
                .collect(),
            "arrow_function" | "function_expression" | "function" => self
                .called_guard(node)
                .map(|name| self.used(name, kind))
                .into_iter()
                .collect(),
            _ => self
                .guard_name(node)
                .map(|name| self.used(name, kind))
                .into_iter()
                .collect(),
        }
    }

    /// Fastify's `{ onRequest: …, preHandler: … }` route options.
    pub(super) fn option_guards(&mut self, options: Node<'_>) -> Vec<String> {
        let mut out = Vec::new();
        for hook in HOOKS {
            if let Some(value) = property(self.file, options, hook) {
                out.extend(self.guards_of(value, "hook"));
            }
        }
        out
    }

    /// The name of an auth middleware as written: `requireAuth`, `auth.required`, `auth('x')`
    /// → `auth`, `passport.authenticate('jwt', …)` → `passport.authenticate('jwt')`.
    pub(super) fn guard_name(&self, node: Node<'_>) -> Option<String> {
        let mut node = unwrap_parens(node);
        let mut strategy = None;
        for _ in 0..MAX_WRAPPING {
            if node.kind() != "call_expression" {
                break;
            }
            let function = node.field("function")?;
            let callee = plain_name(self.file, function);
            if STRATEGY_CALLS.contains(&callee.as_str()) {
                strategy = arguments(node).first().and_then(|arg| string(self.file, *arg));
            }
            node = function;
        }
        if !matches!(node.kind(), "identifier" | "member_expression") {
            return None;
        }
        let name = plain_name(self.file, node);
        if !is_auth_name(&name) {
            return None;
        }
        Some(match strategy {
            Some(strategy) => format!("{name}('{strategy}')"),
            None => name,
        })
    }

    /// The auth guard an inline function calls (`req.isAdmin(reply)`, `requireRole('x')(…)`).
    fn called_guard(&self, function: Node<'_>) -> Option<String> {
        let mut found = None;
        let mut budget = MAX_HOOK_NODES;
        walk(function, |node| {
            budget = budget.saturating_sub(1);
            if budget == 0 {
                return Walk::Stop;
            }
            if node.kind() == "call_expression"
                && let Some(name) = node.field("function").and_then(|f| self.guard_name(f))
            {
                found = Some(name);
                return Walk::Stop;
            }
            Walk::Enter
        });
        found
    }

    /// Records that the file uses guard `name` as `kind`; gives the name back.
    fn used(&mut self, name: String, kind: &'static str) -> String {
        // Route hooks are Fastify's, whatever the file imports.
        let framework = if kind == "hook" { "fastify" } else { self.hint };
        let note = GuardNote::new(&name, kind, framework, Role::Used, self.file.path);
        if !self.out.guards.contains(&note) {
            self.out.guards.push(note);
        }
        name
    }

    /// `fastify.addHook('onRequest', fastify.authenticate)` or an anonymous hook whose body
    /// checks the session or the token: the guard it puts on the plugin's routes.
    pub(super) fn hook_guard(&mut self, args: &[Node<'_>]) -> Option<String> {
        let [hook, function, ..] = args else { return None };
        let hook = string(self.file, *hook)?;
        if !HOOKS.contains(&hook.as_str()) {
            return None;
        }
        let function = unwrap_parens(*function);
        if matches!(function.kind(), "arrow_function" | "function_expression" | "function") {
            if let Some(name) = self.called_guard(function) {
                return Some(self.used(name, "hook"));
            }
            let body = self.file.text(function);
            let checks_auth = body.len() < 64 * 1024 && AUTH_BODY_SIGNS.iter().any(|sign| body.contains(sign));
            return checks_auth.then(|| self.used(hook, "hook"));
        }
        self.guards_of(function, "hook").into_iter().next()
    }

    /// `fastify.decorate('authenticate', fn)`, `fastify.decorateRequest('isAdmin', isAdmin)`:
    /// an auth-named decorator is a guard defined here.
    pub(super) fn decorated_guard(&mut self, args: &[Node<'_>]) {
        if let Some(name) = args.first().and_then(|n| string(self.file, *n))
            && is_auth_name(&name)
        {
            self.out
                .guards
                .push(GuardNote::new(&name, "hook", "fastify", Role::Defined, self.file.path));
        }
    }
}

/// A guard's name without a plain receiver: `fastify.authenticate` → `authenticate`.
fn plain_name(file: &ParsedFile<'_>, node: Node<'_>) -> String {
    if node.kind() == "member_expression"
        && let (Some(object), Some(property)) = (node.field("object"), node.field("property"))
        && PLAIN_RECEIVERS.contains(&file.text(object))
    {
        return file.text(property).to_owned();
    }
    file.text(node).to_owned()
}

/// The auth middleware functions a script file defines at its top level: an auth-named
/// function taking `next` (`(req, res, next)`, `(ctx, next)`), or one returning such a
/// function (`const auth = (...rights) => async (req, res, next) => …`). Linking takes a
/// guard's file from here when another file uses it.
pub fn candidates(file: &ParsedFile<'_>, framework: &'static str, out: &mut Vec<GuardNote>) {
    for statement in named_children(file.root()) {
        let declaration = match statement.kind() {
            "export_statement" => statement.field("declaration").unwrap_or(statement),
            _ => statement,
        };
        let mut named: Vec<(String, Node<'_>)> = Vec::new();
        match declaration.kind() {
            "function_declaration" => {
                if let Some(name) = file.field_text(declaration, "name") {
                    named.push((name.to_owned(), declaration));
                }
            }
            "lexical_declaration" | "variable_declaration" => {
                for declarator in named_children(declaration) {
                    if let (Some(name), Some(value)) = (file.field_text(declarator, "name"), declarator.field("value"))
                    {
                        named.push((name.to_owned(), unwrap_parens(value)));
                    }
                }
            }
            _ => {}
        }
        for (name, function) in named {
            if is_auth_name(&name) && takes_next(file, function, 0) {
                out.push(GuardNote::new(
                    &name,
                    "middleware",
                    framework,
                    Role::Candidate,
                    file.path,
                ));
            } else if is_check_name(&name) && is_function(function) {
                out.push(GuardNote::new(&name, "check", framework, Role::Candidate, file.path));
            }
        }
    }
}

fn is_function(node: Node<'_>) -> bool {
    matches!(
        node.kind(),
        "function_declaration" | "arrow_function" | "function_expression" | "function"
    )
}

/// True for a function with a `next` parameter, or one returning such a function.
fn takes_next(file: &ParsedFile<'_>, function: Node<'_>, depth: usize) -> bool {
    if depth > 2
        || !matches!(
            function.kind(),
            "function_declaration" | "arrow_function" | "function_expression" | "function"
        )
    {
        return false;
    }
    let parameters = function.field("parameters").or_else(|| function.field("parameter"));
    let has_next = parameters.is_some_and(|params| {
        file.text(params) == "next"
            || named_children(params).into_iter().any(|p| {
                let pattern = p.field("pattern").unwrap_or(p);
                file.text(pattern) == "next"
            })
    });
    if has_next {
        return true;
    }
    match function.field("body") {
        Some(body) if body.kind() != "statement_block" => takes_next(file, unwrap_parens(body), depth + 1),
        Some(body) => named_children(body)
            .into_iter()
            .filter(|s| s.kind() == "return_statement")
            .filter_map(|s| s.named_child(0))
            .any(|value| takes_next(file, unwrap_parens(value), depth + 1)),
        None => false,
    }
}
