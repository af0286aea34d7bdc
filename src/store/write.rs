//! Writing versions: who writes ([`Writer`]), what ([`Change`]), and the three ways in (one
//! version from the current document, the first version, a batch). Each takes the store's
//! lock, loads the current document (repairing it first if need be, see `recover`) and
//! commits (see `commit`: one durable journal append, then the document).

use std::path::Path;
use std::time::Duration;

use serde_json::Value;

use super::journal::Layout;
use super::ops::Op;
use super::{Store, Versioned, document};
use crate::error::{Error, Result};

/// How long a command waits for another writer.
pub const LOCK_WAIT: Duration = Duration::from_secs(10);
/// Environment variable naming the writer when `--as` is not given.
pub const WRITER_ENV: &str = "BATON_AGENT";

/// Who writes: recorded in every journal entry.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Writer {
    pub name: String,
    pub session: Option<String>,
    pub head: Option<String>,
}

impl Writer {
    /// `--as NAME`, else `$BATON_AGENT`, else `unknown`; Claude Code's session from
    /// `$CLAUDE_CODE_SESSION_ID` (a subagent's Bash sees its parent's: no agent id is given to
    /// it); the git HEAD of `root`.
    pub fn identify(as_name: Option<&str>, root: &Path) -> Result<Self> {
        let from_env = std::env::var(WRITER_ENV).ok().filter(|n| !n.trim().is_empty());
        let name = as_name
            .map(str::to_owned)
            .or(from_env)
            .unwrap_or_else(|| "unknown".into());
        if name.chars().count() > 128 || name.chars().any(char::is_control) || name.trim().is_empty() {
            return Err(Error::Usage(format!(
                "writer name {name:?} is not usable: give a short name such as `--as pm`"
            )));
        }
        Ok(Self {
            name,
            session: std::env::var("CLAUDE_CODE_SESSION_ID").ok().filter(|s| !s.is_empty()),
            head: head_of(root),
        })
    }

    /// A writer acting for a hook: the agent type, and the payload's session.
    pub fn hook(name: &str, session: Option<&str>, root: &Path) -> Self {
        Self {
            name: name.to_owned(),
            session: session.map(str::to_owned),
            head: head_of(root),
        }
    }
}

/// The git HEAD of `root`; git is not started outside a work tree.
fn head_of(root: &Path) -> Option<String> {
    root.ancestors()
        .any(|dir| dir.join(".git").exists())
        .then(|| crate::git::head(root))
        .flatten()
}

/// One version to write: the command and its changes.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    pub cmd: String,
    pub ops: Vec<Op>,
}

/// What a write did.
#[derive(Debug, Clone, PartialEq)]
pub struct Written {
    /// How many versions were written (0: nothing changed).
    pub versions: u64,
    /// The newest version now (the last one written, if any).
    pub last: u64,
    /// The document as it now is.
    pub doc: Value,
}

impl Written {
    /// The first version written, when one was.
    pub fn first(&self) -> Option<u64> {
        (self.versions > 0).then(|| self.last + 1 - self.versions)
    }
}

impl From<Written> for Versioned {
    fn from(written: Written) -> Self {
        Self {
            doc: written.doc,
            version: written.last,
        }
    }
}

impl Store {
    /// Writes one version whose changes `make` computes from the current document (nothing
    /// when it computes none).
    pub fn write(
        &self,
        writer: &Writer,
        wait: Duration,
        notes: &mut Vec<String>,
        make: impl FnOnce(&Versioned) -> Result<Change>,
    ) -> Result<Written> {
        let _lock = self.lock(wait)?;
        let (current, layout) = self.load_locked(notes)?;
        let change = make(&current)?;
        if change.ops.is_empty() {
            return Ok(Written {
                versions: 0,
                last: current.version,
                doc: current.doc,
            });
        }
        self.commit(writer, current, &layout, vec![change], notes)
    }

    /// Starts the store with `doc` as version 1; refuses when one exists.
    pub fn create(&self, writer: &Writer, doc: Value) -> Result<Written> {
        let _lock = self.lock(LOCK_WAIT)?;
        if self.exists() {
            return Err(Error::Failed(format!(
                "a context store already exists in {}: `baton ctx show` shows it; to start over, remove \
                 .baton/context.json and .baton/context/",
                self.root().display()
            )));
        }
        let start = Versioned {
            doc: Value::Null,
            version: 0,
        };
        let change = Change {
            cmd: "init".into(),
            ops: vec![Op::set(&super::path::DocPath::root(), doc)],
        };
        let mut notes = Vec::new();
        self.commit(writer, start, &Layout::default(), vec![change], &mut notes)
    }

    /// Writes each change as its own version, in one append and one document write.
    pub fn write_batch(&self, writer: &Writer, notes: &mut Vec<String>, changes: Vec<Change>) -> Result<Written> {
        let _lock = self.lock(LOCK_WAIT)?;
        let (current, layout) = self.load_locked(notes)?;
        self.commit(writer, current, &layout, changes, notes)
    }
}

/// Moves `context_version` on by one step, unless the change set it (or the whole document)
/// or changes nothing (a recovery record).
pub(super) fn advance_context_version(doc: &mut Value, ops: &mut Vec<Op>, version: u64) {
    if ops.is_empty() || ops.iter().any(|op| matches!(op.pointer(), "" | "/context_version")) || !doc.is_object() {
        return;
    }
    if let Some(next) = document::advance_version(doc.get("context_version"), version) {
        let op = Op::Set {
            path: "/context_version".into(),
            value: next.clone(),
        };
        doc["context_version"] = next;
        ops.push(op);
    }
}
