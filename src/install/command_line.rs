//! Reading the command lines in settings.json: shell quoting, the program word, and whether
//! a line runs baton (any path, quoted or not, or the plugin form) as statusline or hook.

/// Quotes a path for a POSIX shell when it holds anything but safe characters.
pub fn shell_quote(path: &str) -> String {
    if !path.is_empty()
        && path
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/._-+,:@".contains(&b))
    {
        path.to_owned()
    } else {
        format!("'{}'", path.replace('\'', "'\\''"))
    }
}

/// The first word of a shell command line, unquoted (single quotes, double quotes and
/// backslashes as a POSIX shell reads them; `$VAR` is kept as written), and the rest.
/// `None` for an unterminated quote or an empty line.
pub fn split_program(command: &str) -> Option<(String, &str)> {
    let command = command.trim_start();
    let mut program = String::new();
    let mut chars = command.char_indices();
    let mut end = command.len();
    while let Some((i, c)) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                end = i;
                break;
            }
            '\\' => program.push(chars.next()?.1),
            '\'' => loop {
                match chars.next()?.1 {
                    '\'' => break,
                    c => program.push(c),
                }
            },
            '"' => loop {
                match chars.next()?.1 {
                    '"' => break,
                    '\\' => {
                        let (_, next) = chars.next()?;
                        if !matches!(next, '"' | '\\' | '$' | '`') {
                            program.push('\\');
                        }
                        program.push(next);
                    }
                    c => program.push(c),
                }
            },
            c => program.push(c),
        }
    }
    (!program.is_empty()).then(|| (program, command[end..].trim()))
}

/// A command line that runs baton as statusline, hook or monitor: its program (unquoted,
/// as written: an absolute path, bare `baton`, or the plugin's `${CLAUDE_PLUGIN_ROOT}/bin/baton`)
/// and the mode.
#[derive(Debug, Clone, PartialEq)]
pub struct BatonCommand {
    pub program: String,
    pub mode: String,
}

impl BatonCommand {
    /// Reads a settings command line; `None` when it does not run baton.
    pub fn parse(command: &str) -> Option<Self> {
        let (program, rest) = split_program(command)?;
        let name = program.rsplit('/').next().unwrap_or(&program);
        let mode = rest.split_whitespace().next()?;
        (name == "baton" && matches!(mode, "hook" | "statusline" | "monitor")).then(|| Self {
            mode: mode.to_owned(),
            program,
        })
    }

    /// The plugin form (`${CLAUDE_PLUGIN_ROOT}/bin/baton`): the plugin's shim picks the binary.
    pub fn is_plugin_form(&self) -> bool {
        self.program.starts_with("${CLAUDE_PLUGIN_ROOT}") || self.program.starts_with("$CLAUDE_PLUGIN_ROOT")
    }
}

/// Whether a command line runs baton (any path, quoted or not, or the plugin form) as
/// statusline, hook or monitor.
pub fn is_baton_command(command: &str) -> bool {
    BatonCommand::parse(command).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_baton_commands_however_written() {
        for yes in [
            "baton hook",
            "/x/baton statusline",
            "'/my dir/baton' hook",
            "baton monitor",
            "  baton hook  ",
            "${CLAUDE_PLUGIN_ROOT}/bin/baton hook",
            "\"${CLAUDE_PLUGIN_ROOT}/bin/baton\" statusline",
            "'/my dir/it'\\''s/baton' hook",
            "/my\\ dir/baton hook",
        ] {
            assert!(is_baton_command(yes), "{yes}");
        }
        for no in [
            "node gsd-context-monitor.js",
            "batonx hook",
            "baton pause",
            "npx ccstatusline",
            "echo baton hook",
            "'/x/baton",
        ] {
            assert!(!is_baton_command(no), "{no}");
        }
        assert_eq!(shell_quote("/my dir/it's/baton"), "'/my dir/it'\\''s/baton'");
        let parsed = BatonCommand::parse(&format!("{} statusline", shell_quote("/my dir/it's/baton"))).unwrap();
        assert_eq!(parsed.program, "/my dir/it's/baton");
        assert_eq!(parsed.mode, "statusline");
        assert!(
            BatonCommand::parse("${CLAUDE_PLUGIN_ROOT}/bin/baton hook")
                .unwrap()
                .is_plugin_form()
        );
    }
}
