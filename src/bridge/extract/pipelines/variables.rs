//! The variables a pipeline file gives a literal value (env blocks, GitLab and Azure
//! variables), and references to them resolved: `$NAME`, `${NAME}`, GitHub's
//! `${{ env.NAME }}` and Azure's `$(NAME)`.

use std::sync::LazyLock;

use regex::{Captures, Regex};
use serde_norway::Value;

use super::{entries, untagged};

/// Variables with a literal value, in one scope.
pub type Values = Vec<(String, String)>;

/// The names an env or variables block sets, each with its literal value if it has one: a
/// mapping (GitLab's `{value: …}` form too), or Azure's list of `{name, value}` (groups and
/// templates, which have no name, skipped).
pub fn variables(block: Option<&Value>) -> Vec<(String, Option<String>)> {
    let literal = |value: &Value| scalar(value).or_else(|| value.get("value").and_then(scalar));
    match block.map(untagged) {
        Some(Value::Sequence(items)) => items
            .iter()
            .filter_map(|item| {
                Some((
                    item.get("name")?.as_str()?.to_owned(),
                    item.get("value").and_then(literal),
                ))
            })
            .collect(),
        _ => entries(block)
            .into_iter()
            .map(|(name, value)| (name, literal(value)))
            .collect(),
    }
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

/// A reference to a variable, its name in the group of its form. An unfinished one runs to the
/// end of the text; the forms that name no plain variable are matched whole, to be kept.
static REFERENCE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?xs) \$ (?:
            \{\{ \s* (?: env\.([[:word:]]+) \s* (?:\}\}|\z) | .*? (?:\}\}|\z) )  # GitHub's ${{ env.NAME }}
          | \{ (?: ([[:word:]]+) (?:\}|\z) | [^}]* \}? )                         # ${NAME}, ${NAME:-x}
          | \( (?: ([[:word:]]+) (?:\)|\z) | [^)]* \)? )                         # Azure's $(NAME)
          | ([[:word:]]*)                                                        # $NAME
        )",
    )
    .expect("the reference pattern compiles")
});

fn substitute(text: &str, lookup: &impl Fn(&str) -> Option<String>) -> String {
    let replace = |reference: &Captures<'_>| {
        let name = (1..=4).find_map(|i| reference.get(i)).map(|m| m.as_str());
        name.filter(|n| !n.is_empty())
            .and_then(lookup)
            .unwrap_or_else(|| reference[0].to_owned())
    };
    REFERENCE.replace_all(text, replace).into_owned()
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
