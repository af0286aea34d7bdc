//! A workflow step's `context_transformation`: `{transform: NAME, to: NEW, method: M, …}`.
//! The deterministic methods run here; any other method (`expand_with_demographics`) is not
//! pretended: it becomes an explicit instruction to the agent, next to the data. Extra keys of
//! a transformation are the method's parameters (`fields` for pick, `separator` for join).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The methods baton runs itself.
pub const METHODS: &[&str] = &[
    "rename",
    "copy",
    "pick",
    "flatten",
    "join",
    "split",
    "count",
    "unique",
    "sort",
    "keys",
    "values",
    "first",
    "last",
    "lowercase",
    "uppercase",
];

/// One transformation as a workflow file writes it.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
pub struct Transformation {
    pub transform: String,
    pub to: String,
    pub method: String,
    #[serde(flatten)]
    pub params: Map<String, Value>,
}

/// What running a method gave.
#[derive(Debug, PartialEq)]
pub enum Outcome {
    /// The new value.
    Value(Value),
    /// Not a method baton runs: the agent must do it.
    ForTheAgent,
    /// The method cannot apply to this value (why).
    Unfit(String),
}

/// Runs `t.method` on `input`.
pub fn run(t: &Transformation, input: &Value) -> Outcome {
    let strings = |items: &[Value]| -> Vec<String> { items.iter().map(text_of).collect() };
    let separator = t.params.get("separator").and_then(Value::as_str).unwrap_or(", ");
    let unfit = |what: &str| {
        Outcome::Unfit(format!(
            "{} needs {what}, got {}",
            t.method,
            super::path::describe(input)
        ))
    };
    let value = match (t.method.as_str(), input) {
        ("rename" | "copy", v) => v.clone(),
        ("pick", v) => {
            let Some(fields) = t.params.get("fields").and_then(Value::as_array) else {
                return Outcome::Unfit("pick needs `fields: [...]` naming the keys to keep".into());
            };
            let fields: Vec<&str> = fields.iter().filter_map(Value::as_str).collect();
            match v {
                Value::Object(map) => pick(map, &fields),
                Value::Array(items) => Value::Array(
                    items
                        .iter()
                        .map(|i| i.as_object().map_or(i.clone(), |m| pick(m, &fields)))
                        .collect(),
                ),
                _ => return unfit("an object or a list of objects"),
            }
        }
        ("flatten", Value::Array(items)) => Value::Array(flatten(items)),
        ("flatten", Value::Object(map)) => Value::Array(flatten(&map.values().cloned().collect::<Vec<_>>())),
        ("join", Value::Array(items)) => Value::String(strings(items).join(separator)),
        ("split", Value::String(s)) => {
            Value::Array(s.split(separator).map(|p| Value::String(p.trim().to_owned())).collect())
        }
        ("count", Value::Array(items)) => Value::from(items.len()),
        ("count", Value::Object(map)) => Value::from(map.len()),
        ("count", Value::String(s)) => Value::from(s.chars().count()),
        ("unique", Value::Array(items)) => {
            let mut seen: Vec<&Value> = Vec::new();
            items
                .iter()
                .filter(|i| {
                    !seen.contains(i) && {
                        seen.push(i);
                        true
                    }
                })
                .cloned()
                .collect()
        }
        ("sort", Value::Array(items)) => {
            let mut sorted = items.clone();
            sorted.sort_by(|a, b| match (a.as_f64(), b.as_f64()) {
                (Some(x), Some(y)) => x.total_cmp(&y),
                _ => text_of(a).cmp(&text_of(b)),
            });
            Value::Array(sorted)
        }
        ("keys", Value::Object(map)) => map.keys().cloned().map(Value::String).collect(),
        ("values", Value::Object(map)) => Value::Array(map.values().cloned().collect()),
        ("first", Value::Array(items)) => items.first().cloned().unwrap_or(Value::Null),
        ("last", Value::Array(items)) => items.last().cloned().unwrap_or(Value::Null),
        ("lowercase" | "uppercase", v) => match change_case(v, t.method == "uppercase") {
            Some(v) => v,
            None => return unfit("a string or a list of strings"),
        },
        (method, _) if METHODS.contains(&method) => {
            return unfit(match method {
                "join" | "count" | "unique" | "sort" | "first" | "last" | "flatten" => "a list",
                "split" => "a string",
                _ => "an object",
            });
        }
        _ => return Outcome::ForTheAgent,
    };
    Outcome::Value(value)
}

