//! Spring Boot's configuration files (`application.yml`, `application-prod.yaml`,
//! `application.properties`, `bootstrap.yml`): the environment variables their values read
//! through `${VAR}`/`${VAR:default}` placeholders. YAML is read with serde_norway (every
//! document of the file, comments and keys left out); properties files line by line
//! (`#`/`!` comments, `key=value`, `key: value`, `key value`, `\` continuations). Names only,
//! never values.

use serde_norway::Value;

use super::placeholders::env_names;
use crate::bridge::facts::{EnvVar, Facts};
use crate::bridge::parallel::per_file;
use crate::bridge::source::Source;

/// Largest configuration file read (Spring's are a few KB); flow collections past
/// [`MAX_FLOWS`] make the YAML scanner slow, so such files are read line by line instead.
const MAX_BYTES: usize = 512 * 1024;
const MAX_FLOWS: usize = 256;

/// The env vars the Spring configuration files among `sources` read.
pub fn extract(sources: &[Source<'_>]) -> Facts {
    per_file(sources, |source| match Format::of(source.file_name()) {
        Some(_) if source.text.len() > MAX_BYTES => Facts {
            unparsed: vec![format!(
                "{}: more than {MAX_BYTES} bytes, not read as Spring configuration",
                source.path
            )],
            ..Facts::default()
        },
        Some(format) => file(source, format),
        None => Facts::default(),
    })
}

#[derive(Clone, Copy)]
enum Format {
    Yaml,
    Properties,
}

impl Format {
    /// `application.yml`, `application-dev.yaml`, `bootstrap.properties`, …
    fn of(name: &str) -> Option<Format> {
        let (stem, ext) = name.rsplit_once('.')?;
        let spring = ["application", "bootstrap"]
            .iter()
            .any(|base| stem == *base || stem.strip_prefix(base).is_some_and(|rest| rest.starts_with('-')));
        match ext {
            "yml" | "yaml" if spring => Some(Format::Yaml),
            "properties" if spring => Some(Format::Properties),
            _ => None,
        }
    }
}

fn file(source: &Source<'_>, format: Format) -> Facts {
    let values = match format {
        Format::Yaml => yaml_values(source.text).unwrap_or_else(|| property_values(source.text)),
        Format::Properties => property_values(source.text),
    };
    let mut env_vars: Vec<EnvVar> = Vec::new();
    for name in values.iter().flat_map(|value| env_names(value)) {
        if !env_vars.iter().any(|have| have.name == name) {
            env_vars.push(EnvVar {
                name,
                source: "spring config".into(),
                file: source.path.to_owned(),
            });
        }
    }
    Facts {
        env_vars,
        ..Facts::default()
    }
}

/// Every string value of every document; `None` if the text is not YAML the parser reads
/// quickly (then the caller reads it line by line).
fn yaml_values(text: &str) -> Option<Vec<String>> {
    if text.bytes().filter(|b| matches!(b, b'[' | b'{')).count() > MAX_FLOWS {
        return None;
    }
    let mut values = Vec::new();
    for document in serde_norway::Deserializer::from_str(text) {
        let value: Value = serde::Deserialize::deserialize(document).ok()?;
        strings(&value, &mut values, 0);
    }
    Some(values)
}

fn strings(value: &Value, out: &mut Vec<String>, depth: usize) {
    if depth > 64 {
        return;
    }
    match value {
        Value::String(text) => out.push(text.clone()),
        Value::Sequence(items) => items.iter().for_each(|item| strings(item, out, depth + 1)),
        Value::Mapping(map) => map.values().for_each(|item| strings(item, out, depth + 1)),
        Value::Tagged(tagged) => strings(&tagged.value, out, depth + 1),
        _ => {}
    }
}

/// The values of a properties file (or of YAML the parser refused, comments left out).
fn property_values(text: &str) -> Vec<String> {
    let mut values = Vec::new();
    let mut logical = String::new();
    for line in text.lines() {
        let line = line.trim_start();
        if logical.is_empty() && (line.starts_with('#') || line.starts_with('!')) {
            continue;
        }
        match line.strip_suffix('\\') {
            Some(part) => logical.push_str(part),
            None => {
                logical.push_str(line);
                let value = logical.find(['=', ':', ' ', '\t']).map_or("", |at| &logical[at + 1..]);
                values.push(value.to_owned());
                logical.clear();
            }
        }
    }
    values
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(path: &str, text: &str) -> Vec<String> {
        extract(&[Source { path, text }])
            .env_vars
            .into_iter()
            .map(|env| env.name)
            .collect()
    }

    #[test]
    fn yaml_values_of_every_document_but_not_comments() {
        let yaml = "spring:\n  datasource:\n    url: ${DATABASE_URL}\n    username: ${DB_USER:sa}\n\
                    # password: ${OLD_PASSWORD}\n    password: \"${DB_PASSWORD:}\"\nserver:\n  port: ${PORT:${SERVER_PORT:8080}}\n\
                    ---\nspring.config.activate.on-profile: prod\napp:\n  hosts: [\"${REDIS_HOST}\", x]\n  name: ${app.title}\n";
        assert_eq!(
            names("src/main/resources/application.yml", yaml),
            [
                "DATABASE_URL",
                "DB_USER",
                "DB_PASSWORD",
                "PORT",
                "SERVER_PORT",
                "REDIS_HOST"
            ]
        );
    }

    #[test]
    fn properties_lines_with_continuations_and_comments() {
        let properties = "# ${NOT_READ}\nspring.datasource.url=${MYSQL_URL:jdbc:mysql://localhost/petclinic}\n\
                          spring.datasource.username: ${MYSQL_USER:petclinic}\nkey ${SPACED}\nlist=a,\\\n  ${CONTINUED}\n! ${BANG}\n";
        assert_eq!(
            names("src/main/resources/application-mysql.properties", properties),
            ["MYSQL_URL", "MYSQL_USER", "SPACED", "CONTINUED"]
        );
    }

    #[test]
    fn aliases_that_expand_a_thousandfold_are_no_hang() {
        let mut yaml = String::from("a: &a [\"${A}\", \"${A}\", \"${A}\", \"${A}\", \"${A}\"]\n");
        for (name, previous) in ["b", "c", "d", "e", "f", "g", "h", "i"]
            .iter()
            .zip(["a", "b", "c", "d", "e", "f", "g", "h"])
        {
            yaml.push_str(&format!(
                "{name}: &{name} [*{previous}, *{previous}, *{previous}, *{previous}, *{previous}]\n"
            ));
        }
        let started = std::time::Instant::now();
        assert_eq!(names("application.yml", &yaml), ["A"]);
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
    }

    #[test]
    fn only_spring_configuration_files() {
        assert!(names("config/settings.yml", "a: ${X}").is_empty());
        assert!(names("src/main/resources/applications.yml", "a: ${X}").is_empty());
        assert_eq!(names("bootstrap-dev.yaml", "a: ${X}"), ["X"]);
        // Not YAML the parser reads: read line by line.
        assert_eq!(names("application.yml", "a: [${X}\nb: ${Y}"), ["X", "Y"]);
    }
}
