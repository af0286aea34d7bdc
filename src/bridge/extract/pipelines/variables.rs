//! The variables a pipeline file gives a literal value (env blocks, GitLab and Azure
//! variables), and references to them resolved: `$NAME`, `${NAME}`, GitHub's
//! `${{ env.NAME }}` and Azure's `$(NAME)`.

use serde_norway::Value;

use super::{entries, untagged};

/// Variables with a literal value, in one scope.
pub type Values = Vec<(String, String)>;

/// The literal values of an env or variables block (GitLab's `{value: …}` form too).
pub fn values(block: Option<&Value>) -> Values {
    entries(block)
        .into_iter()
        .filter_map(|(k, v)| Some((k, scalar(v).or_else(|| v.get("value").and_then(scalar))?)))
        .collect()
}

pub fn scalar(value: &Value) -> Option<String> {
    match untagged(value) {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// `text` with the variables `scopes` give a value (innermost first) replaced by it:
/// `$NAME`, `${NAME}`, GitHub's `${{ env.NAME }}`, Azure's `$(NAME)`. Values that name
/// variables are resolved in turn, a few levels deep; unknown variables stay as written.
pub fn resolve(text: &str, scopes: &[&Values]) -> String {
    let lookup = |name: &str| {
        scopes
            .iter()
            .find_map(|s| s.iter().find(|(k, _)| k == name))
            .map(|(_, v)| v.clone())
    };
    let mut current = text.to_owned();
    for _ in 0..4 {
        let next = substitute(&current, &lookup);
        if next == current {
            break;
        }
        current = next;
    }
    current
}

fn substitute(text: &str, lookup: &impl Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let identifier_end = |s: &str| {
            s.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(s.len())
        };
        let (name, consumed) = if let Some(inner) = after.strip_prefix("{{") {
            let end = inner.find("}}").unwrap_or(inner.len());
            let expression = inner[..end].trim();
            let name = expression.strip_prefix("env.").filter(|n| identifier_end(n) == n.len());
            (name.map(str::to_owned), 1 + 2 + (end + 2).min(inner.len()))
        } else if let Some(inner) = after.strip_prefix('{') {
            let end = inner.find('}').unwrap_or(inner.len());
            let name = &inner[..identifier_end(inner).min(end)];
            let plain = name.len() == end;
            (plain.then(|| name.to_owned()), 1 + 1 + (end + 1).min(inner.len()))
        } else if let Some(inner) = after.strip_prefix('(') {
            let end = inner.find(')').unwrap_or(inner.len());
            let name = &inner[..end];
            let plain = identifier_end(name) == name.len();
            (plain.then(|| name.to_owned()), 1 + 1 + (end + 1).min(inner.len()))
        } else {
            let end = identifier_end(after);
            (Some(after[..end].to_owned()), 1 + end)
        };
        let consumed = consumed.min(rest.len() - at);
        match name.filter(|n| !n.is_empty()).and_then(|n| lookup(&n)) {
            Some(value) => out.push_str(&value),
            None => out.push_str(&rest[at..at + consumed]),
        }
        rest = &rest[at + consumed..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_resolve_from_the_innermost_scope_and_unknown_ones_stay() {
        let step: Values = vec![("TAG".into(), "${{ github.sha }}".into())];
        let job: Values = vec![
            ("IMAGE".into(), "$REGISTRY/acme/api".into()),
            ("TAG".into(), "job".into()),
        ];
        let workflow: Values = vec![("REGISTRY".into(), "ghcr.io".into())];
        let scopes = [&step, &job, &workflow];
        assert_eq!(resolve("$IMAGE:$TAG", &scopes), "ghcr.io/acme/api:${{ github.sha }}");
        assert_eq!(resolve("${{ env.IMAGE }}:latest", &scopes), "ghcr.io/acme/api:latest");
        assert_eq!(
            resolve("${IMAGE}-$(IMAGE)", &scopes),
            "ghcr.io/acme/api-ghcr.io/acme/api"
        );
        assert_eq!(
            resolve("$CI_REGISTRY_IMAGE:${VAR:-x} $IMAGE_X $", &scopes),
            "$CI_REGISTRY_IMAGE:${VAR:-x} $IMAGE_X $"
        );
        let looping: Values = vec![("A".into(), "$A$A".into())];
        assert!(resolve("$A", &[&looping]).len() < 100);
    }
}
