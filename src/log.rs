//! Diagnostics for code that must stay silent (hooks, statusline): with `BATON_LOG=path`
//! notes are appended to that file, otherwise dropped. Never writes to stderr.
//! `BATON_LOG=debug` names no file: it asks commands for their errors' causes (`cli`).

use std::io::Write;

/// The value of `BATON_LOG` that asks commands for their errors' causes on stderr.
const DEBUG: &str = "debug";

/// `BATON_LOG=debug` is set.
pub fn debug() -> bool {
    std::env::var_os("BATON_LOG").is_some_and(|v| v == DEBUG)
}

/// Appends one line to `$BATON_LOG` when it names a file; any failure is ignored.
pub fn note(message: &str) {
    let Some(path) = std::env::var_os("BATON_LOG").filter(|p| !p.is_empty() && p != DEBUG) else {
        return;
    };
    let line = format!(
        "{} baton[{}]: {}\n",
        chrono::Utc::now().to_rfc3339(),
        std::process::id(),
        message
    );
    if let Ok(mut file) = std::fs::OpenOptions::new().create(true).append(true).open(path) {
        let _ = file.write_all(line.as_bytes());
    }
}
