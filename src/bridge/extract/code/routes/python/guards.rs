//! Auth guards in FastAPI and Flask code: FastAPI dependencies (`Depends(get_current_user)`,
//! `Security(…)`, `Annotated[User, Depends(…)]` and the aliases made of them, `dependencies=[…]`
//! on a route, a router or an include), security schemes (`OAuth2PasswordBearer(…)`), Flask
//! decorators (`@login_required`, `@token_auth.login_required`, `@roles_required('admin')`) and
//! `before_request` hooks that check the user; and the forms a Flask view validates.

use tree_sitter::Node;

use super::Scanner;
use crate::bridge::extract::code::guards::{GuardNote, Role, is_auth_name};
use crate::bridge::extract::syntax::python::{assignment, bases, keyword, positional};
use crate::bridge::extract::syntax::{Fields, Walk, named_children, walk};

/// FastAPI's security scheme classes: an instance checks the request's credentials.
const SCHEMES: &[&str] = &[
    "OAuth2PasswordBearer",
    "OAuth2AuthorizationCodeBearer",
    "OAuth2",
    "HTTPBearer",
    "HTTPBasic",
    "HTTPDigest",
    "APIKeyHeader",
    "APIKeyQuery",
    "APIKeyCookie",
    "OpenIdConnect",
];

/// Functions that wrap a FastAPI dependency.
const DEPENDS: &[&str] = &["Depends", "Security"];

/// How many nodes of a view are searched for the form it validates.
const MAX_VIEW_NODES: usize = 20_000;

/// What a FastAPI handler's signature says of its dependencies: the functions it depends on,
/// and the annotation names that may be aliases of a dependency (`current_user: CurrentUser`).
#[derive(Debug, Default)]
pub(super) struct Dependencies {
    pub direct: Vec<String>,
    pub aliases: Vec<String>,
}

impl Scanner<'_, '_> {
    /// The guards the decorators of a view put on it (`@login_required`, `@jwt_required()`);
    /// none for a function that is no view (`@token_auth.verify_token def verify(…)`).
    pub(super) fn decorator_guards(&mut self, decorators: &[Node<'_>]) -> Vec<String> {
        if !decorators.iter().any(|d| self.is_route_decorator(*d)) {
            return Vec::new();
        }
        let mut out = Vec::new();
        for decorator in decorators {
            let Some(expression) = decorator.named_child(0) else {
                continue;
            };
            let callee = match expression.kind() {
                "call" => expression.field("function"),
                _ => Some(expression),
            };
            let Some(callee) = callee.filter(|c| matches!(c.kind(), "identifier" | "attribute")) else {
                continue;
            };
            let name = self.file.text(callee);
            if is_auth_name(name) {
                self.note(name, "decorator", Role::Used);
                out.push(name.to_owned());
            }
        }
        out
    }

    /// The dependencies a signature names (see [`Dependencies`]).
    pub(super) fn dependencies(&self, definition: Node<'_>) -> Dependencies {
        let mut out = Dependencies::default();
        let Some(parameters) = definition.field("parameters") else {
            return out;
        };
        for parameter in named_children(parameters) {
            if let Some(default) = parameter.field("value") {
                match self.depends_on(default) {
                    Some(target) => out.direct.push(target),
                    None if default.kind() == "identifier" => out.aliases.push(self.file.text(default).to_owned()),
                    None => {}
                }
            }
            let Some(annotation) = parameter.field("type") else {
                continue;
            };
            match self.annotated_dependency(annotation) {
                Some(target) => out.direct.push(target),
                None => {
                    let text = self.file.text(annotation);
                    if text.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '.') {
                        out.aliases.push(text.to_owned());
                    }
                }
            }
        }
        out
    }

    /// `Depends(get_user)`, `Security(get_user, scopes=[…])` → `get_user`.
    fn depends_on(&self, node: Node<'_>) -> Option<String> {
        if node.kind() != "call" {
            return None;
        }
        let function = self.file.text(node.field("function")?);
        if !DEPENDS.contains(&function.rsplit('.').next().unwrap_or(function)) {
            return None;
        }
        let target = positional(node)
            .first()
            .copied()
            .or_else(|| keyword(self.file, node, "dependency"))?;
        match target.kind() {
            "identifier" | "attribute" => Some(self.file.text(target).to_owned()),
            // `Depends(get_current_user_authorizer())`: the factory names the dependency, unless
            // it is asked for the optional kind (`required=False`).
            "call" => {
                let optional = ["required", "auto_error"]
                    .iter()
                    .any(|flag| keyword(self.file, target, flag).is_some_and(|v| self.file.text(v) == "False"));
                let factory = target
                    .field("function")
                    .filter(|f| matches!(f.kind(), "identifier" | "attribute"))?;
                (!optional).then(|| self.file.text(factory).to_owned())
            }
            _ => None,
        }
    }

    /// `class RWAPIKeyHeader(APIKeyHeader)`: a security scheme of the project's own.
    pub(super) fn scheme_class(&mut self, class: Node<'_>) {
        let Some(name) = self.file.field_text(class, "name") else {
            return;
        };
        if bases(self.file, class)
            .iter()
            .any(|base| SCHEMES.contains(&base.rsplit('.').next().unwrap_or(base)))
        {
            self.note(name, "security-scheme", Role::Defined);
            self.out.schemes.push(name.to_owned());
        }
    }

