//! The options of `baton ctx` and its value arguments: one parse for every action (each
//! action says which options it takes), VALUE words, files and stdin, batch lines.

use std::path::PathBuf;

use serde_json::Value;

use crate::error::{Context, Error, Result};
use crate::store::ops::Op;
use crate::store::path::DocPath;
use crate::store::write::Change;

/// Every option, parsed; each action says which it takes.
#[derive(Default)]
pub struct Args {
    pub words: Vec<String>,
    pub given: Vec<&'static str>,
    pub json: bool,
    pub resolve: bool,
    pub raw: bool,
    pub all: bool,
    pub stdin: bool,
    pub at: Option<u64>,
    pub as_name: Option<String>,
    pub file: Option<PathBuf>,
    pub project: Option<String>,
    pub workflow: Option<String>,
    pub from: Option<PathBuf>,
    pub step: Option<String>,
    pub status: Option<String>,
    pub data: Option<String>,
    pub quality: Option<f64>,
    pub keep: Option<u64>,
    pub limit: Option<usize>,
}

/// Parses every option and word of `baton ctx`.
pub fn parse(parser: &mut lexopt::Parser) -> Result<Args> {
    use lexopt::Arg::{Long, Short, Value as Word};
    let mut a = Args::default();
    let number = |v: String, flag: &str| {
        v.parse::<u64>()
            .map_err(|_| Error::Usage(format!("{flag} needs a whole number, not {v:?}")))
    };
    while let Some(arg) = parser.next()? {
        let flag: &'static str = match arg {
            Word(w) => {
                a.words.push(super::utf8(w, "arguments")?);
                continue;
            }
            Long("json") => "--json",
            Long("resolve") => "--resolve",
            Long("raw") => "--raw",
            Long("all") => "--all",
            Long("stdin") => "--stdin",
            Long("at") => "--at",
            Long("as") => "--as",
            Long("file") => "--file",
            Long("project") => "--project",
            Long("workflow") => "--workflow",
            Long("from") => "--from",
            Long("step") => "--step",
            Long("status") => "--status",
            Long("data") => "--data",
            Long("quality") => "--quality",
            Long("keep") => "--keep",
            Short('n') | Long("limit") => "-n",
            other => return Err(other.unexpected().into()),
        };
        a.given.push(flag);
        let mut value = || -> Result<String> { Ok(parser.value()?.to_string_lossy().into_owned()) };
        match flag {
            "--json" => a.json = true,
            "--resolve" => a.resolve = true,
            "--raw" => a.raw = true,
            "--all" => a.all = true,
            "--stdin" => a.stdin = true,
            "--at" => a.at = Some(number(value()?, flag)?),
            "--keep" => a.keep = Some(number(value()?, flag)?),
            "-n" => a.limit = Some(number(value()?, flag)? as usize),
            "--as" => a.as_name = Some(value()?),
            "--file" => a.file = Some(PathBuf::from(value()?)),
            "--from" => a.from = Some(PathBuf::from(value()?)),
            "--project" => a.project = Some(value()?),
            "--workflow" => a.workflow = Some(value()?),
            "--step" => a.step = Some(value()?),
            "--status" => a.status = Some(value()?),
            "--data" => a.data = Some(value()?),
            _ => {
                let v = value()?;
                let q = v.parse::<f64>().ok().filter(|q| q.is_finite());
                a.quality = Some(q.ok_or_else(|| Error::Usage(format!("--quality needs a number, not {v:?}")))?);
            }
        }
    }
    Ok(a)
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
        if let Some(flag) = self.given.iter().find(|f| !allowed.contains(f)) {
            return Err(Error::Usage(format!(
                "{action} does not take {flag}; usage: baton ctx {usage}"
            )));
        }
        if !words.contains(&(self.words.len() - 1)) {
            return Err(Error::Usage(format!("usage: baton ctx {usage}")));
        }
        Ok(())
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
