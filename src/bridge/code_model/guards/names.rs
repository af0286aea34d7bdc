//! Whether a name stands for an auth check: the words of the name (`requireAuth`,
//! `get_current_user`, `token_auth.login_required`, `IsAuthenticated`) against the words
//! auth code is named with. A name holding a word of [`NOT_AUTH`] (`authLimiter`) is none.

/// Words that make a name an auth check on their own.
const AUTH_WORDS: &[&str] = &[
    "auth",
    "authed",
    "authenticate",
    "authenticated",
    "authentication",
    "authorize",
    "authorized",
    "authorization",
    "authz",
    "authn",
    "jwt",
    "login",
    "logged",
    "loggedin",
    "signedin",
    "permission",
    "permissions",
    "role",
    "roles",
    "admin",
    "superuser",
    "staff",
    "guard",
    "protect",
    "protected",
    "bearer",
    "oauth",
    "oauth2",
    "passport",
    "acl",
    "rbac",
    "moderator",
    "owner",
    "apikey",
    "claims",
    "jwks",
];

/// Verbs that make a name an auth check with one of [`SUBJECTS`] (`verifyToken`, `requireUser`).
const VERBS: &[&str] = &[
    "require", "required", "requires", "ensure", "verify", "check", "current", "validate", "must",
];

/// What such a verb checks (`current_user`, `checkAccess`, `token_required`).
const SUBJECTS: &[&str] = &[
    "user", "userid", "token", "access", "account", "api", "key", "session", "scope", "scopes",
];

/// Words that make a name something else even when it holds an auth word (`authLimiter`,
/// `authController`, `loginSchema`).
const NOT_AUTH: &[&str] = &[
    "limiter",
    "limit",
    "rate",
    "cors",
    "logger",
    "log",
    "controller",
    "service",
    "router",
    "routes",
    "route",
    "schema",
    "validation",
    "validator",
    "dto",
    "form",
    "page",
    "view",
    "template",
    "model",
    "repository",
    "client",
    "config",
    "options",
    "error",
    "errors",
    "exception",
    "test",
    "mock",
    "maybe",
    "optional",
    "allow",
    "any",
    "public",
    "initialize",
    "init",
    "setup",
    "prefix",
    "throttle",
    "throttler",
    "strategy",
    "strategies",
    "provider",
    "module",
    "type",
    "types",
];

/// The lower-case words of a name: split at `.`, `_`, `-`, `::` and lower-to-upper case changes.
pub fn words(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut previous_lower = false;
    for c in name.chars() {
        if !c.is_alphanumeric() {
            if !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
            previous_lower = false;
            continue;
        }
        if c.is_uppercase() && previous_lower && !current.is_empty() {
            out.push(std::mem::take(&mut current));
        }
        previous_lower = c.is_lowercase() || c.is_ascii_digit();
        current.extend(c.to_lowercase());
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// True if `name` reads as an auth check: an auth word (`jwtGuard`), a check of the user or
/// token (`verifyToken`), or a demand (`require_librarian`, `ensureMember`).
pub fn is_auth_name(name: &str) -> bool {
    let words = words(name);
    if words.iter().any(|w| NOT_AUTH.contains(&w.as_str())) {
        return false;
    }
    let has = |list: &[&str]| words.iter().any(|w| list.contains(&w.as_str()));
    // `requireUser` demands something; `require` alone is CommonJS's module loader
    // (`app.use(require('method-override')())`).
    let demands = words.len() > 1 && matches!(words[0].as_str(), "require" | "requires" | "ensure" | "must");
    let api_key = words.windows(2).any(|pair| pair[0] == "api" && pair[1] == "key");
    has(AUTH_WORDS) || (has(VERBS) && has(SUBJECTS)) || demands || api_key || words.iter().any(|w| glued_auth(w))
}

/// Verbs of a call that throws or redirects when the check fails (`requireUser`, `ensureAdmin`).
const CHECK_VERBS: &[&str] = &[
    "require", "requires", "ensure", "assert", "check", "verify", "protect", "guard", "must",
];

/// True for a call that rejects the request when the user may not: an auth name that is a
/// check (`requireUserId`, `authenticator.isAuthenticated`, `login_required`), not the login
/// itself (`authenticator.authenticate`).
pub fn is_check_name(name: &str) -> bool {
    if !is_auth_name(name) {
        return false;
    }
    let words = words(name.rsplit('.').next().unwrap_or(name));
    words.first().is_some_and(|first| CHECK_VERBS.contains(&first.as_str()))
        || words.last().is_some_and(|last| last == "required")
        || name.ends_with("isAuthenticated")
}

/// `isauthenticated`-style words written without case changes (`loginrequired`, `authuser`).
fn glued_auth(word: &str) -> bool {
    word.len() > 4
        && ["auth", "login", "jwt", "admin", "permission"]
            .iter()
            .any(|root| word.starts_with(root) || word.ends_with(root))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auth_checks_are_told_from_other_names() {
        for name in [
            "requireAuth",
            "get_current_user",
            "get_current_active_superuser",
            "token_auth.login_required",
            "login_required",
            "IsAuthenticated",
            "IsAuthenticatedOrReadOnly",
            "JwtAuthGuard",
            "AuthUser",
            "verifyToken",
            "requireUserId",
            "isAdmin",
            "passport.authenticate",
            "auth",
            "checkJwt",
            "RolesGuard",
            "isModerator",
            "Claims",
            "require_librarian",
            "ensureMember",
            "ApiKeyMiddleware",
        ] {
            assert!(is_auth_name(name), "{name}");
        }
        for name in [
            "authLimiter",
            "validate",
            "cors",
            "SessionDep",
            "get_db",
            "authController.login",
            "loginSchema",
            "MaybeAuthUser",
            "AllowAny",
            "list",
            "helmet",
            "LoginForm",
            "ThrottlerGuard",
            "require",
        ] {
            assert!(!is_auth_name(name), "{name}");
        }
    }

    #[test]
    fn words_split_at_case_and_separators() {
        assert_eq!(words("getCurrentUser"), ["get", "current", "user"]);
        assert_eq!(
            words("token_auth.login_required"),
            ["token", "auth", "login", "required"]
        );
        assert_eq!(words("JWTAuthGuard"), ["jwtauth", "guard"]);
        assert_eq!(words("axum::middleware::from_fn"), ["axum", "middleware", "from", "fn"]);
    }
}
