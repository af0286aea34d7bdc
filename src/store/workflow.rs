//! Workflow steps in the proposal's form (YAML or JSON): `step, name, agent,
//! context_inputs[{source, extract[], as}], context_validation{required[], optional[]},
//! context_transformation[{transform, to, method}]`, and the input payload a step's agent gets:
//! the sources read from the document (references resolved), the extracted keys (looked up in
//! the artifact's `structured_data` too), renamed with `as`, transformed, and checked: every
//! missing required input is listed, missing optional ones are reported.

use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::path::DocPath;
use super::reference;
use super::transform::{self, Outcome, Transformation};
use crate::error::{Error, Result};

/// One step of a workflow.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(default)]
pub struct Step {
    pub step: Value,
    pub name: Option<String>,
    pub agent: Option<String>,
    pub context_inputs: Vec<Input>,
    pub context_validation: Validation,
    pub context_transformation: Vec<Transformation>,
}

/// `{source, extract[], as}`.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(default)]
pub struct Input {
    pub source: String,
    pub extract: Vec<String>,
    #[serde(rename = "as")]
    pub alias: Option<String>,
}

/// `{required[], optional[]}`.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(default)]
pub struct Validation {
    pub required: Vec<String>,
    pub optional: Vec<String>,
}

/// An input that could not be provided, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Missing {
    pub name: String,
    pub reason: String,
}

/// A method the agent must carry out itself.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Instruction {
    pub input: String,
    pub output: String,
    pub method: String,
    pub instruction: String,
}

/// The input payload of a step.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Payload {
    pub step: Value,
    pub name: Option<String>,
    pub agent: Option<String>,
    pub inputs: Map<String, Value>,
    pub missing_required: Vec<Missing>,
    pub missing_optional: Vec<Missing>,
    pub instructions: Vec<Instruction>,
    pub notes: Vec<String>,
}

/// Reads the workflow file and finds step `wanted` (its `step` value, else its position).
pub fn load_step(file: &Path, wanted: &str) -> Result<Step> {
    let text = std::fs::read_to_string(file).map_err(|e| Error::io(file, e))?;
    let is_json = file.extension().is_some_and(|e| e == "json");
    let value: Value = if is_json {
        serde_json::from_str(&text).map_err(|e| Error::invalid(file, format!("not JSON: {e}")))?
    } else {
        serde_norway::from_str(&text).map_err(|e| Error::invalid(file, format!("not YAML: {e}")))?
    };
    let steps = steps_of(&value).ok_or_else(|| {
        Error::invalid(
            file,
            "no steps found: expected a list of steps, or `steps:` (or `workflow: steps:`)",
        )
    })?;
    let labels: Vec<String> = steps.iter().enumerate().map(|(i, s)| label(i, &s["step"])).collect();
    let Some(found) = labels.iter().position(|l| l == wanted).map(|i| &steps[i]) else {
        return Err(Error::Usage(format!(
            "{} has no step {wanted}; its steps are: {}",
            file.display(),
            labels.join(", ")
        )));
    };
    serde_json::from_value(found.clone())
        .map_err(|e| Error::invalid(file, format!("step {wanted} is not in the proposal's form: {e}")))
}

/// How a step is named on the command line: its `step` value, else its position from 1.
fn label(index: usize, step: &Value) -> String {
    match step {
        Value::Null => (index + 1).to_string(),
        Value::String(name) => name.clone(),
        other => other.to_string(),
    }
}

fn steps_of(value: &Value) -> Option<&Vec<Value>> {
    match value {
        Value::Array(steps) => Some(steps),
        Value::Object(map) if map.contains_key("step") => None,
        Value::Object(map) => ["steps", "sequence"]
            .iter()
            .find_map(|k| map.get(*k).and_then(Value::as_array))
            .or_else(|| map.get("workflow").and_then(steps_of)),
        _ => None,
    }
}

