//! Paths as other programs read them. Windows: `fs::canonicalize` returns the verbatim form
//! (`\\?\C:\Users\jane\…`), which Git Bash, PowerShell, Claude Code and a reader of a message
//! take for something else, so every path baton resolves is made plain again (`C:\Users\jane\…`)
//! where the plain form names the same file; and a relative path shown in a message or
//! written into a file another tool reads (GSD's `.planning/HANDOFF.json`) has `/` between its
//! parts on every system, as git and GSD write them.

use std::borrow::Cow;
use std::io;
use std::path::{Path, PathBuf};

use super::Family;

/// The longest path the plain Windows form may have: longer ones only work verbatim.
const MAX_PATH: usize = 260;

/// `path` made absolute with every link resolved, like `fs::canonicalize`, but plain: on
/// Windows without the verbatim prefix where the plain form names the same file.
pub fn canonical(path: &Path) -> io::Result<PathBuf> {
    let real = path.canonicalize()?;
    Ok(match plain_text(Family::CURRENT, &real.to_string_lossy()) {
        Cow::Owned(plain) if real.to_str().is_some() => PathBuf::from(plain),
        _ => real,
    })
}

/// The plain form of a path's text on `family` (tested on the text, so that the Windows rule
/// runs anywhere): `\\?\C:\x` is `C:\x` and `\\?\UNC\server\share\x` is `\\server\share\x`,
/// unless the plain form would be too long or would read a part differently (a device name
/// such as `NUL` or `com1.txt`, a name ending in a dot or a space, which Windows drops).
fn plain_text(family: Family, text: &str) -> Cow<'_, str> {
    if family == Family::Unix {
        return Cow::Borrowed(text);
    }
    let plain = if let Some(rest) = text.strip_prefix(r"\\?\UNC\") {
        format!(r"\\{rest}")
    } else if let Some(rest) = text.strip_prefix(r"\\?\") {
        match rest.as_bytes() {
            [drive, b':', b'\\', ..] if drive.is_ascii_alphabetic() => rest.to_owned(),
            [drive, b':'] if drive.is_ascii_alphabetic() => format!("{rest}\\"),
            _ => return Cow::Borrowed(text),
        }
    } else {
        return Cow::Borrowed(text);
    };
    let parts_read_the_same = plain
        .split('\\')
        .skip(if plain.starts_with(r"\\") { 4 } else { 1 })
        .all(|part| !part.contains('/') && !part.ends_with(['.', ' ']) && !is_device_name(part));
    if plain.len() < MAX_PATH && parts_read_the_same {
        Cow::Owned(plain)
    } else {
        Cow::Borrowed(text)
    }
}

/// Whether Windows reads `part` as a device whatever the folder (`CON`, `nul.txt`, `COM1`).
fn is_device_name(part: &str) -> bool {
    let stem = part.split('.').next().unwrap_or(part).trim_end_matches(' ');
    let upper = stem.to_ascii_uppercase();
    matches!(upper.as_str(), "CON" | "PRN" | "AUX" | "NUL" | "CONIN$" | "CONOUT$")
        || (upper.len() == 4
            && (upper.starts_with("COM") || upper.starts_with("LPT"))
            && upper.as_bytes()[3].is_ascii_digit()
            && upper.as_bytes()[3] != b'0')
}

/// `path` as baton shows it in a message or writes it into a file another tool reads: a
/// relative path with `/` between its parts on every system (`.planning/phases/03-api`, as
/// GSD writes and reads them, and as git names files); an absolute one in the system's form
/// (Windows: plain, with `\` throughout, also where a part was joined on as `.baton/x.json`).
pub fn shown(path: &Path) -> String {
    shown_text(Family::CURRENT, &path.to_string_lossy())
}

/// `path` relative to `root` when it lies below it, else whole, [`shown`].
pub fn below(path: &Path, root: &Path) -> String {
    shown(path.strip_prefix(root).unwrap_or(path))
}

