//! The options of `baton ctx` and its value arguments: one parse for every action (each
//! action says which options it takes), VALUE words, files and stdin, batch lines.

use std::path::PathBuf;

use serde_json::Value;

use super::values;
use crate::error::{Context, Error, Result};
use crate::store::ops::Op;
use crate::store::path::DocPath;
use crate::store::write::Change;

/// Every option of every action, parsed; each action says which it takes.
#[derive(clap::Args, Default)]
#[command(
    about = "The versioned context store agents share (.baton/context.json): get, set, inputs, history",
    override_usage = super::ctx::USAGE,
    before_help = super::ctx::ABOUT,
    after_help = super::ctx::DETAILS
)]
pub struct Args {
    /// The action and its words
    #[arg(value_name = "ACTION", value_parser = values::text())]
    pub words: Vec<String>,
    /// Print JSON
    #[arg(long)]
    pub json: bool,
    /// Resolve references in the value
    #[arg(long)]
    pub resolve: bool,
    /// Read version V instead of the current one
    #[arg(long, value_name = "V", value_parser = values::whole::<u64>())]
    pub at: Option<u64>,
    /// Print a string value without quotes
    #[arg(long)]
    pub raw: bool,
    /// The writer recorded in the journal (default $BATON_AGENT, else unknown)
    #[arg(long = "as", value_name = "NAME", allow_hyphen_values = true)]
    pub as_name: Option<String>,
    /// set/batch: read from file F; output: the artifact's file_path
    #[arg(long, value_name = "F", allow_hyphen_values = true)]
    pub file: Option<PathBuf>,
    /// set/batch: read from stdin
    #[arg(long)]
    pub stdin: bool,
    /// init: project_name (default: the directory's name)
    #[arg(long, value_name = "NAME", allow_hyphen_values = true)]
    pub project: Option<String>,
    /// init: workflow_type; inputs: the workflow file (YAML or JSON)
    #[arg(long, value_name = "T", allow_hyphen_values = true)]
    pub workflow: Option<String>,
    /// init: start from an existing document
    #[arg(long, value_name = "FILE", allow_hyphen_values = true)]
    pub from: Option<PathBuf>,
    /// inputs: the step (its `step:` value, else its position)
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub step: Option<String>,
    /// agent: pending, in_progress, completed or failed
    #[arg(long, value_name = "S", allow_hyphen_values = true)]
    pub status: Option<String>,
    /// output: structured_data
    #[arg(long, value_name = "JSON", allow_hyphen_values = true)]
    pub data: Option<String>,
    /// output: quality_score (a number)
    #[arg(long, value_name = "Q", value_parser = values::number(), allow_hyphen_values = true)]
    pub quality: Option<f64>,
    /// compact: keep the newest N versions
    #[arg(long, value_name = "N", value_parser = values::whole::<u64>())]
    pub keep: Option<u64>,
    /// log: how many of the newest entries (default 20)
    #[arg(short = 'n', long = "limit", value_name = "N", value_parser = values::whole::<usize>())]
    pub limit: Option<usize>,
    /// log: every entry (default: the newest 20)
    #[arg(long)]
    pub all: bool,
}

impl Args {
    /// Refuses options the action does not take, and a wrong number of words.
    pub fn check(
        &self,
        action: &str,
        allowed: &[&str],
        words: std::ops::RangeInclusive<usize>,
        usage: &str,
    ) -> Result<()> {
        if let Some(flag) = self.given().into_iter().find(|f| !allowed.contains(f)) {
            return Err(Error::Usage(format!(
                "{action} does not take {flag}; usage: baton ctx {usage}"
            )));
        }
        if !words.contains(&(self.words.len() - 1)) {
            return Err(Error::Usage(format!("usage: baton ctx {usage}")));
        }
        Ok(())
    }

    /// The options given, by name.
    fn given(&self) -> Vec<&'static str> {
        let flags = [
            ("--json", self.json),
            ("--resolve", self.resolve),
            ("--at", self.at.is_some()),
            ("--raw", self.raw),
            ("--as", self.as_name.is_some()),
            ("--file", self.file.is_some()),
            ("--stdin", self.stdin),
            ("--project", self.project.is_some()),
            ("--workflow", self.workflow.is_some()),
            ("--from", self.from.is_some()),
            ("--step", self.step.is_some()),
            ("--status", self.status.is_some()),
            ("--data", self.data.is_some()),
            ("--quality", self.quality.is_some()),
            ("--keep", self.keep.is_some()),
            ("-n", self.limit.is_some()),
            ("--all", self.all),
        ];
        flags
            .into_iter()
            .filter(|(_, given)| *given)
            .map(|(flag, _)| flag)
            .collect()
    }

    /// The `i`-th positional word, or "" when there are fewer.
    pub fn word(&self, i: usize) -> &str {
        self.words.get(i).map_or("", String::as_str)
    }
}

