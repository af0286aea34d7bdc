//! The store in the subagent hooks. SubagentStart: when the project has a context store that
//! names the starting agent, the agent gets its inputs (`agents.<agent_type>.inputs`,
//! references resolved) as additional context, within a size budget, and its status becomes
//! `in_progress`. SubagentStop: its status becomes `completed`, or `failed` when its final
//! message reports a failure or the ledger's spot-check flagged it. Agents the document does
//! not name are left alone, at the cost of reading the document's `agents` keys.

use std::time::Duration;

use serde_json::{Map, Value};

use super::ops::Op;
use super::path::DocPath;
use super::write::{Change, Writer};
use super::{MAX_DOCUMENT_BYTES, Store, Versioned, reference};
use crate::hook::event::Event;
use crate::hook::fit::utf16_len;
use crate::planning::Project;

/// How long a hook waits for the store's lock: a hook must not hold up the client.
const HOOK_LOCK_WAIT: Duration = Duration::from_secs(2);

/// Handles SubagentStart/SubagentStop for the store; returns the context to add, if any.
/// Only the document's `agents` keys are read to learn whether it names the agent (see
/// [`named_agent`]): for any other agent a hook costs one read of the document, whatever
/// its size.
pub fn on_event(event: &Event) -> Option<String> {
    let agent_type = event.payload.agent_type.as_deref().filter(|t| !t.is_empty())?;
    let project = event.place.project()?;
    named_agent(&Store::of(project), agent_type)?;
    match event.name()? {
        "SubagentStart" => {
            let current = set_status(project, agent_type, "in_progress", event)?;
            let name = agent_key(&current.doc, agent_type)?;
            subagent_start_context(&name, &current, crate::hook::envelope::MAX_CONTEXT_UNITS)
        }
        "SubagentStop" => {
            let status = if failed(project, event) { "failed" } else { "completed" };
            set_status(project, agent_type, status, event);
            None
        }
        _ => None,
    }
}

/// The context a starting `agent_type` gets from the store, read without changing it: the mod
/// asks for it at spawn, while the SubagentStart hook still records the run.
pub fn starting_agent_context(project: &Project, agent_type: &str, budget: usize) -> Option<String> {
    let store = Store::of(project);
    let name = named_agent(&store, agent_type)?;
    let mut notes = Vec::new();
    let current = store.read_current(HOOK_LOCK_WAIT, &mut notes);
    log_notes(&notes);
    let current = current.map_err(|e| crate::log::note(&format!("ctx hook: {e}"))).ok()?;
    subagent_start_context(&name, &current, budget)
}

/// The key under `agents` of `agent_type` when the store's document names it, read without
/// building the document (its other values are skipped). A document over the store's size
/// cap is left alone; one that does not read (damaged, half-restored) is loaded the usual
/// way, which repairs it.
fn named_agent(store: &Store, agent_type: &str) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Names {
        #[serde(default, deserialize_with = "keys")]
        agents: Vec<String>,
    }
    fn keys<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
        let map: std::collections::BTreeMap<String, serde::de::IgnoredAny> = serde::Deserialize::deserialize(d)?;
        Ok(map.into_keys().collect())
    }
    let size = std::fs::metadata(&store.document).ok().filter(|m| m.is_file())?.len();
    if size > MAX_DOCUMENT_BYTES {
        crate::log::note(&format!(
            "ctx hook: {} is {size} bytes, over the store's cap: not read (trim it with `baton ctx delete`)",
            store.document.display()
        ));
        return None;
    }
    let short = agent_type.rsplit(':').next().unwrap_or(agent_type);
    let pick = |names: &[String]| {
        [agent_type, short]
            .into_iter()
            .find(|k| names.iter().any(|n| n == k))
            .map(str::to_owned)
    };
    let bytes = crate::fsx::read_regular(&store.document, MAX_DOCUMENT_BYTES).ok()?;
    match serde_json::from_slice::<Names>(&bytes) {
        Ok(names) => pick(&names.agents),
        Err(_) => {
            let mut notes = Vec::new();
            let current = store.read_current(HOOK_LOCK_WAIT, &mut notes);
            log_notes(&notes);
            agent_key(&current.ok()?.doc, agent_type)
        }
    }
}

