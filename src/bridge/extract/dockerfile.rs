//! Dockerfile build stages (`FROM [--platform=…] image [AS name]`) and the variables its
//! `ENV` and `ARG` instructions declare (names only, never values). The format is
//! line-based, so this reads it the way Docker does: the `# escape=` parser directive,
//! continuation lines, comment lines, instructions case-insensitive, `ENV` in both its
//! `KEY=value …` and its old `KEY value` form.

use super::continuation::joined_lines;
use super::push::words;
use super::{Source, is_identifier};
use crate::bridge::facts::{DockerStage, EnvVar, Facts};

/// Extracts the build stages and declared variables of the Dockerfiles among `sources`.
pub fn extract(sources: &[Source<'_>]) -> Facts {
    let mut facts = Facts::default();
    for source in sources.iter().filter(|s| is_dockerfile(s.file_name())) {
        facts
            .docker_stages
            .extend(stages(source.text).into_iter().map(|(base, name)| DockerStage {
                name,
                base,
                file: source.path.to_owned(),
            }));
        facts
            .env_vars
            .extend(variables(source.text).into_iter().map(|(name, kind)| EnvVar {
                name,
                source: kind.into(),
                file: source.path.to_owned(),
            }));
    }
    facts
}

/// `(name, "Dockerfile ENV" | "Dockerfile ARG")` of each variable declared, once each, in order.
fn variables(text: &str) -> Vec<(String, &'static str)> {
    let mut out: Vec<(String, &'static str)> = Vec::new();
    for instruction in instructions(text, escape_char(text)) {
        let Some((keyword, rest)) = instruction.split_once(char::is_whitespace) else {
            continue;
        };
        let kind = match keyword.to_ascii_uppercase().as_str() {
            "ENV" => "Dockerfile ENV",
            "ARG" => "Dockerfile ARG",
            _ => continue,
        };
        let words = words(rest);
        let names: Vec<String> = if kind == "Dockerfile ENV" && !words.first().is_some_and(|w| w.contains('=')) {
            // The old form: `ENV KEY the value`.
            words.into_iter().take(1).collect()
        } else {
            words
                .into_iter()
                .map(|w| w.split_once('=').map_or(w.clone(), |(k, _)| k.to_owned()))
                .collect()
        };
        for name in names.into_iter().filter(|n| is_identifier(n)) {
            if !out.iter().any(|(have, _)| *have == name) {
                out.push((name, kind));
            }
        }
    }
    out
}

/// `Dockerfile`, `Dockerfile.prod`, `api.Dockerfile`, `Containerfile`.
pub fn is_dockerfile(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower == "dockerfile"
        || lower == "containerfile"
        || lower.starts_with("dockerfile.")
        || lower.ends_with(".dockerfile")
}

/// `(base image, stage name)` of each `FROM`, in order.
fn stages(text: &str) -> Vec<(String, Option<String>)> {
    let escape = escape_char(text);
    let mut out = Vec::new();
    for instruction in instructions(text, escape) {
        let mut words = instruction.split_whitespace();
        if !words.next().is_some_and(|w| w.eq_ignore_ascii_case("FROM")) {
            continue;
        }
        let rest: Vec<&str> = words.filter(|w| !w.starts_with("--")).collect();
        let Some(base) = rest.first() else { continue };
        let name = match rest.as_slice() {
            [_, as_word, name, ..] if as_word.eq_ignore_ascii_case("AS") => Some((*name).to_owned()),
            _ => None,
        };
        out.push(((*base).to_owned(), name));
    }
    out
}

/// The escape character from a leading `# escape=` directive (default `\`).
fn escape_char(text: &str) -> char {
    for line in text.lines() {
        let Some(directive) = line.trim().strip_prefix('#') else {
            break;
        };
        let Some((key, value)) = directive.split_once('=') else {
            break;
        };
        if key.trim().eq_ignore_ascii_case("escape") {
            return value.trim().chars().next().unwrap_or('\\');
        }
    }
    '\\'
}

/// Instructions with continuation lines joined and comment lines dropped.
fn instructions(text: &str, escape: char) -> Vec<String> {
    // Docker drops comment and empty lines even inside a continued instruction.
    joined_lines(text, escape, |line, _| line.starts_with('#') || line.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stages_with_platform_flags_continuations_and_escape_directive() {
        let text = "# syntax=docker/dockerfile:1\n\
                    ARG NODE=20\n\
                    FROM --platform=$BUILDPLATFORM node:${NODE}-alpine AS deps\n\
                    RUN npm ci \\\n  # a comment inside\n  --omit=dev\n\
                    from deps as Build\n\
                    FROM \\\n  gcr.io/distroless/nodejs20-debian12\n\
                    COPY --from=build /app /app\n";
        assert_eq!(
            stages(text),
            [
                ("node:${NODE}-alpine".into(), Some("deps".into())),
                ("deps".into(), Some("Build".into())),
                ("gcr.io/distroless/nodejs20-debian12".into(), None),
            ]
        );
        let windows = "# escape=`\nFROM mcr.microsoft.com/windows/servercore:ltsc2022 `\n  AS base\n";
        assert_eq!(
            stages(windows),
            [(
                "mcr.microsoft.com/windows/servercore:ltsc2022".into(),
                Some("base".into())
            )]
        );
    }

    #[test]
    fn env_and_arg_names_in_both_forms_without_values() {
        let text = "ARG NODE_VERSION=20\nFROM node:${NODE_VERSION}\nARG BUILD_SHA\n\
                    ENV NODE_ENV=production \\\n    PORT=\"8080\" LABEL='a b'\n\
                    env LEGACY_KEY some old value\n# ENV COMMENTED=1\nRUN echo $PORT\n";
        assert_eq!(
            variables(text),
            [
                ("NODE_VERSION".to_owned(), "Dockerfile ARG"),
                ("BUILD_SHA".to_owned(), "Dockerfile ARG"),
                ("NODE_ENV".to_owned(), "Dockerfile ENV"),
                ("PORT".to_owned(), "Dockerfile ENV"),
                ("LABEL".to_owned(), "Dockerfile ENV"),
                ("LEGACY_KEY".to_owned(), "Dockerfile ENV"),
            ]
        );
    }

    #[test]
    fn dockerfile_names() {
        for name in ["Dockerfile", "Dockerfile.prod", "api.Dockerfile", "Containerfile"] {
            assert!(is_dockerfile(name), "{name}");
        }
        assert!(!is_dockerfile("docker-compose.yml"));
    }
}
