//! `baton ctx`: the versioned context store (`.baton/context.json` and its journal). Runs the
//! action parsed (ctx_args.rs), calls the store, prints; repairs the store reports go to stderr.

use serde_json::{Value, json};

use super::ctx_args::{Action, Args, WriterName};
use super::ctx_init::init;
use super::ctx_values::{batch_changes, json_arg, name_arg, parse_path, parse_target, read_stdin, version_word};
use super::ctx_view as view;
use crate::error::{Error, Result};
use crate::planning::Project;
use crate::store::ops::{self, Op};
use crate::store::path::DocPath;
use crate::store::write::{Change, LOCK_WAIT, Writer};
use crate::store::{Store, Versioned, document, reference, workflow};

/// The first lines of `baton ctx --help`: what the store is, and its actions.
pub const ABOUT: &str = "\
baton ctx: one shared, versioned JSON document per project (.baton/context.json), in the shape
of BMAD's context-manager proposal, that an orchestrator and its agents read and write

PATH is dotted (agents.analyst.outputs.project_brief; numbers index lists) or a JSON Pointer
(/global_context/technical_stack/preferences/0) for keys that contain dots. VALUE is JSON, or
a plain string when it is not valid JSON. A string \"@agents.analyst.outputs.project_brief\"
anywhere in the document is a reference: `get --resolve`, step inputs and the SubagentStart
hook replace it by that value (to any depth; a dangling or cyclic reference is an error that
names the chain). \"@@text\" is the literal \"@text\".";

/// The end of `baton ctx --help`: history, steps, hooks, exit status, examples.
pub const DETAILS: &str = "\
History: every write is a journal entry (version, time, writer, git HEAD, change) in
.baton/context/, and context_version advances (1.0.2 → 1.0.3, or 7 → 8). `rollback V` writes
a new version equal to V (only context_version moves on); history is never rewritten. A
snapshot is kept whenever the changes since the last one add up to the document's size, so
reading any version costs at most about two reads of the document. A torn last journal line
is dropped, a missing or damaged document rebuilt from the journal (both said on stderr).

Steps (`inputs`) in the proposal's form: step, name, agent, context_inputs[{source,
extract[], as}], context_validation{required[], optional[]}, context_transformation[{transform,
to, method}]. Extracted keys are looked up in the artifact's structured_data too. Methods
rename, copy, pick (fields), flatten, join (separator), split, count, unique, sort, keys,
values, first, last, lowercase, uppercase run in baton; any other method is handed to the
agent as an instruction. Exit 1 when a required input is missing (all are listed).

Hooks: with a store present, SubagentStart gives the starting agent its
agents.<agent_type>.inputs (resolved) and marks it in_progress; SubagentStop records
completed or failed.

Exit status: 0 ok, 1 failed (validation, missing input or value, damaged store), 2 usage.

Examples:
  baton ctx init --project task-app --workflow greenfield-fullstack
  baton ctx output analyst project_brief --file brief.md --data '{\"users\": [\"leads\"]}' --as analyst
  baton ctx set agents.pm.inputs.project_brief @agents.analyst.outputs.project_brief
  baton ctx get agents.pm.inputs --resolve
  baton ctx inputs --workflow workflow.yaml --step 2
  baton ctx log -n 5
  baton ctx rollback 12";

pub fn run(args: Args) -> Result<()> {
    let mut notes = Vec::new();
    let result = dispatch(args.action, &mut notes);
    for note in &notes {
        eprintln!("baton ctx: {note}");
    }
    result
}

/// The store of the project, which must exist.
fn store() -> Result<Store> {
    let store = Store::of(&Project::current_or_here()?);
    if store.exists() {
        Ok(store)
    } else {
        Err(store.missing())
    }
}

