//! The model keys of `.planning/config.json`: `model_profile` and `model_overrides` read
//! strictly (a broken file is reported, never guessed around); gsd-core's `models`,
//! `model_profile_overrides.claude` and `resolve_model_ids` read as gsd-core reads them (a value
//! it would ignore is ignored); `model_profile` changed by a targeted text edit that leaves
//! every other byte of the file as it was.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde_json::Value;

use super::profiles::{self, ModelIds, Overrides, Profile};
use crate::error::{Error, Result};
use crate::json::skip;
use crate::planning::Project;
use crate::planning::config as planning_config;

/// The key `baton profile set` edits.
pub(super) const KEY: &str = "model_profile";

/// What config.json says about models.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ModelSettings {
    /// `model_profile` as written (validated on use), `None` when absent.
    pub profile: Option<String>,
    pub overrides: Overrides,
    /// The file they came from.
    pub path: PathBuf,
}

impl ModelSettings {
    /// The profile in force: the file's, else GSD's default. An unknown name is an error.
    pub fn profile(&self) -> Result<Profile> {
        match &self.profile {
            None => Ok(Profile::DEFAULT),
            Some(name) => Profile::parse(name).map_err(|_| {
                Error::invalid(
                    &self.path,
                    format!(
                        "\"model_profile\": \"{name}\" is not a profile; run `baton profile set \
                         PROFILE` with one of: {}",
                        profiles::profile_names()
                    ),
                )
            }),
        }
    }
}

/// Reads the model settings; a missing file gives the defaults, a broken one an error.
pub fn read(project: &Project) -> Result<ModelSettings> {
    let path = planning_config::path(project);
    let text = match read_text(&path)? {
        Some(text) => text,
        None => {
            return Ok(ModelSettings {
                path,
                ..ModelSettings::default()
            });
        }
    };
    parse(&text)
        .map_err(|problem| Error::contents(&path, problem))
        .map(|mut settings| {
            settings.path = path;
            settings
        })
}

/// Why config.json's model keys cannot be read or `model_profile` cannot be edited.
#[derive(Debug, thiserror::Error)]
pub enum ConfigProblem {
    #[error("not valid JSON ({0}); fix the file by hand")]
    NotJson(#[source] serde_json::Error),
    #[error("must hold a JSON object {{ … }}; fix the file by hand")]
    NotAnObject,
    #[error("\"{KEY}\" must be a string, found {0}")]
    ProfileNotAString(Value),
    #[error(
        "\"model_overrides\".\"{agent}\" must be a model alias (opus, sonnet, haiku, inherit) or a model id, \
         found {model}"
    )]
    OverrideNotAModel { agent: String, model: Value },
    #[error("\"model_overrides\" must be an object {{agent: model}}, found {0}")]
    OverridesNotAnObject(Value),
    #[error("could not locate the top-level object")]
    NoTopLevelObject,
    #[error("editing \"{KEY}\" would change other keys; fix the file by hand")]
    EditWouldChangeOtherKeys,
}

/// Parses the model keys out of config.json text.
pub fn parse(text: &str) -> Result<ModelSettings, ConfigProblem> {
    let value = parse_object(text)?;
    let profile = match value.get(KEY) {
        None | Some(Value::Null) => None,
        Some(Value::String(name)) => Some(name.clone()),
        Some(other) => return Err(ConfigProblem::ProfileNotAString(other.clone())),
    };
    let mut overrides = BTreeMap::new();
    match value.get("model_overrides") {
        None | Some(Value::Null) => {}
        Some(Value::Object(map)) => {
            for (agent, model) in map {
                match model.as_str() {
                    Some(m) if profiles::is_model_value(m) => {
                        overrides.insert(agent.clone(), m.to_owned());
                    }
                    _ => {
                        return Err(ConfigProblem::OverrideNotAModel {
                            agent: agent.clone(),
                            model: model.clone(),
                        });
                    }
                }
            }
        }
        Some(other) => return Err(ConfigProblem::OverridesNotAnObject(other.clone())),
    }
    Ok(ModelSettings {
        profile,
        overrides: Overrides {
            agents: overrides,
            phases: strings(value.get("models")),
            tiers: tier_models(value.get("model_profile_overrides").and_then(|o| o.get("claude"))),
            ids: match value.get("resolve_model_ids") {
                Some(Value::Bool(true)) => ModelIds::Full,
                Some(Value::String(s)) if s == "omit" => ModelIds::Omit,
                _ => ModelIds::Aliases,
            },
        },
        path: PathBuf::new(),
    })
}

