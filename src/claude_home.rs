//! Where Claude Code keeps its own files, in one place: the config dir (`$CLAUDE_CONFIG_DIR`,
//! else `~/.claude`), the session transcripts under it, and its list of installed plugins.

use std::path::PathBuf;

/// Claude Code's config dir: `$CLAUDE_CONFIG_DIR`, else `~/.claude`.
pub fn config_dir() -> Option<PathBuf> {
    match std::env::var_os("CLAUDE_CONFIG_DIR") {
        Some(dir) if !dir.is_empty() => Some(PathBuf::from(dir)),
        _ => dirs::home_dir().map(|h| h.join(".claude")),
    }
}

/// Claude Code's list of installed plugins: `installed_plugins.json` in
/// `$CLAUDE_CODE_PLUGIN_CACHE_DIR`, else in `<config dir>/plugins` (read from 2.1.197's code).
pub fn installed_plugins_file() -> Option<PathBuf> {
    match std::env::var_os("CLAUDE_CODE_PLUGIN_CACHE_DIR") {
        Some(dir) if !dir.is_empty() => Some(PathBuf::from(dir).join("installed_plugins.json")),
        _ => config_dir().map(|d| d.join("plugins").join("installed_plugins.json")),
    }
}

/// The directories holding session transcripts: `<config dir>/projects`, and without
/// `$CLAUDE_CONFIG_DIR` also `~/.config/claude/projects` (newer installs).
pub fn projects_dirs() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = config_dir().map(|d| d.join("projects")).into_iter().collect();
    if std::env::var_os("CLAUDE_CONFIG_DIR").is_none_or(|d| d.is_empty())
        && let Some(home) = dirs::home_dir()
    {
        dirs.push(home.join(".config").join("claude").join("projects"));
    }
    dirs
}
