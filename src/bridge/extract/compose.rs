//! Docker Compose files (`docker-compose*.yml`, `compose*.yaml`, `podman-compose.yml`) read
//! with serde_norway: the variables each service's `environment:` sets (a mapping, or a list
//! of `KEY=value` and `KEY`), and the variables the file reads from the host by
//! interpolation (`${VAR}`, `${VAR:-default}`, `${VAR:?error}`, `$VAR`; `$$` is a literal
//! `$`). Names only, never values.

use std::sync::LazyLock;

use regex::Regex;
use serde_norway::Value;

use super::{Source, is_identifier as is_name, per_file, yaml};
use crate::bridge::facts::{EnvVar, Facts, push_once};

/// Extracts the env vars of the Compose files among `sources`.
pub fn extract(sources: &[Source<'_>]) -> Facts {
    per_file(sources, |source| {
        if is_compose(source.file_name()) {
            file(source)
        } else {
            Facts::default()
        }
    })
}

/// `docker-compose.yml`, `docker-compose.prod.yaml`, `compose.yaml`, `compose.override.yml`.
pub fn is_compose(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    ["docker-compose", "podman-compose", "compose.", "compose-"]
        .iter()
        .any(|p| lower.starts_with(p))
        && (lower.ends_with(".yml") || lower.ends_with(".yaml"))
}

fn file(source: &Source<'_>) -> Facts {
    let doc = match yaml(source) {
        Ok(doc) => doc,
        Err(unparsed) => return *unparsed,
    };
    let mut facts = Facts::default();
    let mut add = |name: String, kind: &str| {
        if !facts.env_vars.iter().any(|have| have.name == name) {
            let (source, file) = (kind.to_owned(), source.path.to_owned());
            facts.env_vars.push(EnvVar { name, source, file });
        }
    };
    if let Some(Value::Mapping(services)) = doc.get("services") {
        for service in services.values() {
            match service.get("environment") {
                Some(Value::Mapping(map)) => {
                    for key in map.keys().filter_map(Value::as_str) {
                        add(key.to_owned(), "compose environment");
                    }
                }
                Some(Value::Sequence(items)) => {
                    for item in items.iter().filter_map(Value::as_str) {
                        let key = item.split_once('=').map_or(item, |(k, _)| k).trim();
                        if is_name(key) {
                            add(key.to_owned(), "compose environment");
                        }
                    }
                }
                _ => {}
            }
        }
    }
    let mut strings = Vec::new();
    collect_strings(&doc, &mut strings, 0);
    for text in strings {
        for name in interpolated(text) {
            add(name, "compose ${}");
        }
    }
    facts
}

/// Every string value in the document (keys too: a service's name may be interpolated).
fn collect_strings<'v>(value: &'v Value, out: &mut Vec<&'v str>, depth: usize) {
    if depth > 64 {
        return;
    }
    match value {
        Value::String(s) => out.push(s),
        Value::Sequence(items) => items.iter().for_each(|i| collect_strings(i, out, depth + 1)),
        Value::Mapping(map) => {
            for (k, v) in map {
                collect_strings(k, out, depth + 1);
                collect_strings(v, out, depth + 1);
            }
        }
        Value::Tagged(tagged) => collect_strings(&tagged.value, out, depth + 1),
        _ => {}
    }
}

/// `$$` (a literal `$`), or `$` and the name after it, braced or not.
static INTERPOLATION: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\$(?:\$|\{?([[:word:]]*))").expect("the interpolation pattern compiles"));

/// The variables `text` interpolates, in order.
pub fn interpolated(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for name in INTERPOLATION.captures_iter(text).filter_map(|c| c.get(1)) {
        if is_name(name.as_str()) {
            push_once(&mut out, name.as_str().to_owned());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn environment_blocks_and_interpolations() {
        let yaml = "services:\n  db:\n    image: postgres:${POSTGRES_VERSION:-16}\n    environment:\n      \
                    POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:?set it}\n      POSTGRES_USER: app\n  \
                    backend:\n    image: '${DOCKER_IMAGE_BACKEND}:${TAG-latest}'\n    environment:\n      \
                    - DOMAIN=${DOMAIN}\n      - SECRET_KEY\n      - PRICE=$$5\n    command: echo $HOME\n";
        let facts = extract(&[Source {
            path: "compose.yml",
            text: yaml,
        }]);
        let got: Vec<(&str, &str)> = facts
            .env_vars
            .iter()
            .map(|e| (e.name.as_str(), e.source.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                ("POSTGRES_PASSWORD", "compose environment"),
                ("POSTGRES_USER", "compose environment"),
                ("DOMAIN", "compose environment"),
                ("SECRET_KEY", "compose environment"),
                ("PRICE", "compose environment"),
                ("POSTGRES_VERSION", "compose ${}"),
                ("DOCKER_IMAGE_BACKEND", "compose ${}"),
                ("TAG", "compose ${}"),
                ("HOME", "compose ${}"),
            ]
        );
        assert!(!serde_json::to_string(&facts).unwrap().contains("set it"));
    }

    #[test]
    fn compose_names() {
        for name in [
            "docker-compose.yml",
            "docker-compose.override.yaml",
            "compose.yaml",
            "compose.prod.yml",
        ] {
            assert!(is_compose(name), "{name}");
        }
        for name in ["composer.json", "composer.yml", "docker-compose.md", "ci.yml"] {
            assert!(!is_compose(name), "{name}");
        }
    }
}