fn dispatch(action: Action, notes: &mut Vec<String>) -> Result<()> {
    match action {
        Action::Init(a) => init(&a),
        Action::Show { at, out } => {
            let store = store()?;
            let current = read(&store, at.at, notes)?;
            if out.json {
                return super::print(&String::from_utf8_lossy(&crate::store::document_bytes(&current.doc)));
            }
            super::print(&view::summary(&store, &current)?)
        }
        Action::Get {
            path,
            resolve,
            at,
            raw,
            out: _,
        } => {
            let path = parse_path(&path.path)?;
            let current = read(&store()?, at.at, notes)?;
            let value = if resolve {
                reference::resolve(&current.doc, &path)?
            } else {
                path.get(&current.doc).map_err(reference::RefError::Missing)?.clone()
            };
            match (&value, raw) {
                (Value::String(s), true) => super::print(&format!("{s}\n")),
                _ => super::print(&format!(
                    "{}\n",
                    serde_json::to_string_pretty(&value).unwrap_or_default()
                )),
            }
        }
        Action::Set {
            path,
            value,
            writer,
            out,
        } => {
            let path = parse_target(&path.path)?;
            let value = value.read()?;
            let cmd = format!("set {path}");
            write(&store()?, &writer, out.json, notes, &cmd, |_| {
                Ok(vec![Op::set(&path, value)])
            })
        }
        Action::Delete { path, writer, out } => {
            let path = parse_path(&path.path)?;
            let cmd = format!("delete {path}");
            write(&store()?, &writer, out.json, notes, &cmd, |current| {
                path.get(&current.doc)
                    .map_err(|e| Error::because(format!("nothing to delete at {}", e.path), e.reason))?;
                Ok(vec![Op::delete(&path)])
            })
        }
        Action::Agent {
            name,
            status,
            writer,
            out,
        } => {
            let path = DocPath::root()
                .child("agents")
                .child(name_arg(&name, "NAME")?)
                .child("status");
            let cmd = format!("agent {name} --status {status}");
            write(&store()?, &writer, out.json, notes, &cmd, |_| {
                Ok(vec![Op::set(&path, json!(status))])
            })
        }
        Action::Output(a) => {
            let data = match (&a.data, a.stdin) {
                (Some(text), _) => Some(json_arg(text, "--data")?),
                (None, true) => Some(json_arg(&read_stdin()?, "the data on stdin")?),
                (None, false) => None,
            };
            let file = a.file.as_ref().map(|f| f.display().to_string());
            let record = document::artifact(file.as_deref(), data, a.quality, &crate::agents::ledger::now());
            let path = DocPath::root()
                .child("agents")
                .child(name_arg(&a.agent, "AGENT")?)
                .child("outputs")
                .child(name_arg(&a.artifact, "ARTIFACT")?);
            let cmd = format!("output {} {}", a.agent, a.artifact);
            write(&store()?, &a.writer, a.out.json, notes, &cmd, |_| {
                Ok(vec![Op::set(&path, record)])
            })
        }
        Action::Inputs {
            workflow,
            step,
            at,
            out,
        } => {
            let step = workflow::load_step(&workflow, &step)?;
            let current = read(&store()?, at.at, notes)?;
            let payload = workflow::build(&step, &current.doc)?;
            super::print(&if out.json {
                format!("{:#}\n", json!(payload))
            } else {
                view::payload(&payload)
            })?;
            view::payload_verdict(&payload)
        }
        Action::Log { limit, all, out } => {
            if limit == Some(0) {
                return Err(Error::Usage(
                    "log -n needs at least 1 (how many of the newest versions to show), or --all".into(),
                ));
            }
            let limit = if all { None } else { Some(limit.unwrap_or(20)) };
            let (entries, oldest) = store()?.log(limit)?;
            if out.json {
                return super::print(&format!("{:#}\n", json!({"oldest": oldest, "entries": entries})));
            }
            super::print(&view::log(&entries, oldest))
        }
        Action::Diff { from, to, out } => {
            let store = store()?;
            let old = store.version_at(version_word(&from)?)?;
            let new = match to {
                Some(v) => store.version_at(version_word(&v)?)?,
                None => store.read_current(LOCK_WAIT, notes)?.doc,
            };
            let changes = ops::diff(&old, &new);
            super::print(&if out.json {
                format!("{:#}\n", view::diff_json(&changes, &old))
            } else {
                view::diff(&changes, &old)
            })
        }
        Action::Rollback { version, writer, out } => {
            let target = version_word(&version)?;
            let store = store()?;
            let cmd = format!("rollback {target}");
            write(&store.clone(), &writer, out.json, notes, &cmd, |current| {
                let mut wanted = store.version_at(target)?;
                if let Some(next) =
                    document::advance_version(current.doc.get("context_version"), current.version.saturating_add(1))
                    && wanted.is_object()
                {
                    wanted["context_version"] = next;
                }
                Ok(ops::diff(&current.doc, &wanted))
            })
        }
        Action::Compact { keep, out } => {
            if keep == 0 {
                return Err(Error::Usage("compact needs --keep N (at least 1)".into()));
            }
            let done = store()?.compact(keep, notes)?;
            super::print(&if out.json {
                format!("{:#}\n", json!(done))
            } else {
                view::compacted(&done)
            })
        }
        Action::Validate(out) => {
            let report = store()?.validate(notes)?;
            super::print(&if out.json {
                format!("{:#}\n", json!(report))
            } else {
                view::report(&report)
            })?;
            match report.problems.len() {
                0 => Ok(()),
                n => Err(Error::Failed(format!(
                    "the context store has {n} problem{}",
                    if n == 1 { "" } else { "s" }
                ))),
            }
        }
        Action::Batch { lines, writer, out } => {
            let changes = batch_changes(&lines.read()?)?;
            let store = store()?;
            let writer = Writer::identify(writer.as_name.as_deref(), store.root())?;
            let done = store.write_batch(&writer, notes, changes)?;
            if out.json {
                return super::print(&format!(
                    "{}\n",
                    json!({"first": done.first(), "last": done.first().map(|_| done.last), "written": done.versions,
                           "version": done.last})
                ));
            }
            super::print(&match done.first() {
                Some(first) => format!("Wrote versions {first} to {}.\n", done.last),
                None => format!(
                    "Nothing to write: the batch has no lines (the newest version is {}).\n",
                    done.last
                ),
            })
        }
    }
}

/// The current document, or version `at`.
fn read(store: &Store, at: Option<u64>, notes: &mut Vec<String>) -> Result<Versioned> {
    match at {
        Some(version) => Ok(Versioned {
            doc: store.version_at(version)?,
            version,
        }),
        None => store.read_current(LOCK_WAIT, notes),
    }
}

/// Writes one version and prints it.
fn write(
    store: &Store,
    writer: &WriterName,
    json: bool,
    notes: &mut Vec<String>,
    cmd: &str,
    make: impl FnOnce(&Versioned) -> Result<Vec<Op>>,
) -> Result<()> {
    let writer = Writer::identify(writer.as_name.as_deref(), store.root())?;
    let done = store.write(&writer, LOCK_WAIT, notes, |current| {
        Ok(Change {
            cmd: cmd.to_owned(),
            ops: make(current)?,
        })
    })?;
    if json {
        return super::print(&format!(
            "{}\n",
            json!({"version": done.last, "changed": done.versions > 0})
        ));
    }
    if done.versions == 0 {
        return super::print(&format!("Nothing changed (version {}).\n", done.last));
    }
    super::print(&format!("Version {}: {cmd}\n", done.last))
}
