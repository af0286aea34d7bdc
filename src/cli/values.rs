//! How the values of flags and words are read: each parser's error is the words that follow the
//! flag's name in the usage error (`--out needs a file, not an empty string`), see `usage.rs`.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::builder::{OsStringValueParser, TypedValueParser};

/// Text: any UTF-8; other bytes are refused, never replaced.
pub fn text() -> impl TypedValueParser<Value = String> {
    OsStringValueParser::new().try_map(utf8)
}

/// A file: any bytes the system allows, but not empty.
pub fn file() -> impl TypedValueParser<Value = PathBuf> {
    OsStringValueParser::new().try_map(|value| not_empty(value, "a file"))
}

/// A directory that exists, made absolute.
pub fn dir() -> impl TypedValueParser<Value = PathBuf> {
    OsStringValueParser::new().try_map(|value| {
        let dir = not_empty(value, "a directory")?;
        match crate::platform::path::canonical(&dir) {
            Ok(real) if real.is_dir() => Ok(real),
            Ok(_) => Err(format!("{}: not a directory", dir.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(format!("{}: no such directory", dir.display())),
            Err(e) => Err(format!("{}: {e}", dir.display())),
        }
    })
}

/// A whole number (`--at 12`, `-n 5`).
pub fn whole<T: std::str::FromStr + Clone + Send + Sync + 'static>() -> impl TypedValueParser<Value = T> {
    text().try_map(|v| v.parse::<T>().map_err(|_| format!("needs a whole number, not {v:?}")))
}

/// A finite number (`--quality 0.9`).
pub fn number() -> impl TypedValueParser<Value = f64> {
    text().try_map(|v| {
        v.parse::<f64>()
            .ok()
            .filter(|q| q.is_finite())
            .ok_or_else(|| format!("needs a number, not {v:?}"))
    })
}

/// A count of items (`--top 5`).
pub fn count() -> impl TypedValueParser<Value = usize> {
    text().try_map(|v| {
        v.parse()
            .map_err(|_| format!("{v:?}: give a count of items, e.g. --top 5"))
    })
}

fn utf8(value: OsString) -> Result<String, String> {
    value
        .into_string()
        .map_err(|v| format!("must be UTF-8 text, not {}", v.to_string_lossy()))
}

fn not_empty(value: OsString, what: &str) -> Result<PathBuf, String> {
    if value.is_empty() {
        return Err(format!("needs {what}, not an empty string"));
    }
    Ok(PathBuf::from(value))
}
