//! The slash commands baton ships (`commands/*.md`, built into the binary), installed under
//! `<claude dir>/commands/baton/` with baton's absolute path, never over a file of the user's
//! nor over one the user edited since baton wrote it.

use std::path::{Path, PathBuf};

use super::manifest::Manifest;
use crate::error::{Error, Result};
use crate::fsx;

/// Folder under `commands/`: the commands read `/baton:pause-work` and so on.
pub const NAMESPACE: &str = "baton";

/// The shipped commands: file name and contents (with `baton` as the program name). Not
/// `commands/setup.md`: it is the plugin's (it runs `baton install` to wire the statusline).
pub const SHIPPED: &[(&str, &str)] = &[
    ("pause-work.md", include_str!("../../commands/pause-work.md")),
    ("resume-work.md", include_str!("../../commands/resume-work.md")),
    ("progress.md", include_str!("../../commands/progress.md")),
    ("set-profile.md", include_str!("../../commands/set-profile.md")),
    ("ctx-get.md", include_str!("../../commands/ctx-get.md")),
    ("ctx-set.md", include_str!("../../commands/ctx-set.md")),
];

/// What to do with one command file.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Action {
    Write,
    /// Already there, as baton would write it.
    Unchanged,
    /// A different file of the user's is there: left alone.
    Foreign,
    /// Baton wrote it, and the user has changed it since: left alone.
    Edited,
}

/// One command file to write (or not).
#[derive(Debug, Clone)]
pub struct Planned {
    pub path: PathBuf,
    pub contents: String,
    pub action: Action,
}

/// The shipped commands with `baton` replaced by the binary's absolute path. An existing file
/// is replaced only when it still hashes to what an earlier install recorded (`recorded`).
pub fn plan(commands_dir: &Path, binary: &str, recorded: &Manifest) -> Vec<Planned> {
    let wiring = super::settings::Wiring::for_binary(binary);
    let program = &wiring.program;
    SHIPPED
        .iter()
        .map(|(name, text)| {
            let contents = text
                .replace("!`baton ", &format!("!`{program} "))
                .replace("Bash(baton:*)", &format!("Bash({}:*)", wiring.path));
            let path = commands_dir.join(NAMESPACE).join(name);
            let action = match std::fs::read_to_string(&path) {
                Ok(existing) if existing == contents => Action::Unchanged,
                Ok(existing) if recorded.wrote(&path, &hash(&existing)) => Action::Write,
                Ok(_) if recorded.has_command(&path) => Action::Edited,
                Ok(_) => Action::Foreign,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Action::Write,
                // Unreadable, or not a file: not ours to replace.
                Err(_) => Action::Foreign,
            };
            Planned { path, contents, action }
        })
        .collect()
}

/// Command files written, each with the hash of what was written.
pub type Written = Vec<(PathBuf, String)>;

/// Writes the planned files; returns what was written (files left alone are in the plan).
pub fn write(planned: &[Planned]) -> Result<Written> {
    let mut written = Vec::new();
    for p in planned {
        match p.action {
            Action::Foreign | Action::Edited => continue,
            Action::Unchanged => continue,
            Action::Write => {}
        }
        let dir = p.path.parent().unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        fsx::write_atomic(&p.path, p.contents.as_bytes(), 0o644, fsx::Durability::Durable)
            .map_err(|e| Error::io(&p.path, e))?;
        written.push((p.path.clone(), hash(&p.contents)));
    }
    Ok(written)
}

/// Splits recorded command files into those still as baton wrote them (to remove) and
/// those changed since (kept).
pub fn removable(recorded: &Manifest) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let mut remove = Vec::new();
    let mut keep = Vec::new();
    for c in &recorded.commands {
        match std::fs::read_to_string(&c.path) {
            Ok(text) if recorded.wrote(&c.path, &hash(&text)) => remove.push(c.path.clone()),
            Ok(_) => keep.push(c.path.clone()),
            Err(_) => {}
        }
    }
    (remove, keep)
}

/// Removes `commands/baton/` when it is empty.
pub fn remove_empty_dir(commands_dir: &Path) {
    let _ = std::fs::remove_dir(commands_dir.join(NAMESPACE));
}

/// The hash recorded for a command file's contents.
pub fn hash(text: &str) -> String {
    format!("{:016x}", fsx::fnv1a(text.as_bytes()))
}
