//! Where Claude Code keeps its own files, in one place: the config dir (`$CLAUDE_CONFIG_DIR`,
//! else `~/.claude`) and the session transcripts under it.

use std::path::PathBuf;

/// Claude Code's config dir: `$CLAUDE_CONFIG_DIR`, else `~/.claude`.
pub fn config_dir() -> Option<PathBuf> {
    match std::env::var_os("CLAUDE_CONFIG_DIR") {
        Some(dir) if !dir.is_empty() => Some(PathBuf::from(dir)),
        _ => dirs::home_dir().map(|h| h.join(".claude")),
    }
}

/// The directories holding session transcripts: `<config dir>/projects`, and without
/// `$CLAUDE_CONFIG_DIR` also `~/.config/claude/projects` (newer installs).
pub fn projects_dirs() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = config_dir().map(|d| d.join("projects")).into_iter().collect();
    if std::env::var_os("CLAUDE_CONFIG_DIR").is_none_or(|d| d.is_empty())
        && let Some(home) = dirs::home_dir()
    {
        dirs.push(home.join(".config/claude/projects"));
    }
    dirs
}
