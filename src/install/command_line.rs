//! Reading the command lines in settings.json: the program word (as a POSIX shell or, after
//! PowerShell's `&`, as PowerShell reads it), and whether a line runs baton (any path, quoted
//! or not, `baton.exe`, or the plugin form) as statusline or hook. Writing them is
//! `platform::shell`.

/// The first word of a shell command line, unquoted (single quotes, double quotes and
/// backslashes as a POSIX shell reads them; `$VAR` is kept as written), and the rest. A line
/// that starts with PowerShell's call operator (`& 'C:/My Tools/baton.exe' hook`) is read as
/// PowerShell reads it. `None` for an unterminated quote or an empty line.
pub fn split_program(command: &str) -> Option<(String, &str)> {
    let command = command.trim_start();
    if let Some(rest) = command.strip_prefix("& ") {
        return split_powershell_program(rest.trim_start());
    }
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

/// The word after PowerShell's `&`: single-quoted (`''` is a quote), double-quoted, or bare.
fn split_powershell_program(command: &str) -> Option<(String, &str)> {
    let mut program = String::new();
    let mut chars = command.char_indices().peekable();
    let end = match chars.next()? {
        (_, quote @ ('\'' | '"')) => loop {
            let (i, c) = chars.next()?;
            if c != quote {
                program.push(c);
            } else if chars.peek().is_some_and(|&(_, next)| next == quote) {
                chars.next();
                program.push(quote);
            } else {
                break i + 1;
            }
        },
        _ => {
            let end = command.find(char::is_whitespace).unwrap_or(command.len());
            program.push_str(&command[..end]);
            end
        }
    };
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
        let name = program.rsplit(['/', '\\']).next().unwrap_or(&program);
        let name = match name.len().checked_sub(4) {
            Some(stem) if name.is_char_boundary(stem) && name[stem..].eq_ignore_ascii_case(".exe") => &name[..stem],
            _ => name,
        };
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
        let parsed = BatonCommand::parse("'/my dir/it'\\''s/baton' statusline").unwrap();
        assert_eq!(parsed.program, "/my dir/it's/baton");
        assert_eq!(parsed.mode, "statusline");
        assert!(
            BatonCommand::parse("${CLAUDE_PLUGIN_ROOT}/bin/baton hook")
                .unwrap()
                .is_plugin_form()
        );
    }

    #[test]
    fn recognises_the_command_lines_install_writes_on_windows() {
        use crate::platform::Family;
        use crate::platform::shell::{Shell, program_word};
        let path = r"C:\Users\Jane O'Neil\My Tools\baton.exe";
        for shell in [Shell::Posix, Shell::PowerShell] {
            let line = format!("{} hook", program_word(path, Family::Windows, shell));
            let parsed = BatonCommand::parse(&line).unwrap_or_else(|| panic!("{line}"));
            assert_eq!(parsed.program, "C:/Users/Jane O'Neil/My Tools/baton.exe", "{line}");
            assert_eq!(parsed.mode, "hook");
        }
        for yes in [
            "C:/Users/jane/.local/bin/baton.exe statusline",
            "\"C:\\Users\\jane\\baton.EXE\" hook",
            "& \"C:/My Tools/baton.exe\" hook",
            "& C:/tools/baton.exe monitor",
        ] {
            assert!(is_baton_command(yes), "{yes}");
        }
        for no in [
            "& 'C:/tools/batonexe' hook",
            "C:/tools/baton.exe.bak hook",
            "& 'unterminated hook",
        ] {
            assert!(!is_baton_command(no), "{no}");
        }
    }
}
