//! Usage errors: clap's error, said in baton's words (the flag, what it needs, what to do), so
//! that every command's usage error reads as it always has (tests/arguments.rs).

use clap::error::{ContextKind, ContextValue, ErrorKind};

use crate::error::Error;

/// The usage error for clap's `error`.
pub fn from_clap(error: &clap::Error) -> Error {
    let get = |kind| match error.get(kind) {
        Some(ContextValue::String(s)) => s.clone(),
        Some(ContextValue::Strings(all)) => all.join(", "),
        _ => String::new(),
    };
    let arg = get(ContextKind::InvalidArg);
    let value = get(ContextKind::InvalidValue);
    let message = match error.kind() {
        ErrorKind::InvalidSubcommand => return unknown_command(&get(ContextKind::InvalidSubcommand)),
        ErrorKind::UnknownArgument if arg.starts_with('-') => format!("invalid option '{arg}'"),
        ErrorKind::UnknownArgument => format!("unexpected argument '{arg}'"),
        ErrorKind::InvalidValue if value.is_empty() => format!("{} needs {}", flag(&arg), needs(&arg)),
        ErrorKind::InvalidValue => format!(
            "{} '{value}' is not one of: {}",
            flag(&arg),
            get(ContextKind::ValidValue)
        ),
        ErrorKind::ValueValidation => {
            let why = std::error::Error::source(error).map_or_else(String::new, ToString::to_string);
            format!("{} {why}", flag(&arg))
        }
        ErrorKind::TooManyValues => format!("{} takes no value, not '{value}'", flag(&arg)),
        ErrorKind::ArgumentConflict => {
            format!("give {} or {}, not both", flag(&arg), flag(&get(ContextKind::PriorArg)))
        }
        ErrorKind::MissingRequiredArgument => format!("name the {}", flag(&arg)),
        ErrorKind::InvalidUtf8 => "arguments must be UTF-8 text".to_owned(),
        _ => {
            let text = error.render().to_string();
            let first = text.lines().next().unwrap_or_default();
            first.trim_start_matches("error: ").to_owned()
        }
    };
    Error::Usage(message)
}

/// A word that names no command.
pub fn unknown_command(name: &str) -> Error {
    Error::Usage(format!(
        "unknown command '{name}'; the commands are: {}",
        super::command_names(&super::command()).join(", ")
    ))
}

/// The flag of `--out <FILE>`, or the name of a word (`[WORDS]...` is WORDS).
fn flag(arg: &str) -> &str {
    arg.split(' ')
        .next()
        .unwrap_or_default()
        .trim_matches(['<', '>', '[', ']', '.'])
}

/// What a flag's value is, from its value name: `--out <FILE>` needs a file.
fn needs(arg: &str) -> &'static str {
    match arg.split(' ').nth(1).unwrap_or_default().trim_matches(['<', '>', '.']) {
        "FILE" => "a file",
        "DIR" => "a directory",
        _ => "a value",
    }
}

#[cfg(test)]
mod tests {
    use super::{flag, needs};

    #[test]
    fn the_flag_and_what_it_needs_come_from_its_usage() {
        assert_eq!((flag("--out <FILE>"), needs("--out <FILE>")), ("--out", "a file"));
        assert_eq!(
            (flag("--project <DIR>"), needs("--project <DIR>")),
            ("--project", "a directory")
        );
        assert_eq!((flag("--note <TEXT>"), needs("--note <TEXT>")), ("--note", "a value"));
        assert_eq!((flag("[WORDS]..."), flag("<SHELL>")), ("WORDS", "SHELL"));
    }
}
