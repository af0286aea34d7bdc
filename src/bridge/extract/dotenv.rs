//! Environment variables declared in dotenv files (`.env.example`, `.env.sample`,
//! `.env.production`, `app.env`, Flask's `.flaskenv`, …). The format is a line format, read the way the dotenv
//! libraries read it: `#` comments, an optional `export`, `KEY=value` with spaces allowed
//! around `=`, and quoted values that run over several lines. Only names are kept: values
//! (which may be secrets) never leave the file, not even in `unparsed`.

use super::Source;
use crate::bridge::facts::{EnvVar, Facts};

/// Extracts the variable names of the dotenv files among `sources`.
pub fn extract(sources: &[Source<'_>]) -> Facts {
    let mut facts = Facts::default();
    for source in sources.iter().filter(|s| is_dotenv(s.file_name())) {
        let template = ["example", "sample", "template"]
            .iter()
            .any(|w| source.file_name().contains(w));
        let kind = if template { ".env.example" } else { ".env" };
        let (names, bad_lines) = names(source.text);
        facts.env_vars.extend(names.into_iter().map(|name| EnvVar {
            name,
            source: kind.into(),
            file: source.path.to_owned(),
        }));
        facts.unparsed.extend(
            bad_lines
                .into_iter()
                .map(|line| format!("{}:{line}: not a KEY=value line", source.path)),
        );
    }
    facts
}

/// `.env`, `.env.example`, `.env.local`, `production.env`, Flask's `.flaskenv` (not `.envrc`,
/// a shell script).
pub fn is_dotenv(name: &str) -> bool {
    name == ".env" || name == ".flaskenv" || name.starts_with(".env.") || (name.ends_with(".env") && name.len() > 4)
}

/// The names declared, once each in order, and the numbers of lines that declare nothing readable.
fn names(text: &str) -> (Vec<String>, Vec<usize>) {
    let mut names: Vec<String> = Vec::new();
    let mut bad = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((n, line)) = lines.next() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let line = line.strip_prefix("export ").map_or(line, str::trim_start);
        let Some((key, value)) = line.split_once('=') else {
            bad.push(n + 1);
            continue;
        };
        let key = key.trim();
        if !is_name(key) {
            bad.push(n + 1);
            continue;
        }
        if !names.iter().any(|k| k == key) {
            names.push(key.to_owned());
        }
        // A quoted value left open runs until the line that closes it.
        let value = value.trim_start();
        if let Some(quote) = value.chars().next().filter(|c| matches!(c, '"' | '\'' | '`'))
            && !closes(&value[1..], quote)
        {
            for (_, next) in lines.by_ref() {
                if closes(next, quote) {
                    break;
                }
            }
        }
    }
    (names, bad)
}

/// Whether `text` holds the closing `quote` (a `\"` inside double quotes does not close).
fn closes(text: &str, quote: char) -> bool {
    let mut escaped = false;
    for c in text.chars() {
        match c {
            '\\' if quote == '"' && !escaped => escaped = true,
            c if c == quote && !escaped => return true,
            _ => escaped = false,
        }
    }
    false
}

fn is_name(key: &str) -> bool {
    let mut chars = key.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_exports_multiline_values_and_bad_lines() {
        let text = "# Database\nDATABASE_URL=postgres://app:secret@localhost:5432/app\n\
                    export REDIS_URL = redis://localhost:6379\n\n\
                    PRIVATE_KEY=\"-----BEGIN KEY-----\nNOT_A_NAME=inside the value\n-----END KEY-----\"\n\
                    GREETING='it''s'\nDATABASE_URL=again\nthis line is junk\n1BAD=x\nEMPTY=\n";
        let (names, bad) = names(text);
        assert_eq!(names, ["DATABASE_URL", "REDIS_URL", "PRIVATE_KEY", "GREETING", "EMPTY"]);
        assert_eq!(bad, [10, 11]);
    }

    #[test]
    fn values_never_reach_the_facts() {
        let facts = extract(&[Source {
            path: "api/.env.example",
            text: "STRIPE_KEY=sk_live_123\nnot valid sk_live_456\n",
        }]);
        let shown = serde_json::to_string(&facts).unwrap();
        assert!(!shown.contains("sk_live"), "{shown}");
        assert_eq!(facts.env_vars[0].source, ".env.example");
        assert_eq!(facts.unparsed, ["api/.env.example:2: not a KEY=value line"]);
    }

    #[test]
    fn dotenv_names() {
        for name in [".env", ".env.example", ".env.production.local", "prod.env", ".flaskenv"] {
            assert!(is_dotenv(name), "{name}");
        }
        for name in [".envrc", "env", "environment.ts", ".env-cmdrc"] {
            assert!(!is_dotenv(name), "{name}");
        }
    }
}
