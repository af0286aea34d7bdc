//! How the words of `baton ctx` are read: PATHs, versions, names, JSON, the value from a word,
//! a file or stdin, batch lines. A word that does not fit is a usage error.

use std::path::PathBuf;

use serde_json::Value;

use super::ctx_args::{Lines, ValueSource};
use crate::error::{Context, Error, Result};
use crate::store::ops::Op;
use crate::store::path::DocPath;
use crate::store::write::Change;

impl ValueSource {
    /// The value: JSON when it parses, else the text as a string (a file's or stdin's without
    /// its last newline).
    pub fn read(&self) -> Result<Value> {
        let text = self.text()?;
        match serde_json::from_str(&text) {
            Ok(value) => Ok(value),
            // JSON that nests too deep to read is JSON, not a string.
            Err(e) if e.to_string().starts_with("recursion limit exceeded") => Err(Error::Usage(format!(
                "VALUE is JSON nested deeper than the {} levels a JSON reader takes (the store keeps {}): flatten it",
                crate::store::document::MAX_READ_DEPTH,
                crate::store::document::MAX_DEPTH
            ))),
            Err(_) => {
                let trimmed = if self.value.is_some() {
                    text.as_str()
                } else {
                    text.strip_suffix('\n').unwrap_or(&text)
                };
                Ok(Value::String(trimmed.to_owned()))
            }
        }
    }

    fn text(&self) -> Result<String> {
        match &self.value {
            Some(word) => Ok(word.clone()),
            None => read_source(self.file.as_ref()),
        }
    }
}

impl Lines {
    /// The text of the lines.
    pub fn read(&self) -> Result<String> {
        read_source(self.file.as_ref())
    }
}

/// The text of `file`, else of stdin.
fn read_source(file: Option<&PathBuf>) -> Result<String> {
    match file {
        Some(f) => std::fs::read_to_string(f).map_err(|e| Error::io(f, e)),
        None => read_stdin(),
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
