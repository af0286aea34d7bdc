//! baton's own installed copy, where the systems differ: the per-user place it goes
//! (`~/.local/bin/baton`; `%LOCALAPPDATA%\baton\baton.exe` on Windows), and replacing or
//! removing it while it runs. Unix replaces a running program's file by renaming over it (the
//! running processes keep the old one); Windows refuses to replace or delete a running `.exe`
//! but lets it be renamed, so there the old one is first moved aside.

use std::ffi::OsString;
use std::io;
use std::path::PathBuf;

use super::Family;

/// Where baton's own copy goes for this user: `$BATON_PREFIX/bin/baton[.exe]` when
/// `BATON_PREFIX` is set (as `install.sh` takes it), else `~/.local/bin/baton`, or
/// `%LOCALAPPDATA%\baton\baton.exe` on Windows. `None` without a home directory.
pub fn user_binary_path() -> Option<PathBuf> {
    user_binary_path_for(
        Family::CURRENT,
        std::env::var_os("BATON_PREFIX"),
        dirs::home_dir(),
        dirs::data_local_dir(),
    )
}

/// [`user_binary_path`] on `family`, from `BATON_PREFIX`, the home directory and (Windows)
/// the local application data folder. An empty or relative prefix is ignored.
pub fn user_binary_path_for(
    family: Family,
    prefix: Option<OsString>,
    home: Option<PathBuf>,
    local_app_data: Option<PathBuf>,
) -> Option<PathBuf> {
    let name = match family {
        Family::Unix => "baton",
        Family::Windows => "baton.exe",
    };
    let prefix = prefix
        .filter(|p| super::temp::is_absolute(family, p))
        .map(PathBuf::from);
    if let Some(prefix) = prefix {
        return Some(prefix.join("bin").join(name));
    }
    match family {
        Family::Unix => home.map(|h| h.join(".local").join("bin").join(name)),
        Family::Windows => local_app_data.map(|d| d.join("baton").join(name)),
    }
}

/// Whether replacing or removing a program's file failed because the program is running and
/// the system keeps it (Windows: access denied or a sharing violation), so that the file must
/// be moved aside first. Never on Unix.
pub fn is_running_program_refusal(error: &io::Error) -> bool {
    is_running_program_refusal_on(Family::CURRENT, error)
}

/// [`is_running_program_refusal`] on `family`.
pub fn is_running_program_refusal_on(family: Family, error: &io::Error) -> bool {
    /// ERROR_ACCESS_DENIED and ERROR_SHARING_VIOLATION.
    const REFUSALS: [i32; 2] = [5, 32];
    family == Family::Windows && super::fs::os_code(error).is_some_and(|code| REFUSALS.contains(&code))
}

/// The command that puts `bin_dir` on `PATH` for good, for the user's shell (`$SHELL`'s last
/// part): `fish_add_path`, a line appended to `~/.zshrc`, `~/.bashrc` (`~/.bash_profile` on
/// macOS, whose terminals start login shells) or `~/.profile`; PowerShell's user `Path` on
/// Windows. A directory under `home` is written with `$HOME`, as a person would type it.
pub fn path_line(
    bin_dir: &std::path::Path,
    shell: Option<&str>,
    family: Family,
    home: Option<&std::path::Path>,
) -> String {
    if family == Family::Windows {
        return format!(
            "[Environment]::SetEnvironmentVariable('Path', [Environment]::GetEnvironmentVariable('Path', 'User') + ';{}', 'User')",
            bin_dir.display()
        );
    }
    let dir = bin_dir.display().to_string();
    let shown = match home.map(|h| h.display().to_string()) {
        Some(home) if dir.starts_with(&format!("{home}/")) => format!("$HOME{}", &dir[home.len()..]),
        _ => dir,
    };
    let export = format!("echo 'export PATH=\"{shown}:$PATH\"' >>");
    match shell.map(|s| s.rsplit('/').next().unwrap_or(s)) {
        Some("fish") => format!("fish_add_path {shown}"),
        Some("zsh") => format!("{export} ~/.zshrc"),
        Some("bash") if cfg!(target_os = "macos") => format!("{export} ~/.bash_profile"),
        Some("bash") => format!("{export} ~/.bashrc"),
        _ => format!("{export} ~/.profile"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_per_user_place_on_each_system() {
        let home = Some(PathBuf::from("/home/jo"));
        let appdata = Some(PathBuf::from(r"C:\Users\Jo\AppData\Local"));
        assert_eq!(
            user_binary_path_for(Family::Unix, None, home.clone(), None),
            Some(PathBuf::from("/home/jo/.local/bin/baton"))
        );
        assert_eq!(
            user_binary_path_for(Family::Unix, Some("/opt/baton".into()), home.clone(), None),
            Some(PathBuf::from("/opt/baton/bin/baton"))
        );
        for ignored in ["", "relative/dir"] {
            assert_eq!(
                user_binary_path_for(Family::Unix, Some(ignored.into()), home.clone(), None),
                Some(PathBuf::from("/home/jo/.local/bin/baton")),
                "{ignored:?}"
            );
        }
        assert_eq!(user_binary_path_for(Family::Unix, None, None, None), None);
        let windows = user_binary_path_for(Family::Windows, None, home, appdata).unwrap();
        assert!(
            windows.starts_with(r"C:\Users\Jo\AppData\Local") && windows.ends_with("baton/baton.exe"),
            "{windows:?}"
        );
        let prefixed = user_binary_path_for(Family::Windows, Some(r"D:\tools".into()), None, None).unwrap();
        assert!(prefixed.ends_with("bin/baton.exe"), "{prefixed:?}");
    }

    #[test]
    fn the_path_line_for_each_shell() {
        let home = std::path::Path::new("/home/jo");
        let bin = home.join(".local/bin");
        let line = |shell| path_line(&bin, shell, Family::Unix, Some(home));
        assert_eq!(line(Some("/usr/bin/fish")), "fish_add_path $HOME/.local/bin");
        assert_eq!(
            line(Some("/bin/zsh")),
            "echo 'export PATH=\"$HOME/.local/bin:$PATH\"' >> ~/.zshrc"
        );
        assert_eq!(
            line(Some("dash")),
            "echo 'export PATH=\"$HOME/.local/bin:$PATH\"' >> ~/.profile"
        );
        assert!(line(Some("/bin/bash")).ends_with(if cfg!(target_os = "macos") {
            "~/.bash_profile"
        } else {
            "~/.bashrc"
        }));
        assert_eq!(
            path_line(std::path::Path::new("/opt/bin"), None, Family::Unix, Some(home)),
            "echo 'export PATH=\"/opt/bin:$PATH\"' >> ~/.profile"
        );
        let windows = path_line(
            std::path::Path::new(r"C:\Users\Jo\AppData\Local\baton"),
            None,
            Family::Windows,
            None,
        );
        assert!(
            windows.ends_with(r"+ ';C:\Users\Jo\AppData\Local\baton', 'User')"),
            "{windows}"
        );
    }

    #[test]
    fn only_windows_keeps_a_running_program_from_being_replaced() {
        let denied = io::Error::from_raw_os_error(5);
        let shared = io::Error::from_raw_os_error(32);
        assert!(is_running_program_refusal_on(Family::Windows, &denied));
        assert!(is_running_program_refusal_on(Family::Windows, &shared));
        assert!(!is_running_program_refusal_on(
            Family::Windows,
            &io::Error::from_raw_os_error(2)
        ));
        assert!(!is_running_program_refusal_on(Family::Unix, &denied));
    }
}
