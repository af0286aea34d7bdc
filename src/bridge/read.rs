//! Reads the files a run changed, safely: symlinks are not followed, in any part of a path (a
//! link loop, a link out of the project, a committed `root -> /` directory link are all
//! skipped), only regular files are opened, a file over the size cap
//! is skipped by its size before a byte is read, binary files (a NUL byte) and invalid UTF-8
//! are skipped, minified scripts (vendored bundles, not code an agent writes) are skipped, and
//! the whole read stops at a byte budget. Every skip is counted by reason.

use std::io::Read;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Serialize};

use crate::platform::beneath::Root;

/// Largest file read (bigger ones are generated or data, not hand-written code).
pub const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;
/// Most bytes read in one bridge run.
pub const MAX_TOTAL_BYTES: u64 = 256 * 1024 * 1024;
/// Bytes looked at for a NUL, the way git decides a file is binary.
const BINARY_PROBE: usize = 8000;
/// A script with a line longer than this (within its first [`MINIFIED_PROBE`] bytes) is
/// minified: written by a bundler, not by hand.
const MINIFIED_LINE: usize = 4096;
const MINIFIED_PROBE: usize = 64 * 1024;

/// One file read: its path relative to the work tree's top, and its text.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadFile {
    pub path: String,
    pub text: String,
}

impl ReadFile {
    /// The file as the extractors read it.
    pub fn source(&self) -> super::source::Source<'_> {
        super::source::Source {
            path: &self.path,
            text: &self.text,
        }
    }
}

/// How many files were read, and how many were skipped for each reason.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ReadStats {
    pub read: usize,
    /// Deleted by the run (or never there).
    pub missing: usize,
    /// Symbolic links (loops included), never followed.
    pub symlinks: usize,
    /// Directories, sockets, devices, FIFOs.
    pub not_regular: usize,
    pub too_large: usize,
    pub binary: usize,
    pub invalid_utf8: usize,
    /// Minified scripts (`*.min.js`, bundles with lines of thousands of characters).
    pub minified: usize,
    /// Permission denied and other read errors.
    pub unreadable: usize,
    /// Ignored by `.gitignore`.
    pub ignored: usize,
    /// Untracked, and git could not say whether `.gitignore` excludes them (it failed or ran
    /// past its deadline): not read.
    pub unverified: usize,
    /// Outside the work tree.
    pub outside: usize,
    /// Left unread once the byte budget was spent.
    pub over_budget: usize,
}

impl ReadStats {
    /// Files skipped for any reason.
    pub fn skipped(&self) -> usize {
        self.reasons().iter().map(|(n, _)| n).sum()
    }

    /// How many files were skipped for each reason.
    fn reasons(&self) -> [(usize, &'static str); 12] {
        [
            (self.missing, "deleted"),
            (self.symlinks, "symlinks"),
            (self.not_regular, "not regular files"),
            (self.too_large, "too large"),
            (self.binary, "binary"),
            (self.invalid_utf8, "not UTF-8"),
            (self.minified, "minified"),
            (self.unreadable, "unreadable"),
            (self.ignored, "git-ignored"),
            (
                self.unverified,
                "not checked against .gitignore (git failed or timed out)",
            ),
            (self.outside, "outside the work tree"),
            (self.over_budget, "over the read budget"),
        ]
    }

    /// `"3 skipped: 1 binary, 2 too large (> 4 MiB)"`, or `None` when nothing was skipped.
    pub fn describe_skipped(&self) -> Option<String> {
        let reasons = self.reasons();
        let parts: Vec<String> = reasons
            .iter()
            .filter(|(n, _)| *n > 0)
            .map(|(n, why)| format!("{n} {why}"))
            .collect();
        (!parts.is_empty()).then(|| format!("{} skipped: {}", self.skipped(), parts.join(", ")))
    }
}

/// Reads `paths` (relative to `top`, with `/`), spread over the cores, within `max_file`
/// bytes each and the total budget, never through a link in any part of a path; the files
/// come back in the order of `paths`, and `stats` (what was skipped before) with what was
/// read and skipped added.
pub fn read_all(top: &Path, paths: &[String], max_file: u64, mut stats: ReadStats) -> (Vec<ReadFile>, ReadStats) {
    let budget = AtomicU64::new(MAX_TOTAL_BYTES);
    let root = Root::open(top);
    let results = super::parallel::map(paths, |path| {
        let Ok(root) = &root else {
            return Err(Skip::Unreadable);
        };
        let result = read_one(root, path, max_file, budget.load(Ordering::Relaxed));
        if let Ok(text) = &result {
            let spent = text.len() as u64;
            let _ = budget.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |b| Some(b.saturating_sub(spent)));
        }
        result
    });
    let mut files = Vec::new();
    for (path, result) in paths.iter().zip(results) {
        match result {
            Ok(text) => {
                stats.read += 1;
                files.push(ReadFile {
                    path: path.clone(),
                    text,
                });
            }
            Err(skip) => *skip.counter(&mut stats) += 1,
        }
    }
    (files, stats)
}

