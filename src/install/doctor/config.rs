//! The doctor's look at baton's own config files: the hooks and the statusline read them
//! leniently (a file that is not JSON, an unknown key or a value of the wrong type is skipped
//! and the default used, so the line is never blank), which leaves a typo silent. This says
//! which keys and values baton skipped, by comparing the file with what baton read of it.

use std::path::Path;

use serde_json::Value;

use super::Check;
use crate::config::{self, ALL_SEGMENTS, ConfigFile, KEYS_READ_ELSEWHERE, MAX_CONFIG_BYTES};

/// A check for each config file there is: the user's, and the project's when there is one.
pub fn checks(project: Option<&Path>) -> Vec<Check> {
    let paths = config::user_config_path()
        .into_iter()
        .chain(project.map(config::project_config_path));
    paths.filter(|p| p.exists()).map(|path| check_file(&path)).collect()
}

fn check_file(path: &Path) -> Check {
    let shown = path.display();
    let bytes = match crate::fsx::read_regular(path, MAX_CONFIG_BYTES) {
        Ok(bytes) => bytes,
        Err(e) => {
            return Check::fail(
                format!("baton cannot read its config {shown} ({e}) and uses its defaults"),
                "make it a regular file under 1 MiB that you can read",
            );
        }
    };
    let written: Value = match serde_json::from_slice(&bytes) {
        Ok(value) => value,
        Err(e) => {
            return Check::fail(
                format!("baton's config {shown} is not JSON ({e}), so all of it is ignored"),
                "fix the JSON (the guide's docs/configuration.md shows every key)",
            );
        }
    };
    let understood = serde_json::from_value::<ConfigFile>(written.clone())
        .ok()
        .and_then(|read| serde_json::to_value(read).ok())
        .unwrap_or(Value::Null);
    let mut skipped = Vec::new();
    if written.is_object() {
        compare(&written, &understood, "", &mut skipped);
    } else {
        skipped.push("the whole file (not a JSON object)".to_owned());
    }
    if skipped.is_empty() {
        return Check::pass(format!("baton's config {shown} reads cleanly"));
    }
    let names: Vec<String> = ALL_SEGMENTS
        .iter()
        .filter_map(|s| serde_json::to_value(s).ok()?.as_str().map(str::to_owned))
        .collect();
    Check::fail(
        format!(
            "baton's config {shown}: ignored (its default used) {}",
            skipped.join("; ")
        ),
        format!(
            "fix the spelling or the type (the guide's docs/configuration.md); the segments are {}",
            names.join(", ")
        ),
    )
}

/// Adds to `skipped` each part of `written` (at `path`) that `understood` lacks or holds
/// otherwise: an unknown or misspelt key, a value of the wrong type, a name in a list that
/// is not one baton knows.
fn compare(written: &Value, understood: &Value, path: &str, skipped: &mut Vec<String>) {
    let at = |key: &str| {
        if path.is_empty() {
            key.to_owned()
        } else {
            format!("{path}.{key}")
        }
    };
    match (written, understood) {
        (Value::Object(fields), Value::Object(read)) => {
            for (key, value) in fields {
                if path.is_empty() && KEYS_READ_ELSEWHERE.contains(&key.as_str()) {
                    continue;
                }
                match read.get(key) {
                    None | Some(Value::Null) if !value.is_null() => {
                        skipped.push(format!("`{}`: {}", at(key), brief(value)));
                    }
                    Some(read) => compare(value, read, &at(key), skipped),
                    None => {}
                }
            }
        }
        (Value::Array(items), Value::Array(read)) => {
            for (i, item) in items.iter().enumerate() {
                if !read.contains(item) {
                    skipped.push(format!("`{path}[{i}]`: {}", brief(item)));
                }
            }
        }
        _ if written == understood => {}
        _ => skipped.push(format!("`{path}`: {}", brief(written))),
    }
}

/// A value as JSON, cut to a readable length.
fn brief(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(40) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skipped(json: &str) -> Vec<String> {
        let written: Value = serde_json::from_str(json).unwrap();
        let understood = serde_json::to_value(serde_json::from_value::<ConfigFile>(written.clone()).unwrap()).unwrap();
        let mut out = Vec::new();
        compare(&written, &understood, "", &mut out);
        out
    }

    #[test]
    fn names_what_baton_skips_and_nothing_it_reads() {
        let clean = r#"{"monitor": {"warning_remaining": 40, "enabled": true},
            "statusline": {"percent": "raw", "segments": ["cost", "context", "cost"], "forecast": false},
            "context_window_size": 200000, "auto_compact_window": null, "auto_compact": true,
            "bridge": {"finding_prefixes": ["SEC"]}, "prices": {"m": {"input": 3}}}"#;
        assert_eq!(skipped(clean), Vec::<String>::new());
        let typos = r#"{"statusline": {"segments": ["cost", "costs", 7], "percent": "Raw", "forcast": false},
            "monitor": {"warning_remaining": 35.5}, "context_window_size": "200k"}"#;
        assert_eq!(
            skipped(typos),
            [
                "`statusline.segments[1]`: \"costs\"",
                "`statusline.segments[2]`: 7",
                "`statusline.percent`: \"Raw\"",
                "`statusline.forcast`: false",
                "`monitor.warning_remaining`: 35.5",
                "`context_window_size`: \"200k\"",
            ]
        );
        assert_eq!(
            skipped(r#"{"statusline": {"segments": "all"}}"#),
            ["`statusline.segments`: \"all\""]
        );
    }
}