/// The string members of an object (`models`: phase type → tier); anything else is none.
fn strings(value: Option<&Value>) -> BTreeMap<String, String> {
    let Some(Value::Object(map)) = value else {
        return BTreeMap::new();
    };
    map.iter()
        .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_owned())))
        .collect()
}

/// `model_profile_overrides.claude`: tier → `"model"` or `{"model": "…"}`; a tier without a
/// usable model is left out, as gsd-core leaves it.
fn tier_models(value: Option<&Value>) -> BTreeMap<String, String> {
    let Some(Value::Object(map)) = value else {
        return BTreeMap::new();
    };
    map.iter()
        .filter_map(|(tier, entry)| {
            let model = entry.as_str().or_else(|| entry.get("model")?.as_str())?;
            (!model.is_empty()).then(|| (tier.clone(), model.to_owned()))
        })
        .collect()
}

/// Sets `model_profile` under the project's lock, keeping everything else in the file;
/// creates the file (and `.planning/`) when missing. Returns the previous value.
pub fn set_profile(project: &Project, profile: Profile) -> Result<Option<String>> {
    let path = planning_config::path(project);
    let _lock = project.lock("config.json")?;
    project.check_writable(&path)?;
    let old = read_text(&path)?;
    let previous = match &old {
        Some(text) => parse(text).map_err(|problem| Error::contents(&path, problem))?.profile,
        None => None,
    };
    let new = match &old {
        Some(text) => with_profile(text, profile.name()).map_err(|problem| Error::contents(&path, problem))?,
        None => format!("{{\n  \"{KEY}\": \"{}\"\n}}\n", profile.name()),
    };
    project.write_file(&path, new.as_bytes())?;
    Ok(previous)
}

/// config.json `text` with `model_profile` set to `name`: the value's bytes replaced when
/// the key exists, else the key inserted first, in the file's own indentation. The result is
/// re-parsed and must equal the old document with only that key changed.
pub fn with_profile(text: &str, name: &str) -> Result<String, ConfigProblem> {
    let before = parse_object(text)?;
    let value = Value::String(name.to_owned()).to_string();
    let object = scan_object(text).ok_or(ConfigProblem::NoTopLevelObject)?;
    let new = match object.members.iter().rev().find(|m| m.key == KEY) {
        Some(member) => splice(text, member.value.0, member.value.1, &value),
        None => match object.members.first() {
            Some(first) => {
                let indent = &text[object.open + 1..first.key_start];
                let colon = &text[first.key_end..first.value.0];
                let entry = format!("\"{KEY}\"{colon}{value},{indent}");
                splice(text, first.key_start, first.key_start, &entry)
            }
            None => {
                let entry = format!("{{\n  \"{KEY}\": {value}\n}}");
                splice(text, object.open, object.close + 1, &entry)
            }
        },
    };
    let mut expected = before;
    expected.insert(KEY.to_owned(), Value::String(name.to_owned()));
    if parse_object(&new)? != expected {
        return Err(ConfigProblem::EditWouldChangeOtherKeys);
    }
    Ok(new)
}

fn splice(text: &str, start: usize, end: usize, with: &str) -> String {
    format!("{}{with}{}", &text[..start], &text[end..])
}

fn read_text(path: &std::path::Path) -> Result<Option<String>> {
    match planning_config::read_bytes(path) {
        Ok(bytes) => String::from_utf8(bytes)
            .map(Some)
            .map_err(|_| Error::invalid(path, "not UTF-8 text; fix or remove the file")),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::io(path, e)),
    }
}

fn parse_object(text: &str) -> Result<serde_json::Map<String, Value>, ConfigProblem> {
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(ConfigProblem::NotAnObject),
        Err(e) => Err(ConfigProblem::NotJson(e)),
    }
}