/// The instruction given to the agent for a method baton does not run.
pub fn instruction(t: &Transformation) -> String {
    let params = if t.params.is_empty() {
        String::new()
    } else {
        format!(" (parameters: {})", Value::Object(t.params.clone()))
    };
    format!(
        "Derive `{}` from `{}` by \"{}\"{params}. baton does not run this method: do it yourself from the data above.",
        t.to, t.transform, t.method
    )
}

fn pick(map: &Map<String, Value>, fields: &[&str]) -> Value {
    let kept = map.iter().filter(|(k, _)| fields.contains(&k.as_str()));
    Value::Object(kept.map(|(k, v)| (k.clone(), v.clone())).collect())
}

fn flatten(items: &[Value]) -> Vec<Value> {
    let mut out = Vec::new();
    for item in items {
        match item {
            Value::Array(inner) => out.extend(flatten(inner)),
            other => out.push(other.clone()),
        }
    }
    out
}

fn change_case(value: &Value, upper: bool) -> Option<Value> {
    match value {
        Value::String(s) => Some(Value::String(if upper { s.to_uppercase() } else { s.to_lowercase() })),
        Value::Array(items) => items
            .iter()
            .map(|i| change_case(i, upper))
            .collect::<Option<Vec<_>>>()
            .map(Value::Array),
        _ => None,
    }
}

/// A value as text: strings bare, anything else as JSON.
fn text_of(value: &Value) -> String {
    value.as_str().map_or_else(|| value.to_string(), str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn t(method: &str, params: Value) -> Transformation {
        Transformation {
            transform: "in".into(),
            to: "out".into(),
            method: method.into(),
            params: params.as_object().cloned().unwrap_or_default(),
        }
    }

    #[test]
    fn deterministic_methods_run() {
        let users = json!(["team_leads", "team_members", "team_leads"]);
        assert_eq!(run(&t("count", json!({})), &users), Outcome::Value(json!(3)));
        assert_eq!(
            run(&t("unique", json!({})), &users),
            Outcome::Value(json!(["team_leads", "team_members"]))
        );
        assert_eq!(
            run(&t("join", json!({"separator": " | "})), &users),
            Outcome::Value(json!("team_leads | team_members | team_leads"))
        );
        assert_eq!(
            run(&t("flatten", json!({})), &json!([[1, [2]], 3])),
            Outcome::Value(json!([1, 2, 3]))
        );
        assert_eq!(
            run(&t("pick", json!({"fields": ["a"]})), &json!([{"a": 1, "b": 2}])),
            Outcome::Value(json!([{"a": 1}]))
        );
        assert_eq!(
            run(&t("sort", json!({})), &json!([10, 9, 100])),
            Outcome::Value(json!([9, 10, 100]))
        );
        assert_eq!(
            run(&t("uppercase", json!({})), &json!(["a"])),
            Outcome::Value(json!(["A"]))
        );
        assert_eq!(
            run(&t("split", json!({"separator": ","})), &json!("a, b")),
            Outcome::Value(json!(["a", "b"]))
        );
    }

    #[test]
    fn other_methods_go_to_the_agent_and_misfits_are_named() {
        let method = t("expand_with_demographics", json!({}));
        assert_eq!(run(&method, &json!(["x"])), Outcome::ForTheAgent);
        assert!(instruction(&method).contains("Derive `out` from `in` by \"expand_with_demographics\""));
        let Outcome::Unfit(why) = run(&t("join", json!({})), &json!({"a": 1})) else {
            panic!("join of an object must not run");
        };
        assert_eq!(why, "join needs a list, got an object");
        assert!(matches!(run(&t("pick", json!({})), &json!({})), Outcome::Unfit(_)));
    }
}
