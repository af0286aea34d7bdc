//! Request-matcher rules (Spring Security's `SecurityFilterChain`): an ordered list of path
//! patterns, each with the access it requires. The first rule a request matches decides, so
//! an endpoint registered in any file gets the guard of the first rule its method and path
//! match (`permitAll` and the paths `web.ignoring()` lets through get none). Patterns are Ant
//! style: `*` one segment or part of one, `**` any number of segments, `{id}` one segment.

use super::hits::Hit;
use super::paths::HTTP_METHODS;
use super::text::literal;
use crate::bridge::facts::push_once;
use crate::bridge::facts::{Facts, Guard};

/// One authorization rule of a filter chain.
#[derive(Debug, Clone)]
pub struct Rule {
    file: String,
    /// Rules `web.ignoring()` sets apply before the chain's.
    first: bool,
    /// Where the rule is written in its file: rules apply in the order written.
    at: usize,
    /// `HttpMethod.POST` → `POST`; empty for every method.
    methods: Vec<String>,
    /// The path patterns; `None` for every path (`anyRequest()`, `requestMatchers(HttpMethod.GET)`);
    /// empty when the matchers are no patterns this reads (`PathRequest.toH2Console()`).
    patterns: Option<Vec<String>>,
    /// The guard the rule puts on what it matches; `None` lets requests through.
    guard: Option<String>,
}

/// Accesses that let a request through unauthenticated.
const PERMITS: &[&str] = &["permitAll", "anonymous"];

impl Rule {
    /// The rule a hit of a filter-chain rule file captures (`matcher.at`, `matcher.args`,
    /// `matcher.access` or `#set! access`, `matcher.access_args`).
    pub fn of(path: &str, hit: &Hit<'_>) -> Option<Rule> {
        let at = hit.get("matcher.at")?;
        let access = hit.prop("access").or_else(|| hit.text("matcher.access"))?;
        let args = hit.text("matcher.args").unwrap_or("");
        let given = hit.text("matcher.access_args").unwrap_or("()").replace('"', "'");
        let guard = (!PERMITS.contains(&access)).then(|| match given.as_str() {
            "()" | "" => access.to_owned(),
            _ => format!("{access}{given}"),
        });
        Some(Rule {
            file: path.to_owned(),
            first: hit.prop("first") == Some("true"),
            at: at.range.start,
            methods: methods(args),
            patterns: patterns(at.text, args),
            guard,
        })
    }

    fn matches(&self, method: &str, path: &str) -> bool {
        (self.methods.is_empty() || method == "ALL" || self.methods.iter().any(|m| m == method))
            && self
                .patterns
                .as_ref()
                .is_none_or(|patterns| patterns.iter().any(|pattern| ant_match(pattern, path)))
    }
}

/// Puts on each endpoint the guard of the first rule it matches, and adds a guard fact for
/// each rule that requires one.
pub fn apply(facts: &mut Facts, mut rules: Vec<Rule>) {
    rules.sort_by(|a, b| (!a.first, &a.file, a.at).cmp(&(!b.first, &b.file, b.at)));
    for rule in &rules {
        if let Some(name) = &rule.guard {
            facts.guards.push(Guard {
                name: name.clone(),
                kind: "security-filter-chain".into(),
                framework: Some("spring-security".into()),
                file: rule.file.clone(),
                ..Guard::default()
            });
        }
    }
    for endpoint in &mut facts.endpoints {
        let first = rules.iter().find(|rule| rule.matches(&endpoint.method, &endpoint.path));
        if let Some(name) = first.and_then(|rule| rule.guard.as_ref()) {
            push_once(&mut endpoint.guards, name.clone());
        }
    }
}

/// `HttpMethod.POST, "/x"` → `["POST"]` (`POST` alone when statically imported).
fn methods(args: &str) -> Vec<String> {
    args.trim_start_matches('(')
        .trim_end_matches(')')
        .split(',')
        .map(|arg| arg.trim().trim_start_matches("HttpMethod."))
        .filter(|arg| HTTP_METHODS.contains(arg))
        .map(str::to_owned)
        .collect()
}

