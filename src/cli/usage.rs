//! Usage errors: clap's error, said in baton's words (the flag, what it needs, what to do), so
//! that every command's usage error reads as it always has (tests/arguments.rs). An error in an
//! action (`baton ctx get`) names the action and ends with its usage; a wrong action names the
//! actions there are.

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
    let (command, depth) = whereabouts(error);
    let action = command.get_name().to_owned();
    let message = match error.kind() {
        ErrorKind::InvalidSubcommand if depth == 0 => return unknown_command(&get(ContextKind::InvalidSubcommand)),
        ErrorKind::InvalidSubcommand => format!(
            "unknown action '{}'; the actions are: {}",
            get(ContextKind::InvalidSubcommand),
            super::command_names(&command).join(", ")
        ),
        ErrorKind::MissingSubcommand | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            format!("name an action: {}", super::command_names(&command).join(", "))
        }
        ErrorKind::UnknownArgument if depth > 1 && arg.starts_with('-') => format!("{action} does not take {arg}"),
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
        ErrorKind::MissingRequiredArgument if depth > 1 => format!("{action} needs {}", missing(error, &command)),
        ErrorKind::MissingRequiredArgument => format!("name the {}", flag(&arg)),
        ErrorKind::InvalidUtf8 => "arguments must be UTF-8 text".to_owned(),
        _ => {
            let text = error.render().to_string();
            let first = text.lines().next().unwrap_or_default();
            first.trim_start_matches("error: ").to_owned()
        }
    };
    if depth > 1 {
        let usage = command.clone().render_usage().to_string();
        let usage = usage.trim_start_matches("Usage:").trim();
        return Error::Usage(format!("{message}; usage: {usage}"));
    }
    Error::Usage(message)
}

/// The command the error is about, built, found by following the words of its usage line
/// (`baton ctx get [OPTIONS] <PATH>`) through the command line; and how deep it is (0 for baton
/// itself, 1 for a command, 2 for an action of one).
fn whereabouts(error: &clap::Error) -> (clap::Command, usize) {
    let mut command = super::command();
    command.build();
    let usage = match error.get(ContextKind::Usage) {
        Some(ContextValue::StyledStr(text)) => text.to_string(),
        _ => return (command, 0),
    };
    let line = usage.lines().next().unwrap_or_default();
    let line = line.trim_start().trim_start_matches("Usage:").trim().to_owned();
    let mut depth = 0;
    for word in line.split_whitespace().skip(1) {
        let Some(sub) = command.find_subcommand(word).cloned() else {
            break;
        };
        command = sub;
        depth += 1;
    }
    (command, depth)
}

/// What an action misses, in its usage's words and with the help of the one argument missing:
/// `--keep N (keep the newest N versions)`, `VALUE | --file F | --stdin`.
fn missing(error: &clap::Error, action: &clap::Command) -> String {
    let names = match error.get(ContextKind::InvalidArg) {
        Some(ContextValue::Strings(all)) => all.clone(),
        Some(ContextValue::String(one)) => vec![one.clone()],
        _ => Vec::new(),
    };
    let said: Vec<String> = names.iter().map(|name| plain(name)).collect();
    let help = match names.as_slice() {
        [one] => action
            .get_arguments()
            .find(|a| a.to_string() == *one)
            .and_then(|a| a.get_help())
            .map(|help| format!(" ({})", lowercase_first(&help.to_string()))),
        _ => None,
    };
    format!("{}{}", said.join(" and "), help.unwrap_or_default())
}

/// An argument as a usage line shows it, without clap's brackets: `--keep <N>` is `--keep N`,
/// a group `<VALUE|--file <F>|--stdin>` is `VALUE | --file F | --stdin`.
fn plain(usage: &str) -> String {
    let group = usage
        .strip_prefix('<')
        .and_then(|u| u.strip_suffix('>'))
        .filter(|u| u.contains('|'));
    match group {
        Some(members) => members.split('|').map(plain).collect::<Vec<_>>().join(" | "),
        None => usage.replace(['<', '>'], ""),
    }
}

/// A help text to put inside a sentence: `The phase` is `the phase`, `JSON …` stays.
fn lowercase_first(text: &str) -> String {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(first), Some(second)) if !second.is_uppercase() => {
            format!("{}{}", first.to_lowercase(), &text[first.len_utf8()..])
        }
        _ => text.to_owned(),
    }
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
    use super::{flag, lowercase_first, needs, plain};

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

    #[test]
    fn a_missing_argument_is_said_as_its_usage_without_brackets() {
        assert_eq!(plain("--keep <N>"), "--keep N");
        assert_eq!(plain("<VALUE|--file <F>|--stdin>"), "VALUE | --file F | --stdin");
        assert_eq!(lowercase_first("The phase"), "the phase");
        assert_eq!(lowercase_first("JSON lines"), "JSON lines");
    }
}
