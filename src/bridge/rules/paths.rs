//! URL paths as routers build them from prefixes.

/// The HTTP methods a route may name, upper case (TRACE too: Spring's `HttpMethod` has it).
pub const HTTP_METHODS: &[&str] = &["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE"];

/// Most prefixes (groups, scopes, nested resources) a route is placed under: a route nested
/// deeper is left out rather than shown with a path cut short or thousands of characters long.
pub const MAX_NESTING: usize = 64;

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_slash_between() {
        assert_eq!(join("/api/", "/v1"), "/api/v1");
        assert_eq!(join("", ""), "/");
        assert_eq!(join("/api", ""), "/api");
        assert_eq!(join("", "users"), "/users");
    }
}