/// Builds the payload of `step` from `doc`.
pub fn build(step: &Step, doc: &Value) -> Result<Payload> {
    let mut payload = Payload {
        step: step.step.clone(),
        name: step.name.clone(),
        agent: step.agent.clone(),
        ..Payload::default()
    };
    let mut missing: Vec<Missing> = Vec::new();
    for input in &step.context_inputs {
        gather(input, doc, &mut payload.inputs, &mut missing)?;
    }
    let gathered = payload.inputs.clone();
    for t in &step.context_transformation {
        let source = DocPath::parse(&t.transform)
            .ok()
            .and_then(|p| p.get(&Value::Object(payload.inputs.clone())).ok().cloned());
        let Some(value) = source.filter(|v| !v.is_null()) else {
            payload.notes.push(format!(
                "{} → {} ({}) skipped: {} is not among the inputs",
                t.transform, t.to, t.method, t.transform
            ));
            continue;
        };
        match transform::run(t, &value) {
            Outcome::Value(v) => {
                if t.method == "rename" {
                    payload.inputs.shift_remove(&t.transform);
                }
                payload.inputs.insert(t.to.clone(), v);
            }
            Outcome::ForTheAgent => payload.instructions.push(Instruction {
                input: t.transform.clone(),
                output: t.to.clone(),
                method: t.method.clone(),
                instruction: transform::instruction(t),
            }),
            Outcome::Unfit(why) => payload.notes.push(format!("{} → {}: {why}", t.transform, t.to)),
        }
    }
    let promised: Vec<&str> = payload.instructions.iter().map(|i| i.output.as_str()).collect();
    // Present: gathered from the document, made by a transformation, or promised to the agent.
    let present = |name: &str| {
        promised.contains(&name)
            || [&gathered, &payload.inputs]
                .iter()
                .any(|m| find_input(m, name).is_some_and(|v| !v.is_null()))
    };
    for name in &step.context_validation.required {
        if !present(name) {
            payload.missing_required.push(why_missing(name, &missing));
        }
    }
    for name in &step.context_validation.optional {
        if !present(name) {
            payload.missing_optional.push(why_missing(name, &missing));
        }
    }
    let listed = |name: &str| {
        let v = &step.context_validation;
        v.required.iter().chain(&v.optional).any(|n| n == name)
    };
    for m in missing.into_iter().filter(|m| !listed(&m.name)) {
        payload.missing_optional.push(m);
    }
    Ok(payload)
}

/// Reads one input: its source (references resolved), its extracted keys, under its name.
fn gather(input: &Input, doc: &Value, inputs: &mut Map<String, Value>, missing: &mut Vec<Missing>) -> Result<()> {
    let path = DocPath::parse(&input.source).map_err(|e| {
        Error::because(
            format!("context_inputs source {:?} is not a path", input.source),
            e.reason,
        )
    })?;
    let names: Vec<String> = if input.extract.is_empty() {
        vec![
            input
                .alias
                .clone()
                .or_else(|| path.last().map(str::to_owned))
                .unwrap_or_else(|| "document".into()),
        ]
    } else {
        input.extract.clone()
    };
    let value = match reference::resolve(doc, &path) {
        Ok(v) => v,
        Err(e) => {
            missing.extend(names.into_iter().map(|name| Missing {
                name,
                reason: e.to_string(),
            }));
            return Ok(());
        }
    };
    if input.extract.is_empty() {
        inputs.insert(names[0].clone(), value);
        return Ok(());
    }
    let mut extracted = Map::new();
    for key in &input.extract {
        let key_path = DocPath::parse(key).unwrap_or_default();
        let in_structured = DocPath::root().child("structured_data").join(&key_path);
        let found = key_path.get(&value).or_else(|_| in_structured.get(&value));
        match found {
            Ok(v) => {
                extracted.insert(key_path.last().unwrap_or(key).to_owned(), v.clone());
            }
            Err(_) => missing.push(Missing {
                name: key.clone(),
                reason: format!("{} has no '{key}' (nor its structured_data)", input.source),
            }),
        }
    }
    match &input.alias {
        Some(alias) => {
            inputs.insert(alias.clone(), Value::Object(extracted));
        }
        None => inputs.extend(extracted),
    }
    Ok(())
}

/// An input by name: a key of the payload, or a dotted path into it (`tech.preferences`).
fn find_input(inputs: &Map<String, Value>, name: &str) -> Option<Value> {
    if let Some(v) = inputs.get(name) {
        return Some(v.clone());
    }
    let whole = Value::Object(inputs.clone());
    DocPath::parse(name).ok().and_then(|p| p.get(&whole).ok().cloned())
}

fn why_missing(name: &str, missing: &[Missing]) -> Missing {
    missing
        .iter()
        .find(|m| m.name == name)
        .cloned()
        .unwrap_or_else(|| Missing {
            name: name.to_owned(),
            reason: "no context_input provides it".into(),
        })
}