/// [`shown`] for a path's text on `family`.
fn shown_text(family: Family, text: &str) -> String {
    if family == Family::Unix {
        return text.to_owned();
    }
    let rooted = text.starts_with(['\\', '/']) || text.as_bytes().get(1) == Some(&b':');
    match plain_text(family, text) {
        verbatim if verbatim.starts_with(r"\\?\") => verbatim.into_owned(),
        absolute if rooted => absolute.replace('/', "\\"),
        relative => relative.replace('\\', "/"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verbatim_windows_paths_are_made_plain_when_they_mean_the_same() {
        let plain = |text| plain_text(Family::Windows, text).into_owned();
        assert_eq!(
            plain(r"\\?\C:\Users\Jane Doe\.local\bin\baton.exe"),
            r"C:\Users\Jane Doe\.local\bin\baton.exe"
        );
        assert_eq!(plain(r"\\?\UNC\server\share\proj"), r"\\server\share\proj");
        assert_eq!(plain(r"\\?\D:"), r"D:\");
        assert_eq!(plain(r"C:\already\plain"), r"C:\already\plain");
        // Where the plain form would name something else, the verbatim one stays.
        for kept in [
            r"\\?\C:\proj\nul",
            r"\\?\C:\proj\COM1.txt",
            r"\\?\C:\proj\trailing.",
            r"\\?\C:\proj\trailing ",
            r"\\?\Volume{0b1c2d3e-0000-0000-0000-100000000000}\proj",
            r"\\?\GLOBALROOT\Device\HarddiskVolume1",
        ] {
            assert_eq!(plain(kept), kept);
        }
        let long = format!(r"\\?\C:\{}", "a".repeat(MAX_PATH));
        assert_eq!(plain(&long), long, "too long for the plain form");
        // COM0 and names that merely start like a device are ordinary.
        assert_eq!(plain(r"\\?\C:\COM0\console\nullable"), r"C:\COM0\console\nullable");
    }

    #[test]
    fn unix_paths_are_left_alone() {
        assert_eq!(plain_text(Family::Unix, r"\\?\C:\x"), r"\\?\C:\x");
        assert_eq!(shown(Path::new("/home/jane/x")), "/home/jane/x");
    }

    #[test]
    fn canonical_resolves_like_the_system_and_is_plain() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        let real = canonical(&dir.path().join("sub/../sub")).unwrap();
        let system = dir.path().join("sub").canonicalize().unwrap();
        assert_eq!(
            real.to_string_lossy(),
            plain_text(Family::CURRENT, &system.to_string_lossy())
        );
        assert!(!real.to_string_lossy().starts_with(r"\\?\"), "{}", real.display());
        assert!(canonical(&dir.path().join("missing")).is_err());
    }

    #[test]
    fn relative_paths_use_forward_slashes_and_absolute_ones_the_systems_form() {
        let windows = |text| shown_text(Family::Windows, text);
        assert_eq!(windows(r".planning\phases\03-api"), ".planning/phases/03-api");
        assert_eq!(
            windows(r"C:\Users\jane\proj\.baton/context.json"),
            r"C:\Users\jane\proj\.baton\context.json"
        );
        assert_eq!(windows(r"\\?\C:\Users\jane\proj"), r"C:\Users\jane\proj");
        assert_eq!(windows(r"\\server\share/proj"), r"\\server\share\proj");
        assert_eq!(
            windows(r"\\?\C:\proj\nul"),
            r"\\?\C:\proj\nul",
            "kept verbatim, kept as it is"
        );
        assert_eq!(
            shown_text(Family::Unix, r"odd\name/x"),
            r"odd\name/x",
            "a backslash is a letter on Unix"
        );
        let nested: PathBuf = ["proj", ".planning", "phases", "03-api"].iter().collect();
        let root: PathBuf = ["proj"].iter().collect();
        assert_eq!(below(&nested, &root), ".planning/phases/03-api");
        assert_eq!(
            below(Path::new("/elsewhere/x"), &root),
            shown(Path::new("/elsewhere/x"))
        );
    }
}