/// Why a file was not read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Skip {
    Missing,
    Symlink,
    NotRegular,
    TooLarge,
    Binary,
    InvalidUtf8,
    Minified,
    Unreadable,
    OverBudget,
}

impl Skip {
    fn counter(self, stats: &mut ReadStats) -> &mut usize {
        match self {
            Skip::Missing => &mut stats.missing,
            Skip::Symlink => &mut stats.symlinks,
            Skip::NotRegular => &mut stats.not_regular,
            Skip::TooLarge => &mut stats.too_large,
            Skip::Binary => &mut stats.binary,
            Skip::InvalidUtf8 => &mut stats.invalid_utf8,
            Skip::Minified => &mut stats.minified,
            Skip::Unreadable => &mut stats.unreadable,
            Skip::OverBudget => &mut stats.over_budget,
        }
    }
}

/// Reads one file (`relative` below `root`) as text, or says why not. One open (never
/// through a symlink in any part of the path, never blocking on a FIFO) and one stat: the
/// size is known before a byte is read.
pub fn read_one(root: &Root, relative: &str, max_file: u64, budget: u64) -> Result<String, Skip> {
    let (file, meta) = crate::fsx::open_regular_beneath(root, relative).map_err(|e| match e.kind() {
        _ if crate::fsx::is_link_refused(&e) => Skip::Symlink,
        std::io::ErrorKind::NotFound => Skip::Missing,
        std::io::ErrorKind::InvalidInput => Skip::NotRegular,
        _ => Skip::Unreadable,
    })?;
    if meta.len() > max_file {
        return Err(Skip::TooLarge);
    }
    if meta.len() > budget {
        return Err(Skip::OverBudget);
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(max_file.min(budget) + 1)
        .read_to_end(&mut bytes)
        .map_err(|_| Skip::Unreadable)?;
    if bytes.len() as u64 > max_file {
        return Err(Skip::TooLarge);
    }
    if memchr::memchr(0, &bytes[..bytes.len().min(BINARY_PROBE)]).is_some() {
        return Err(Skip::Binary);
    }
    let text = String::from_utf8(bytes).map_err(|_| Skip::InvalidUtf8)?;
    if is_minified(relative, &text) {
        return Err(Skip::Minified);
    }
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_owned(),
        None => text,
    })
}

/// A script or stylesheet a bundler wrote: named `*.min.*`, or with a line of thousands of
/// characters near its start.
fn is_minified(path: &str, text: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    let Some((_, ext)) = name.rsplit_once('.') else {
        return false;
    };
    if !matches!(ext, "js" | "mjs" | "cjs" | "css") {
        return false;
    }
    let probe = text.get(..text.len().min(MINIFIED_PROBE)).unwrap_or(text);
    name.contains(".min.") || probe.split('\n').any(|line| line.len() > MINIFIED_LINE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_of_file_is_read_or_counted() {
        let tmp = tempfile::tempdir().unwrap();
        let top = tmp.path();
        let write = |name: &str, bytes: &[u8]| std::fs::write(top.join(name), bytes).unwrap();
        write("a.sql", "\u{feff}create table a (id int);".as_bytes());
        write("bin.png", b"\x89PNG\r\n\x1a\n\0\0\0");
        write("latin1.txt", b"caf\xe9");
        write("big.sql", &vec![b'x'; 2048]);
        write("jquery.min.js", b"!function(e){var a=1}();");
        crate::platform::fs::symlink_file("loop2".as_ref(), &top.join("loop1")).unwrap();
        crate::platform::fs::symlink_file("loop1".as_ref(), &top.join("loop2")).unwrap();
        std::fs::create_dir(top.join("dir")).unwrap();
        let paths: Vec<String> = [
            "a.sql",
            "bin.png",
            "latin1.txt",
            "big.sql",
            "jquery.min.js",
            "loop1",
            "dir",
            "gone.rs",
        ]
        .map(str::to_owned)
        .into();
        let (files, stats) = read_all(top, &paths, 1024, ReadStats::default());
        assert_eq!(
            files,
            [ReadFile {
                path: "a.sql".into(),
                text: "create table a (id int);".into()
            }]
        );
        let expected = ReadStats {
            read: 1,
            missing: 1,
            symlinks: 1,
            not_regular: 1,
            too_large: 1,
            binary: 1,
            invalid_utf8: 1,
            minified: 1,
            ..ReadStats::default()
        };
        assert_eq!(stats, expected);
        assert_eq!(
            stats.describe_skipped().unwrap(),
            "7 skipped: 1 deleted, 1 symlinks, 1 not regular files, 1 too large, 1 binary, 1 not UTF-8, 1 minified"
        );
    }
}
