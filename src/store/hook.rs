//! The store in the subagent hooks. SubagentStart: when the project has a context store, the
//! starting agent gets its inputs (`agents.<agent_type>.inputs`, references resolved) as
//! additional context, within a size budget, and its status becomes `in_progress`.
//! SubagentStop: its status becomes `completed`, or `failed` when its final message reports a
//! failure or the ledger's spot-check flagged it. Only agents the document names are touched.

use std::time::Duration;

use serde_json::{Map, Value};

use super::ops::Op;
use super::path::DocPath;
use super::write::{Change, Writer};
use super::{Store, Versioned, reference};
use crate::hook::fit::utf16_len;
use crate::hook::payload::HookPayload;
use crate::planning::Project;

/// How long a hook waits for the store's lock: a hook must not hold up the client.
const HOOK_LOCK_WAIT: Duration = Duration::from_secs(2);

/// Handles SubagentStart/SubagentStop for the store; returns the context to add, if any.
pub fn on_event(event: &str, payload: &HookPayload) -> Option<String> {
    let agent_type = payload.agent_type.as_deref().filter(|t| !t.is_empty())?;
    let project = Project::find(&crate::hook::working_dir(payload.cwd.as_deref()))?;
    if !Store::of(&project).document.is_file() {
        return None;
    }
    match event {
        "SubagentStart" => {
            set_status(&project, agent_type, "in_progress", payload);
            subagent_start_context(&project, agent_type, crate::hook::envelope::MAX_CONTEXT_UNITS)
        }
        "SubagentStop" => {
            let status = if failed(&project, payload) {
                "failed"
            } else {
                "completed"
            };
            set_status(&project, agent_type, status, payload);
            None
        }
        _ => None,
    }
}

/// The context a starting agent of `agent_type` gets from the store: its resolved inputs,
/// in at most `budget` UTF-16 units (what Claude Code counts); `None` without a store or without inputs for it.
pub fn subagent_start_context(project: &Project, agent_type: &str, budget: usize) -> Option<String> {
    let store = Store::of(project);
    if !store.document.is_file() {
        return None;
    }
    let mut notes = Vec::new();
    let current = store.read_current(HOOK_LOCK_WAIT, &mut notes);
    log_notes(&notes);
    let Versioned { doc, version } = current.map_err(|e| crate::log::note(&format!("ctx hook: {e}"))).ok()?;
    let name = agent_key(&doc, agent_type)?;
    let inputs_path = DocPath::root().child("agents").child(name.clone()).child("inputs");
    let inputs = inputs_path.get(&doc).ok()?.as_object().filter(|m| !m.is_empty())?;
    let mut resolved = Map::new();
    let mut problems = Vec::new();
    for key in inputs.keys() {
        match reference::resolve(&doc, &inputs_path.child(key.clone())) {
            Ok(value) => {
                resolved.insert(key.clone(), value);
            }
            Err(e) => problems.push(format!("{key}: {e}")),
        }
    }
    render(&name, version, resolved, &problems, budget)
}

/// The text, fitted to `budget` UTF-16 units: pretty JSON, else compact, else the inputs that
/// fit with the others named and how to read them.
fn render(name: &str, version: u64, inputs: Map<String, Value>, problems: &[String], budget: usize) -> Option<String> {
    let head = format!(
        "baton context store (.baton/context.json, version {version}): your inputs as agent \"{name}\" \
         (agents.{name}.inputs, references resolved):\n"
    );
    let mut tail = String::new();
    if !problems.is_empty() {
        tail.push_str(&format!("Inputs that could not be resolved: {}\n", problems.join("; ")));
    }
    tail.push_str(&format!(
        "Record what you produce with `baton ctx output {name} ARTIFACT --file PATH --data JSON --as {name}`."
    ));
    let fits = |body: &str| utf16_len(&head) + utf16_len(body) + 1 + utf16_len(&tail) <= budget;
    let whole = Value::Object(inputs.clone());
    for body in [
        serde_json::to_string_pretty(&whole).unwrap_or_default(),
        whole.to_string(),
    ] {
        if fits(&body) {
            return Some(format!("{head}{body}\n{tail}"));
        }
    }
    let mut shown = Map::new();
    let mut left_out = Vec::new();
    for (key, value) in inputs {
        let mut trial = shown.clone();
        trial.insert(key.clone(), value);
        let note = format!(
            "\nLeft out for size: {}; read them with `baton ctx get agents.{name}.inputs.KEY --resolve`.",
            left_out
                .iter()
                .chain([&key])
                .cloned()
                .collect::<Vec<String>>()
                .join(", ")
        );
        if fits(&format!("{}{note}", Value::Object(trial.clone()))) {
            shown = trial;
        } else {
            left_out.push(key);
        }
    }
    let note = format!(
        "\nLeft out for size: {}; read them with `baton ctx get agents.{name}.inputs.KEY --resolve`.",
        left_out.join(", ")
    );
    let body = format!("{}{note}", Value::Object(shown));
    fits(&body).then(|| format!("{head}{body}\n{tail}"))
}