    /// `Annotated[User, Depends(get_current_user)]` → `get_current_user`.
    fn annotated_dependency(&self, annotation: Node<'_>) -> Option<String> {
        let mut found = None;
        walk(annotation, |node| {
            if found.is_some() {
                return Walk::Stop;
            }
            if let Some(target) = self.depends_on(node) {
                found = Some(target);
                return Walk::Stop;
            }
            Walk::Enter
        });
        found
    }

    /// The guards of `dependencies=[Depends(…), …]` on a route, router or include.
    pub(super) fn dependency_guards(&mut self, call: Node<'_>) -> Vec<String> {
        let Some(list) = keyword(self.file, call, "dependencies") else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for item in named_children(list) {
            // A dependency listed only for its check: an auth name, or a credential it reads
            // (`MetricsToken(...)`, `api_key_header`).
            if let Some(target) = self.depends_on(item)
                && (is_auth_name(&target) || reads_credential(&target))
            {
                self.note(&target, "dependency", Role::Used);
                out.push(target);
            }
        }
        out
    }

    /// Module-level `oauth2_scheme = OAuth2PasswordBearer(…)` (a guard defined here) and
    /// `CurrentUser = Annotated[User, Depends(get_current_user)]` (an alias of a dependency).
    pub(super) fn module_assignment(&mut self, statement: Node<'_>) {
        if statement.parent().is_none_or(|parent| parent.kind() != "module") {
            return;
        }
        let Some((name, _, Some(value))) = assignment(self.file, statement) else {
            return;
        };
        if value.kind() == "call"
            && let Some(function) = value.field("function").map(|f| self.file.text(f))
            && SCHEMES.contains(&function.rsplit('.').next().unwrap_or(function))
        {
            self.note(&name, "security-scheme", Role::Defined);
            self.out.schemes.push(name);
            return;
        }
        if let Some(target) = self.depends_on(value).or_else(|| {
            (self.file.text(value).starts_with("Annotated["))
                .then(|| self.annotated_dependency(value))
                .flatten()
        }) {
            self.out.aliases.push((name, target));
        }
    }

    /// A top-level function with an auth name: where a dependency or decorator used elsewhere
    /// is defined.
    pub(super) fn candidate(&mut self, definition: Node<'_>) {
        let top = definition.parent().is_some_and(|p| {
            p.kind() == "module"
                || (p.kind() == "decorated_definition" && p.parent().is_some_and(|g| g.kind() == "module"))
        });
        if let Some(name) = self.file.field_text(definition, "name")
            && top
            && is_auth_name(name)
        {
            let kind = if self.hint == "flask" {
                "decorator"
            } else {
                "dependency"
            };
            self.note(name, kind, Role::Candidate);
        }
    }

    /// `@bp.before_request def require_login(): …` checking the user: a guard on every route
    /// of the blueprint.
    pub(super) fn before_request_guard(&mut self, definition: Node<'_>) -> Option<String> {
        let name = self.file.field_text(definition, "name")?;
        let body = self.file.text(definition);
        // A hook that only reads the user (`if current_user.is_authenticated: …`) guards nothing.
        let checks = is_auth_name(name)
            || [
                "abort(401",
                "abort(403",
                "nauthorized",
                "verify_jwt",
                "login_required",
                ".login')",
                ".login\")",
            ]
            .iter()
            .any(|sign| body.contains(sign));
        checks.then(|| {
            self.note(name, "hook", Role::Used);
            name.to_owned()
        })
    }

    /// The forms a Flask view instantiates (`form = LoginForm()`): what a POST to it sends.
    pub(super) fn view_forms(&self, definition: Node<'_>) -> Vec<String> {
        let mut out = Vec::new();
        let mut budget = MAX_VIEW_NODES;
        walk(definition, |node| {
            budget = budget.saturating_sub(1);
            if budget == 0 {
                return Walk::Stop;
            }
            if node.kind() == "call"
                && let Some(function) = node.field("function").filter(|f| f.kind() == "identifier")
            {
                let name = self.file.text(function);
                if name.ends_with("Form") && !out.iter().any(|have| have == name) {
                    out.push(name.to_owned());
                }
            }
            Walk::Enter
        });
        out
    }

    /// The schemas webargs and flask-smorest decorators read the request with:
    /// `@use_kwargs(user_schema)`, `@use_args(UserSchema())`, `@blp.arguments(UserSchema)`.
    pub(super) fn argument_schemas(&self, decorators: &[Node<'_>]) -> Vec<String> {
        decorators
            .iter()
            .filter_map(|decorator| decorator.named_child(0).filter(|c| c.kind() == "call"))
            .filter(|call| {
                call.field("function")
                    .map(|f| self.file.text(f).rsplit('.').next().unwrap_or(""))
                    .is_some_and(|name| matches!(name, "use_kwargs" | "use_args" | "arguments" | "expect"))
            })
            .filter_map(|call| positional(call).first().copied())
            .filter_map(|schema| match schema.kind() {
                "identifier" | "attribute" => Some(self.file.text(schema).to_owned()),
                "call" => schema.field("function").map(|f| self.file.text(f).to_owned()),
                _ => None,
            })
            .collect()
    }

    fn note(&mut self, name: &str, kind: &'static str, role: Role) {
        let note = GuardNote::new(name, kind, self.hint, role, self.file.path);
        if !self.out.guards.contains(&note) {
            self.out.guards.push(note);
        }
    }
}

/// A name whose last word is a credential (`MetricsToken`, `partner_key`, `bearer`).
fn reads_credential(name: &str) -> bool {
    crate::bridge::extract::code::guards::names::words(name)
        .last()
        .is_some_and(|last| matches!(last.as_str(), "token" | "key" | "bearer" | "credentials"))
}
