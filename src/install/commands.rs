//! The slash commands baton ships (the plugin's `plugin/commands/*.md`, built into the binary),
//! installed under `<claude dir>/commands/baton/` with baton's absolute path, never over a file
//! of the user's nor over one the user edited since baton wrote it. Each runs baton in a fenced
//! `!` block that hands the user's arguments over as data, in a quoted heredoc that
//! `--args-stdin` reads (`cli::stdin_args`).

use std::path::{Path, PathBuf};

use super::manifest::Manifest;
use crate::error::{Error, Result};
use crate::fsx;
use crate::platform::Family;
use crate::platform::shell::{self, Shell};

/// Folder under `commands/`: the commands read `/baton:pause-work` and so on.
pub const NAMESPACE: &str = "baton";

/// The shipped commands: file name and contents (with `baton` as the program name). Not
/// `setup.md`: it is the plugin's (it runs `baton install` to wire the statusline).
pub const SHIPPED: &[(&str, &str)] = &[
    ("pause-work.md", include_str!("../../plugin/commands/pause-work.md")),
    ("resume-work.md", include_str!("../../plugin/commands/resume-work.md")),
    ("progress.md", include_str!("../../plugin/commands/progress.md")),
    ("set-profile.md", include_str!("../../plugin/commands/set-profile.md")),
    ("ctx-get.md", include_str!("../../plugin/commands/ctx-get.md")),
    ("ctx-set.md", include_str!("../../plugin/commands/ctx-set.md")),
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
    // The Bash tool runs a POSIX shell on every system (Git Bash on Windows).
    let program = shell::program_word(binary, Family::CURRENT, Shell::Posix);
    SHIPPED
        .iter()
        .map(|(name, text)| {
            let contents = installed(text, &program);
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

/// `allowed-tools` as the plugin's commands write it (`baton` on the plugin's PATH).
const SHIPPED_ALLOWED: &str = "allowed-tools: Bash(baton:*)";

/// A shipped command as installed, running `program` (the binary's shell word): its `!` block
/// and the commands its prose names, and `allowed-tools` naming the program word exactly as the
/// block writes it, YAML-quoted. Claude Code's permission check matches the command line as
/// written: with a space in the path, a rule naming the bare path requires approval
/// (probe/FINDINGS.md §13).
fn installed(text: &str, program: &str) -> String {
    let rule = format!("Bash({program}:*)");
    let allowed = format!("allowed-tools: \"{}\"", rule.replace('\\', "\\\\").replace('"', "\\\""));
    text.replace(SHIPPED_ALLOWED, &allowed)
        .replace("```!\nbaton ", &format!("```!\n{program} "))
        .replace("`baton ", &format!("`{program} "))
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