/// The key of `agent_type` under `agents`: as given, or its part after a plugin's `name:`.
fn agent_key(doc: &Value, agent_type: &str) -> Option<String> {
    let agents = doc.get("agents")?.as_object()?;
    let short = agent_type.rsplit(':').next().unwrap_or(agent_type);
    [agent_type, short]
        .into_iter()
        .find(|k| agents.contains_key(*k))
        .map(str::to_owned)
}

/// Sets `agents.<name>.status` for an agent the document names (nothing otherwise).
fn set_status(project: &Project, agent_type: &str, status: &str, payload: &HookPayload) {
    set_agent_value(
        project,
        agent_type,
        &["status"],
        Value::String(status.to_owned()),
        payload,
        "",
    );
}

/// Records the bridge's handoff of a finished agent as its output `handoff`
/// (`agents.<name>.outputs.handoff`), when the project has a store that names the agent.
pub fn record_handoff(project: &Project, agent_type: &str, handoff: Value, payload: &HookPayload) {
    if Store::of(project).document.is_file() {
        set_agent_value(
            project,
            agent_type,
            &["outputs", "handoff"],
            handoff,
            payload,
            " (bridge handoff)",
        );
    }
}

/// Sets `agents.<name>.<field…>` to `value` for an agent the document names, as one version
/// written by the hook (`hook <event><what>` in the log); nothing when the agent is not named
/// or the value is already there.
fn set_agent_value(
    project: &Project,
    agent_type: &str,
    field: &[&str],
    value: Value,
    payload: &HookPayload,
    what: &str,
) {
    let store = Store::of(project);
    let mut notes = Vec::new();
    let path_of = |name: String| {
        field.iter().fold(DocPath::root().child("agents").child(name), |p, f| {
            p.child((*f).to_owned())
        })
    };
    let differs = |doc: &Value, name: String| path_of(name).get(doc).ok() != Some(&value);
    let needed = store
        .read_current(HOOK_LOCK_WAIT, &mut notes)
        .is_ok_and(|current| agent_key(&current.doc, agent_type).is_some_and(|name| differs(&current.doc, name)));
    if !needed {
        log_notes(&notes);
        return;
    }
    let writer = Writer::hook(agent_type, payload.session_id.as_deref(), &project.root);
    let event = payload.hook_event_name.clone().unwrap_or_default();
    let result = store.write(&writer, HOOK_LOCK_WAIT, &mut notes, |current| {
        let ops = match agent_key(&current.doc, agent_type) {
            Some(name) if differs(&current.doc, name.clone()) => vec![Op::set(&path_of(name), value.clone())],
            _ => Vec::new(),
        };
        Ok(Change {
            cmd: format!("hook {event}{what}"),
            ops,
        })
    });
    log_notes(&notes);
    if let Err(e) = result {
        crate::log::note(&format!("ctx hook {event}: {e}"));
    }
}

/// Whether the run failed: its final message says so, or its spot-check flagged it.
fn failed(project: &Project, payload: &HookPayload) -> bool {
    let message = payload.last_assistant_message.as_deref().unwrap_or("");
    if !crate::agents::claims::extract(message).reports_success {
        return true;
    }
    let run = payload
        .agent_id
        .as_deref()
        .and_then(|id| crate::agents::ledger::file(project, id));
    let run = run
        .filter(|p| p.is_file())
        .and_then(|p| crate::agents::ledger::read(&p).ok());
    run.and_then(|r| r.verification).is_some_and(|v| v.flagged)
}

fn log_notes(notes: &[String]) {
    for note in notes {
        crate::log::note(&format!("ctx: {note}"));
    }
}
