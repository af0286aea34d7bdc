//! The shell Claude Code runs a settings.json command in, and how baton's path is written for
//! it. On Unix that is `sh -c`/`bash -c`. On Windows Claude Code (2.1.197 and 2.1.332, read in
//! its bundled settings schema and hook runner) runs hook and statusline commands through Git
//! Bash when it finds it, else through PowerShell; a hook entry may pin one with
//! `"shell": "bash" | "powershell"`. Git Bash reads backslashes as escapes, so Windows paths
//! are written with forward slashes, which PowerShell accepts too. A path that needs no
//! quoting is the same word in both shells; one with spaces is quoted for the shell that
//! will run it (`'C:/My Tools/baton.exe'` in Git Bash, `& 'C:/My Tools/baton.exe'` in
//! PowerShell, where a quoted string alone is a value, not a command).

use std::ffi::OsString;
use std::path::Path;

use super::Family;

/// The shell a command line in settings.json is run by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shell {
    /// `sh`/`bash` (Unix, and Git Bash on Windows).
    Posix,
    /// PowerShell (Windows without Git Bash).
    PowerShell,
}

impl Shell {
    /// The value of a hook entry's `"shell"` field that pins this shell, when it must be
    /// pinned: a PowerShell command line would break if Git Bash appeared later.
    pub fn hook_field(self) -> Option<&'static str> {
        match self {
            Shell::Posix => None,
            Shell::PowerShell => Some("powershell"),
        }
    }
}

/// The shell Claude Code on this system runs commands in.
pub fn command_shell() -> Shell {
    command_shell_for(Family::CURRENT, |name| std::env::var_os(name), |path| path.is_file())
}

/// [`command_shell`] for `family`, given its environment and a test for existing files.
/// Windows: Git Bash where Claude Code looks for it (`CLAUDE_CODE_GIT_BASH_PATH`, the
/// `bin\bash.exe` of the Git whose `git.exe` is on `PATH`, the standard install folders);
/// PowerShell when there is none.
pub fn command_shell_for(
    family: Family,
    env: impl Fn(&str) -> Option<OsString>,
    exists: impl Fn(&Path) -> bool,
) -> Shell {
    if family == Family::Unix {
        return Shell::Posix;
    }
    // Windows paths are put together as text, so that this runs (and is tested) anywhere.
    let mut candidates: Vec<String> = env("CLAUDE_CODE_GIT_BASH_PATH")
        .map(|p| p.to_string_lossy().into_owned())
        .into_iter()
        .collect();
    if let Some(path) = env("PATH") {
        for dir in path.to_string_lossy().split(';').filter(|d| !d.is_empty()) {
            let dir = dir.trim_end_matches(['\\', '/']);
            if exists(Path::new(&format!("{dir}\\git.exe")))
                && let Some((git_root, _)) = dir.rsplit_once(['\\', '/'])
            {
                candidates.push(format!("{git_root}\\bin\\bash.exe"));
            }
        }
    }
    for (var, below) in [
        ("ProgramFiles", "Git"),
        ("ProgramW6432", "Git"),
        ("ProgramFiles(x86)", "Git"),
        ("LOCALAPPDATA", "Programs\\Git"),
    ] {
        if let Some(base) = env(var) {
            candidates.push(format!("{}\\{below}\\bin\\bash.exe", base.to_string_lossy()));
        }
    }
    if candidates.iter().any(|c| exists(Path::new(c))) {
        Shell::Posix
    } else {
        Shell::PowerShell
    }
}

/// The program word that runs `path` in `shell` on `family`: forward slashes on Windows, and
/// quoted only when the path holds more than letters, digits and `/._-:` (plus `+,@` for a
/// POSIX shell).
pub fn program_word(path: &str, family: Family, shell: Shell) -> String {
    let path = match family {
        Family::Unix => path.to_owned(),
        Family::Windows => path.replace('\\', "/"),
    };
    match shell {
        Shell::Posix => posix_quote(&path),
        Shell::PowerShell => powershell_word(&path),
    }
}

