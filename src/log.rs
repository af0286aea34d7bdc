//! Diagnostics for code that must stay silent (hooks, statusline): with `BATON_LOG=path`
//! notes are appended to that file, otherwise dropped. Never writes to stderr.

use std::io::Write;

/// Appends one line to `$BATON_LOG` when it is set; any failure is ignored.
pub fn note(message: &str) {
    let Some(path) = std::env::var_os("BATON_LOG").filter(|p| !p.is_empty()) else {
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