/// A PATH argument; a malformed one is a usage error.
pub fn parse_path(text: &str) -> Result<DocPath> {
    DocPath::parse(text).map_err(|e| Error::Usage(e.to_string()))
}

/// A PATH to write at: a key below the document, never the document itself (an empty PATH,
/// say from an unset shell variable, would replace it whole).
pub fn parse_target(text: &str) -> Result<DocPath> {
    let path = parse_path(text)?;
    if path.tokens().is_empty() {
        return Err(Error::Usage(
            "PATH is empty, which would replace the whole document: name a key such as global_context.notes \
             (to start over from a file, remove .baton/context.json and .baton/context/, then `baton ctx init --from FILE`)"
                .into(),
        ));
    }
    Ok(path)
}

/// An agent's or artifact's name (`what` says which), which must not be empty.
pub fn name_arg<'a>(text: &'a str, what: &str) -> Result<&'a str> {
    if text.trim().is_empty() {
        return Err(Error::Usage(format!(
            "{what} is empty: give the name, such as `analyst`"
        )));
    }
    Ok(text)
}

/// A version argument (`12` or `v12`).
pub fn version_word(text: &str) -> Result<u64> {
    text.trim_start_matches('v')
        .parse()
        .map_err(|_| Error::Usage(format!("{text:?} is not a version number (see `baton ctx log`)")))
}

/// The VALUE word, `--file` or `--stdin`: JSON when it parses, else the text as a string.
pub fn value_arg(a: &Args, word: usize) -> Result<Value> {
    let text = value_text(a, word)?;
    match serde_json::from_str(&text) {
        Ok(value) => Ok(value),
        // JSON that nests too deep to read is JSON, not a string.
        Err(e) if e.to_string().starts_with("recursion limit exceeded") => Err(Error::Usage(format!(
            "VALUE is JSON nested deeper than the {} levels a JSON reader takes (the store keeps {}): flatten it",
            crate::store::document::MAX_READ_DEPTH,
            crate::store::document::MAX_DEPTH
        ))),
        Err(_) => {
            let trimmed = if a.words.get(word).is_some() {
                text.as_str()
            } else {
                text.strip_suffix('\n').unwrap_or(&text)
            };
            Ok(Value::String(trimmed.to_owned()))
        }
    }
}

/// The text of the VALUE word, `--file` or `--stdin` (exactly one of them).
pub fn value_text(a: &Args, word: usize) -> Result<String> {
    match (a.words.get(word), &a.file, a.stdin) {
        (Some(v), None, false) => Ok(v.clone()),
        (None, Some(f), false) => std::fs::read_to_string(f).map_err(|e| Error::io(f, e)),
        (None, None, true) => read_stdin(),
        (None, None, false) => Err(Error::Usage("give the value as a word, --file F or --stdin".into())),
        _ => Err(Error::Usage(
            "give the value one way only (a word, --file or --stdin)".into(),
        )),
    }
}

/// All of stdin.
pub fn read_stdin() -> Result<String> {
    let mut text = String::new();
    std::io::Read::read_to_string(&mut std::io::stdin(), &mut text).context("cannot read stdin")?;
    Ok(text)
}

/// An argument that must be JSON.
pub fn json_arg(text: &str, what: &str) -> Result<Value> {
    serde_json::from_str(text).map_err(|e| Error::Usage(format!("{what} is not JSON ({e})")))
}

/// JSON lines `{"set": PATH, "value": V}` or `{"delete": PATH}`, one version each.
pub fn batch_changes(text: &str) -> Result<Vec<Change>> {
    let mut changes = Vec::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let bad = |why: &str| Error::Usage(format!("batch: line {}: {why}", i + 1));
        let item: Value = serde_json::from_str(line).map_err(|e| bad(&format!("not JSON ({e})")))?;
        let op = match (
            item.get("set").and_then(Value::as_str),
            item.get("delete").and_then(Value::as_str),
        ) {
            (Some(p), None) => Op::set(
                &parse_target(p)?,
                item.get("value").cloned().ok_or_else(|| bad("set needs \"value\""))?,
            ),
            (None, Some(p)) => Op::delete(&parse_path(p)?),
            _ => return Err(bad("expected {\"set\": PATH, \"value\": V} or {\"delete\": PATH}")),
        };
        changes.push(Change {
            cmd: format!("batch {}", DocPath::parse(op.pointer()).unwrap_or_default()),
            ops: vec![op],
        });
    }
    Ok(changes)
}
