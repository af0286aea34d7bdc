//! What `baton ctx` prints for people: the document's summary, the log, a diff, a step's
//! input payload, a validation report, a compaction.

use serde_json::{Value, json};

use crate::error::{Error, Result};
use crate::store::compact::Compacted;
use crate::store::journal::Entry;
use crate::store::ops::Op;
use crate::store::path::DocPath;
use crate::store::validate::Report;
use crate::store::workflow::Payload;
use crate::store::{Store, Versioned};

/// Longest value shown on one line.
const SHOWN_CHARS: usize = 120;

/// `show`: project, step, version, the agents with their status, inputs and outputs.
pub fn summary(store: &Store, current: &Versioned) -> Result<String> {
    let doc = &current.doc;
    let text_of = |key: &str| match &doc[key] {
        Value::Null => "-".to_owned(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let mut out = format!(
        "Context store {} — version {} (context_version {})\n",
        store.document.display(),
        current.version,
        doc["context_version"]
    );
    out.push_str(&format!(
        "Project {} · workflow {} · step {} · session {}\n",
        text_of("project_name"),
        text_of("workflow_type"),
        text_of("current_step"),
        text_of("session_id")
    ));
    let agents = doc["agents"].as_object().cloned().unwrap_or_default();
    if agents.is_empty() {
        out.push_str("Agents: none yet (`baton ctx agent NAME --status pending` adds one)\n");
    } else {
        out.push_str("Agents:\n");
        let width = agents.keys().map(|k| k.chars().count()).max().unwrap_or(0);
        for (name, agent) in &agents {
            let status = agent["status"].as_str().unwrap_or("-");
            let keys = |what: &str| {
                agent[what]
                    .as_object()
                    .map(|m| m.keys().cloned().collect::<Vec<_>>().join(", "))
            };
            let mut line = format!("  {name:<width$}  {status:<11}");
            if let Some(outputs) = keys("outputs").filter(|k| !k.is_empty()) {
                line.push_str(&format!("  outputs: {outputs}"));
            }
            if let Some(inputs) = keys("inputs").filter(|k| !k.is_empty()) {
                line.push_str(&format!("  inputs: {inputs}"));
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
    if let Some(global) = doc["global_context"].as_object().filter(|g| !g.is_empty()) {
        let keys: Vec<&str> = global.keys().map(String::as_str).collect();
        out.push_str(&format!("Global context: {}\n", keys.join(", ")));
    }
    out.push_str("`baton ctx show --json` prints the document; `baton ctx log` its history.\n");
    Ok(out)
}

/// `log`: one line per version, oldest first.
pub fn log(entries: &[Entry], oldest: u64) -> String {
    let mut out = String::new();
    if oldest > 1 && entries.first().is_some_and(|e| e.v <= oldest + 1) {
        out.push_str(&format!("(history before version {oldest} was compacted)\n"));
    }
    let width = entries.iter().map(|e| e.by.chars().count()).max().unwrap_or(0);
    for e in entries {
        let when: String = e.at.replace('T', " ").chars().take(19).collect();
        let head = e
            .head
            .as_deref()
            .map_or("-------".to_owned(), |h| h.chars().take(7).collect());
        out.push_str(&format!(
            "v{:<6} {when}  {:<width$}  {head}  {}\n",
            e.v,
            e.by,
            describe_entry(e)
        ));
    }
    if entries.is_empty() {
        out.push_str("No versions yet.\n");
    }
    out
}

fn describe_entry(e: &Entry) -> String {
    let changes: Vec<&Op> = e.ops.iter().filter(|op| op.pointer() != "/context_version").collect();
    let first = changes.first().map(|op| match op {
        Op::Set { path, value } if path.is_empty() => format!("the whole document ({} bytes)", value.to_string().len()),
        Op::Set { path, value } => format!("set {} = {}", shown_path(path), clip(&value.to_string())),
        Op::Delete { path } => format!("delete {}", shown_path(path)),
    });
    let more = match changes.len() {
        0 | 1 => String::new(),
        n => format!(" (+{} more)", n - 1),
    };
    let plain = ["set ", "delete ", "batch "].iter().any(|c| e.cmd.starts_with(c));
    match first {
        Some(first) if plain => format!("{first}{more}"),
        Some(first) => format!("{}: {first}{more}", e.cmd),
        None => e.cmd.clone(),
    }
}

/// `diff`: `+ path: value`, `- path: old`, `~ path: old → new`.
pub fn diff(changes: &[Op], old: &Value) -> String {
    if changes.is_empty() {
        return "No differences.\n".to_owned();
    }
    let mut out = String::new();
    for (path, before, after) in triples(changes, old) {
        let shown = shown_path(&path);
        out.push_str(&match (before, after) {
            (None, Some(after)) => format!("+ {shown}: {}\n", clip(&after.to_string())),
            (Some(before), None) => format!("- {shown}: {}\n", clip(&before.to_string())),
            (Some(before), Some(after)) => format!(
                "~ {shown}: {} → {}\n",
                clip(&before.to_string()),
                clip(&after.to_string())
            ),
            (None, None) => String::new(),
        });
    }
    out
}

/// `diff --json`: `[{path, old, new}]` (absent: null and `"added"`/`"removed"`).
pub fn diff_json(changes: &[Op], old: &Value) -> Value {
    let items: Vec<Value> = triples(changes, old)
        .into_iter()
        .map(|(path, before, after)| {
            let kind = match (&before, &after) {
                (None, _) => "added",
                (_, None) => "removed",
                _ => "changed",
            };
            json!({"path": path, "change": kind, "old": before, "new": after})
        })
        .collect();
    Value::Array(items)
}

fn triples(changes: &[Op], old: &Value) -> Vec<(String, Option<Value>, Option<Value>)> {
    changes
        .iter()
        .map(|op| {
            let before = DocPath::parse(op.pointer()).ok().and_then(|p| p.get(old).ok().cloned());
            let after = match op {
                Op::Set { value, .. } => Some(value.clone()),
                Op::Delete { .. } => None,
            };
            (op.pointer().to_owned(), before, after)
        })
        .collect()
}

/// `inputs`: the step, its inputs, what is missing, what the agent must do.
pub fn payload(p: &Payload) -> String {
    let step = p.step.as_str().map_or_else(|| p.step.to_string(), str::to_owned);
    let mut out = format!("Step {step}");
    if let Some(name) = &p.name {
        out.push_str(&format!(": {name}"));
    }
    if let Some(agent) = &p.agent {
        out.push_str(&format!(" (agent {agent})"));
    }
    out.push_str("\nInputs:\n");
    out.push_str(&serde_json::to_string_pretty(&p.inputs).unwrap_or_default());
    out.push('\n');
    for (title, list) in [
        ("Missing required inputs", &p.missing_required),
        ("Missing optional inputs", &p.missing_optional),
    ] {
        if !list.is_empty() {
            out.push_str(&format!("{title}:\n"));
            for m in list {
                out.push_str(&format!("  - {}: {}\n", m.name, m.reason));
            }
        }
    }
    if !p.instructions.is_empty() {
        out.push_str("For the agent to do (baton does not run these methods):\n");
        for i in &p.instructions {
            out.push_str(&format!("  - {}\n", i.instruction));
        }
    }
    for note in &p.notes {
        out.push_str(&format!("Note: {note}\n"));
    }
    out
}

/// Exit 1 when a required input is missing, naming every one.
pub fn payload_verdict(p: &Payload) -> Result<()> {
    if p.missing_required.is_empty() {
        return Ok(());
    }
    let names: Vec<&str> = p.missing_required.iter().map(|m| m.name.as_str()).collect();
    Err(Error::Failed(format!(
        "step {} cannot start: required input{} missing: {}; record {} in the store first",
        p.step.as_str().map_or_else(|| p.step.to_string(), str::to_owned),
        if names.len() == 1 { " is" } else { "s are" },
        names.join(", "),
        if names.len() == 1 { "it" } else { "them" }
    )))
}

/// `validate`.
pub fn report(r: &Report) -> String {
    let mut out = format!(
        "Versions {} to {} in {} segment{} and {} snapshot{}; {} journal entries replayed.\n",
        r.oldest,
        r.version,
        r.segments,
        if r.segments == 1 { "" } else { "s" },
        r.snapshots,
        if r.snapshots == 1 { "" } else { "s" },
        r.entries
    );
    if r.problems.is_empty() {
        out.push_str("OK: the document matches the journal and has the proposal's shape; every reference resolves.\n");
    }
    for problem in &r.problems {
        out.push_str(&format!("  - {problem}\n"));
    }
    out
}

/// `compact`.
pub fn compacted(c: &Compacted) -> String {
    if c.oldest_after == c.oldest_before {
        return format!(
            "Nothing to compact: history starts at version {} (newest {}).\n",
            c.oldest_before, c.newest
        );
    }
    format!(
        "Kept versions {} to {} (was {} to {}); .baton/context/ went from {} to {} bytes.\n",
        c.oldest_after, c.newest, c.oldest_before, c.newest, c.bytes_before, c.bytes_after
    )
}

fn shown_path(pointer: &str) -> String {
    DocPath::parse(pointer).map_or_else(|_| pointer.to_owned(), |p| p.to_string())
}

fn clip(text: &str) -> String {
    match text.char_indices().nth(SHOWN_CHARS) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}
