//! The command lines baton's settings entries run, for one binary: the program word written
//! for the shell Claude Code runs it in on this system (`platform::shell`), the statusLine
//! entry and the hook groups, and re-pointing an entry that runs another baton binary.

use serde_json::{Value, json};

use super::command_line::{BatonCommand, split_program};
use crate::platform::Family;
use crate::platform::shell::{self, Shell};

/// Seconds Claude Code gives each baton hook.
pub const HOOK_TIMEOUT: u64 = 10;

/// The command lines baton's entries run, for one binary path.
#[derive(Debug, Clone, PartialEq)]
pub struct Wiring {
    /// The binary as the shell should see it (quoted when needed).
    pub program: String,
    /// The binary's path as a command line names it once unquoted (forward slashes on Windows).
    pub path: String,
    /// The hook entries' `"shell"`, when the program is written for a shell that must be pinned.
    pub shell_field: Option<&'static str>,
    /// Whether the hook groups are wired too (not when the baton plugin gives them).
    pub hooks: bool,
}

impl Wiring {
    /// Wiring for the binary at `path` (absolute), for the shell Claude Code runs commands in here.
    pub fn for_binary(path: &str) -> Self {
        Self::for_binary_on(path, Family::CURRENT, shell::command_shell())
    }

    /// Wiring for the binary at `path` on `family`, for commands run by `shell`.
    pub fn for_binary_on(path: &str, family: Family, shell: Shell) -> Self {
        let program = shell::program_word(path, family, shell);
        let path = match family {
            Family::Unix => path.to_owned(),
            Family::Windows => path.replace('\\', "/"),
        };
        // A bare word runs in every shell; a quoted one only in the shell it was quoted for.
        let shell_field = if program == path { None } else { shell.hook_field() };
        Self {
            program,
            path,
            shell_field,
            hooks: true,
        }
    }

    /// The `statusLine` entry that runs this binary.
    pub fn statusline(&self) -> Value {
        json!({"type": "command", "command": format!("{} statusline", self.program), "padding": 0})
    }

    /// The hook group baton adds for `event`.
    pub fn hook_group(&self, matcher: Option<&str>) -> Value {
        let mut hook = json!({"type": "command", "command": format!("{} hook", self.program), "timeout": HOOK_TIMEOUT});
        if let Some(shell) = self.shell_field {
            hook["shell"] = json!(shell);
        }
        match matcher {
            Some(m) => json!({"matcher": m, "hooks": [hook]}),
            None => json!({"hooks": [hook]}),
        }
    }

    /// `command` re-pointed at this binary when it runs baton from another path; `None` when
    /// it already runs this one, is not baton's, or names no path (bare `baton`, the plugin form).
    pub fn repointed(&self, command: &str) -> Option<String> {
        let parsed = BatonCommand::parse(command)?;
        if parsed.is_plugin_form() || !parsed.program.contains(['/', '\\']) || parsed.program == self.path {
            return None;
        }
        let (_, rest) = split_program(command)?;
        Some(format!("{} {rest}", self.program))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::install::settings::{EVENTS, StatuslinePolicy, merge};

    #[test]
    fn the_command_lines_install_writes_on_each_platform() {
        let unix = Wiring::for_binary_on("/Users/Jane Doe/bin/baton", Family::Unix, Shell::Posix);
        assert_eq!(unix.statusline()["command"], "'/Users/Jane Doe/bin/baton' statusline");
        assert_eq!(
            unix.hook_group(Some("*")),
            json!({"matcher": "*", "hooks": [{"type": "command", "command": "'/Users/Jane Doe/bin/baton' hook", "timeout": HOOK_TIMEOUT}]})
        );
        let plain = r"C:\Users\jane\.cargo\bin\baton.exe";
        for shell in [Shell::Posix, Shell::PowerShell] {
            let w = Wiring::for_binary_on(plain, Family::Windows, shell);
            assert_eq!(
                w.statusline()["command"],
                "C:/Users/jane/.cargo/bin/baton.exe statusline"
            );
            assert_eq!(
                w.hook_group(None),
                json!({"hooks": [{"type": "command", "command": "C:/Users/jane/.cargo/bin/baton.exe hook", "timeout": HOOK_TIMEOUT}]}),
                "a bare path runs in Git Bash and PowerShell alike: no shell is pinned"
            );
        }
        let spaced = r"C:\Users\Jane Doe\AppData\Local\Programs\baton\baton.exe";
        let git_bash = Wiring::for_binary_on(spaced, Family::Windows, Shell::Posix);
        assert_eq!(
            git_bash.hook_group(None)["hooks"][0],
            json!({"type": "command", "command": "'C:/Users/Jane Doe/AppData/Local/Programs/baton/baton.exe' hook", "timeout": HOOK_TIMEOUT})
        );
        let powershell = Wiring::for_binary_on(spaced, Family::Windows, Shell::PowerShell);
        assert_eq!(
            powershell.statusline()["command"],
            "& 'C:/Users/Jane Doe/AppData/Local/Programs/baton/baton.exe' statusline"
        );
        assert_eq!(
            powershell.hook_group(None)["hooks"][0],
            json!({"type": "command", "command": "& 'C:/Users/Jane Doe/AppData/Local/Programs/baton/baton.exe' hook",
                   "timeout": HOOK_TIMEOUT, "shell": "powershell"})
        );
        // Each is recognised as baton's, and merging it twice adds nothing.
        for w in [&unix, &git_bash, &powershell] {
            let mut settings = json!({});
            merge(&mut settings, w, StatuslinePolicy::Refuse).unwrap();
            let again = merge(&mut settings, w, StatuslinePolicy::Refuse).unwrap();
            assert!(again.added_groups.is_empty() && again.repointed.is_empty(), "{w:?}");
            assert_eq!(again.already.len(), EVENTS.len(), "{w:?}");
        }
    }
}