/// The path patterns of a matcher call: `None` for every path (`anyRequest()`, or methods
/// alone).
fn patterns(matcher: &str, args: &str) -> Option<Vec<String>> {
    let only_methods = args
        .trim_start_matches('(')
        .trim_end_matches(')')
        .split(',')
        .all(|arg| arg.trim().is_empty() || !methods(arg).is_empty());
    (matcher != "anyRequest" && !only_methods).then(|| strings(args))
}

/// The string literals of an argument list, unquoted.
fn strings(args: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = args;
    while let Some(start) = rest.find('"') {
        let after = &rest[start + 1..];
        let Some(end) = after.find('"') else { break };
        out.push(literal(&rest[start..start + end + 2]));
        rest = &after[end + 1..];
    }
    out
}

/// True if the Ant-style `pattern` matches the endpoint `path` (whose `{id}` segments stand
/// for any value).
fn ant_match(pattern: &str, path: &str) -> bool {
    let pattern: Vec<&str> = pattern.split('/').filter(|s| !s.is_empty()).collect();
    let path: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    pattern.len() <= 32 && segments_match(&pattern, &path)
}

fn segments_match(pattern: &[&str], path: &[&str]) -> bool {
    match (pattern.split_first(), path.split_first()) {
        (None, _) => path.is_empty(),
        (Some((&"**", rest)), _) => {
            segments_match(rest, path) || (!path.is_empty() && segments_match(pattern, &path[1..]))
        }
        (Some(_), None) => false,
        (Some((want, pattern)), Some((have, path))) => segment_match(want, have) && segments_match(pattern, path),
    }
}

/// One segment: a path variable (`{id}`, `:id`) on the endpoint's side matches only a
/// wildcard or a variable; otherwise `*` and `{x}` in the pattern match any run of characters.
fn segment_match(pattern: &str, segment: &str) -> bool {
    if segment.starts_with('{') || segment.starts_with(':') {
        return pattern == segment || pattern.starts_with('{') || pattern == "*";
    }
    let mut glob = String::new();
    let mut in_var = false;
    for c in pattern.chars() {
        match c {
            '{' => in_var = true,
            '}' if in_var => {
                in_var = false;
                glob.push('*');
            }
            _ if in_var => {}
            _ => glob.push(c),
        }
    }
    wildcard(glob.as_bytes(), segment.as_bytes())
}

/// `*` any run of bytes, `?` one byte (iterative, linear in practice).
fn wildcard(pattern: &[u8], text: &[u8]) -> bool {
    let (mut p, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        match pattern.get(p) {
            Some(b'*') => {
                star = Some((p, t));
                p += 1;
            }
            Some(&c) if c == b'?' || c == text[t] => {
                p += 1;
                t += 1;
            }
            _ => match star {
                Some((sp, st)) => {
                    p = sp + 1;
                    t = st + 1;
                    star = Some((sp, st + 1));
                }
                None => return false,
            },
        }
    }
    pattern[p..].iter().all(|&c| c == b'*')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ant_patterns() {
        assert!(ant_match("/api/admin/**", "/api/admin"));
        assert!(ant_match("/api/admin/**", "/api/admin/users/{id}"));
        assert!(!ant_match("/api/admin/**", "/api/users"));
        assert!(ant_match("/profiles/*", "/profiles/{username}"));
        assert!(!ant_match("/profiles/*", "/profiles/{username}/follow"));
        assert!(ant_match("/articles/{slug}", "/articles/{id}"));
        assert!(!ant_match("/articles/feed", "/articles/{slug}"));
        assert!(ant_match("/**/*.html", "/vets.html"));
        assert!(ant_match("/users/{id}/edit", "/users/42/edit"));
        assert!(ant_match("/**", "/"));
        assert_eq!(methods("(HttpMethod.POST, \"/users\")"), ["POST"]);
        assert_eq!(methods("(GET, \"/profiles/*\")"), ["GET"]);
        assert!(methods("(\"/GET\")").is_empty());
        assert_eq!(patterns("anyRequest", "()"), None);
        assert_eq!(patterns("requestMatchers", "(HttpMethod.OPTIONS)"), None);
        assert_eq!(patterns("requestMatchers", "(PathRequest.toH2Console())"), Some(vec![]));
        assert_eq!(strings("(HttpMethod.GET, \"/a/**\", \"/b\")"), ["/a/**", "/b"]);
    }
}
