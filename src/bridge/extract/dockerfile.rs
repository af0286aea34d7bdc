//! Dockerfile build stages (`FROM [--platform=…] image [AS name]`). The format is
//! line-based, so this reads it the way Docker does: the `# escape=` parser directive,
//! continuation lines, comment lines, instructions case-insensitive.

use super::Source;
use super::continuation::joined_lines;
use crate::bridge::facts::{DockerStage, Facts};

/// Extracts the build stages of the Dockerfiles among `sources`.
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
    }
    facts
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
    fn dockerfile_names() {
        for name in ["Dockerfile", "Dockerfile.prod", "api.Dockerfile", "Containerfile"] {
            assert!(is_dockerfile(name), "{name}");
        }
        assert!(!is_dockerfile("docker-compose.yml"));
    }
}