/// The word the agent's shell (the Bash tool: a POSIX shell on every system) runs this very
/// binary by: its absolute path, quoted as needed; `baton` when the system cannot say.
pub fn this_program() -> String {
    match std::env::current_exe() {
        Ok(path) => program_word(&path.to_string_lossy(), Family::CURRENT, Shell::Posix),
        Err(_) => "baton".to_owned(),
    }
}

/// Quotes a word for a POSIX shell when it holds anything but safe characters.
pub fn posix_quote(word: &str) -> String {
    if !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/._-+,:@".contains(&b))
    {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// A PowerShell command word: bare when safe, else the call operator and a single-quoted
/// string (a `'` inside is doubled).
fn powershell_word(word: &str) -> String {
    if !word.is_empty() && word.bytes().all(|b| b.is_ascii_alphanumeric() || b"/._-:".contains(&b)) {
        word.to_owned()
    } else {
        format!("& '{}'", word.replace('\'', "''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<OsString> {
        move |name| pairs.iter().find(|(k, _)| *k == name).map(|(_, v)| OsString::from(v))
    }

    #[test]
    fn unix_commands_run_in_sh() {
        assert_eq!(command_shell_for(Family::Unix, env(&[]), |_| false), Shell::Posix);
        assert_eq!(
            program_word("/home/u/.local/bin/baton", Family::Unix, Shell::Posix),
            "/home/u/.local/bin/baton"
        );
        assert_eq!(
            program_word("/Users/Jane Doe/bin/it's/baton", Family::Unix, Shell::Posix),
            r"'/Users/Jane Doe/bin/it'\''s/baton'"
        );
    }

    #[test]
    fn windows_finds_git_bash_where_claude_code_looks() {
        let git_on_path = |p: &Path| {
            let p = p.to_string_lossy().replace('\\', "/");
            p == "D:/Git/cmd/git.exe" || p == "D:/Git/bin/bash.exe"
        };
        let path = env(&[("PATH", r"C:\Windows;D:\Git\cmd")]);
        assert_eq!(command_shell_for(Family::Windows, path, git_on_path), Shell::Posix);
        let standard = |p: &Path| p.to_string_lossy().replace('\\', "/") == "C:/Program Files/Git/bin/bash.exe";
        let env_pf = env(&[("ProgramFiles", r"C:\Program Files")]);
        assert_eq!(command_shell_for(Family::Windows, env_pf, standard), Shell::Posix);
        let custom = |p: &Path| p.to_string_lossy() == r"E:\tools\bash.exe";
        let env_custom = env(&[("CLAUDE_CODE_GIT_BASH_PATH", r"E:\tools\bash.exe")]);
        assert_eq!(command_shell_for(Family::Windows, env_custom, custom), Shell::Posix);
        let none = env(&[("PATH", r"C:\Windows"), ("ProgramFiles", r"C:\Program Files")]);
        assert_eq!(command_shell_for(Family::Windows, none, |_| false), Shell::PowerShell);
    }

    #[test]
    fn windows_paths_are_written_for_git_bash_and_powershell() {
        let plain = r"C:\Users\jane\.local\bin\baton.exe";
        for shell in [Shell::Posix, Shell::PowerShell] {
            assert_eq!(
                program_word(plain, Family::Windows, shell),
                "C:/Users/jane/.local/bin/baton.exe",
                "{shell:?}"
            );
        }
        let spaced = r"C:\Users\Jane O'Neil\My Tools\baton.exe";
        assert_eq!(
            program_word(spaced, Family::Windows, Shell::Posix),
            r"'C:/Users/Jane O'\''Neil/My Tools/baton.exe'"
        );
        assert_eq!(
            program_word(spaced, Family::Windows, Shell::PowerShell),
            "& 'C:/Users/Jane O''Neil/My Tools/baton.exe'"
        );
        assert_eq!(Shell::PowerShell.hook_field(), Some("powershell"));
        assert_eq!(Shell::Posix.hook_field(), None);
    }
}