/// The context a starting agent `name` gets from the store's `current` document: its resolved
/// inputs, in at most `budget` UTF-16 units (what Claude Code counts); `None` without inputs.
/// An input whose references expand past what the budget could hold is named, not built.
fn subagent_start_context(name: &str, current: &Versioned, budget: usize) -> Option<String> {
    let doc = &current.doc;
    let inputs_path = DocPath::root().child("agents").child(name.to_owned()).child("inputs");
    let inputs = inputs_path.get(doc).ok()?.as_object().filter(|m| !m.is_empty())?;
    let mut resolved = Map::new();
    let mut problems = Vec::new();
    let mut too_large = Vec::new();
    for key in inputs.keys() {
        // Every value takes at least one unit of the text: more values than units cannot fit.
        match reference::resolve_within(doc, &inputs_path.child(key.clone()), budget) {
            Ok(value) => {
                resolved.insert(key.clone(), value);
            }
            Err(reference::RefError::TooLarge { .. }) => too_large.push(key.clone()),
            Err(e) => problems.push(format!("{key}: {e}")),
        }
    }
    render(name, current.version, resolved, too_large, &problems, budget)
}

/// The text, fitted to `budget` UTF-16 units: pretty JSON, else compact, else the inputs that
/// fit with the others named and how to read them.
fn render(
    name: &str,
    version: u64,
    inputs: Map<String, Value>,
    mut left_out: Vec<String>,
    problems: &[String],
    budget: usize,
) -> Option<String> {
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
    if left_out.is_empty() {
        for body in [
            serde_json::to_string_pretty(&whole).unwrap_or_default(),
            whole.to_string(),
        ] {
            if fits(&body) {
                return Some(format!("{head}{body}\n{tail}"));
            }
        }
    }
    let mut shown = Map::new();
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

/// Sets `agents.<name>.status` for an agent the document names; the document after it.
fn set_status(project: &Project, agent_type: &str, status: &str, event: &Event) -> Option<Versioned> {
    set_agent_value(
        project,
        agent_type,
        &["status"],
        Value::String(status.to_owned()),
        event,
        "",
    )
}

/// Records the bridge's handoff of a finished agent as its output `handoff`
/// (`agents.<name>.outputs.handoff`), when the event's project has a store that names the agent.
pub fn record_handoff(event: &Event, agent_type: &str, handoff: Value) {
    let Some(project) = event.place.project() else {
        return;
    };
    if named_agent(&Store::of(project), agent_type).is_some() {
        set_agent_value(
            project,
            agent_type,
            &["outputs", "handoff"],
            handoff,
            event,
            " (bridge handoff)",
        );
    }
}

/// Sets `agents.<name>.<field…>` to `value` for an agent the document names, as one version
/// written by the hook (`hook <event><what>` in the log); nothing when the agent is not named
/// or the value is already there. The document after it (`None` when the store could not be
/// read).
fn set_agent_value(
    project: &Project,
    agent_type: &str,
    field: &[&str],
    value: Value,
    event: &Event,
    what: &str,
) -> Option<Versioned> {
    let store = Store::of(project);
    let mut notes = Vec::new();
    let path_of = |name: String| {
        field.iter().fold(DocPath::root().child("agents").child(name), |p, f| {
            p.child((*f).to_owned())
        })
    };
    let writer = Writer::hook(agent_type, event.payload.session_id.as_deref(), &project.root);
    let event = event.name().unwrap_or_default();
    let result = store.write(&writer, HOOK_LOCK_WAIT, &mut notes, |current| {
        let ops = match agent_key(&current.doc, agent_type) {
            Some(name) if path_of(name.clone()).get(&current.doc).ok() != Some(&value) => {
                vec![Op::set(&path_of(name), value.clone())]
            }
            _ => Vec::new(),
        };
        Ok(Change {
            cmd: format!("hook {event}{what}"),
            ops,
        })
    });
    log_notes(&notes);
    match result {
        Ok(written) => Some(written.into()),
        Err(e) => {
            crate::log::note(&format!("ctx hook {event}: {e}"));
            let mut notes = Vec::new();
            let current = store.read_current(HOOK_LOCK_WAIT, &mut notes).ok();
            log_notes(&notes);
            current
        }
    }
}

/// Whether the run failed: its final message says so, or its spot-check flagged it.
fn failed(project: &Project, event: &Event) -> bool {
    let message = event.payload.last_assistant_message.as_deref().unwrap_or("");
    if !crate::agents::claims::extract(message).reports_success {
        return true;
    }
    let run = event.agent_id().and_then(|id| crate::agents::ledger::file(project, id));
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