/// Byte offsets of a top-level object: its braces and each member's key and value.
#[derive(Debug)]
struct ObjectSpan {
    open: usize,
    close: usize,
    members: Vec<Member>,
}

#[derive(Debug)]
struct Member {
    key: String,
    key_start: usize,
    key_end: usize,
    /// `[start, end)` of the value's text.
    value: (usize, usize),
}

/// Scans text already known to be one valid JSON object.
fn scan_object(text: &str) -> Option<ObjectSpan> {
    let bytes = text.as_bytes();
    let mut i = skip::skip_whitespace(bytes, 0);
    (bytes.get(i) == Some(&b'{')).then_some(())?;
    let open = i;
    i += 1;
    let mut members = Vec::new();
    loop {
        i = skip::skip_whitespace(bytes, i);
        match bytes.get(i)? {
            b'}' => {
                return Some(ObjectSpan {
                    open,
                    close: i,
                    members,
                });
            }
            b',' => i += 1,
            b'"' => {
                let key_start = i;
                let key_end = skip::string_end(bytes, i)?;
                let key: String = serde_json::from_str(&text[key_start..key_end]).ok()?;
                i = skip::skip_whitespace(bytes, key_end);
                (bytes.get(i) == Some(&b':')).then_some(())?;
                let value_start = skip::skip_whitespace(bytes, i + 1);
                let value_end = skip::value_end(bytes, value_start)?;
                members.push(Member {
                    key,
                    key_start,
                    key_end,
                    value: (value_start, value_end),
                });
                i = value_end;
            }
            _ => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_only_the_value_bytes() {
        let text = "{\r\n\t\"mode\" : \"yolo\",\r\n\t\"model_profile\" :\"budget\" ,\r\n\t\"hooks\": {\"context_warnings\": false, \"s\": \"}\\\"{\"}\r\n}\r\n";
        let new = with_profile(text, "quality").unwrap();
        assert_eq!(new, text.replace("\"budget\"", "\"quality\""));
    }

    #[test]
    fn inserts_the_key_first_in_the_files_own_style() {
        let pretty = "{\n    \"mode\": \"interactive\",\n    \"depth\": 3\n}\n";
        assert_eq!(
            with_profile(pretty, "budget").unwrap(),
            "{\n    \"model_profile\": \"budget\",\n    \"mode\": \"interactive\",\n    \"depth\": 3\n}\n"
        );
        let compact = "{\"mode\":\"yolo\"}";
        assert_eq!(
            with_profile(compact, "inherit").unwrap(),
            "{\"model_profile\":\"inherit\",\"mode\":\"yolo\"}"
        );
        assert_eq!(
            with_profile("  {  }\n", "adaptive").unwrap(),
            "  {\n  \"model_profile\": \"adaptive\"\n}\n"
        );
    }

    #[test]
    fn edits_the_effective_duplicate_and_refuses_non_objects() {
        let dup = "{\"model_profile\": \"budget\", \"model_profile\": \"quality\"}";
        let new = with_profile(dup, "balanced").unwrap();
        assert_eq!(new, "{\"model_profile\": \"budget\", \"model_profile\": \"balanced\"}");
        assert!(
            with_profile("[1]", "budget")
                .unwrap_err()
                .to_string()
                .contains("JSON object")
        );
        assert!(
            with_profile("{\"a\":", "budget")
                .unwrap_err()
                .to_string()
                .contains("not valid JSON")
        );
    }

    #[test]
    fn parses_profile_and_overrides_strictly() {
        let s = parse(r#"{"model_profile":"budget","model_overrides":{"gsd-executor":"claude-opus-4-5"}}"#).unwrap();
        assert_eq!(s.profile.as_deref(), Some("budget"));
        assert_eq!(s.overrides.agents["gsd-executor"], "claude-opus-4-5");
        assert!(
            parse(r#"{"model_overrides":{"gsd-executor":7}}"#)
                .unwrap_err()
                .to_string()
                .contains("gsd-executor")
        );
        assert!(parse(r#"{"model_profile":3}"#).is_err());
        assert_eq!(parse("{}").unwrap().profile, None);
    }
}
