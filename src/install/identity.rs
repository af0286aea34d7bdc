//! Telling a baton build from any other file without running it: every build carries a
//! marker with its version line, which install and uninstall look for in a file's bytes before
//! they replace or remove what is at baton's place. Nothing found there is ever executed.

use std::io::Read;
use std::path::Path;

use crate::fsx;

/// The marker every build carries: a fixed prefix, then the version line, then a NUL.
/// [`version_line`] reads it at run time, so no build can leave it out.
static MARKER: &[u8] = concat!("\0baton-build-marker/1 baton ", env!("CARGO_PKG_VERSION"), "\0").as_bytes();

/// The length of the marker's fixed prefix (`\0baton-build-marker/1 `).
const PREFIX_LEN: usize = 22;

/// A line every build made before the marker carries (the help of `baton install`), so that an
/// install from those days is upgraded like any other.
const EARLIER_BUILDS: &[u8] = b"baton install: wire baton into Claude Code";

/// What a file that is neither baton's nor a link or folder is called.
const NOT_A_BUILD: &str = "a file that is not a baton build";

/// A file this large is no baton build; it is not read.
const LARGEST_BUILD: u64 = 512 << 20;

/// This build's version line, `baton 0.1.0`, as the marker holds it.
pub fn version_line() -> &'static str {
    let marker = std::hint::black_box(MARKER);
    std::str::from_utf8(&marker[PREFIX_LEN..marker.len() - 1]).unwrap_or("baton")
}

/// What is at a path where baton's copy goes.
#[derive(Debug, Clone, PartialEq)]
pub enum Found {
    Nothing,
    /// A baton build: its version line when it carries the marker (builds from before the
    /// marker are known by [`EARLIER_BUILDS`] and have none).
    Baton(Option<String>),
    /// Something that is not baton's: what it is, for a message (`a symbolic link`, …).
    Other(&'static str),
}

/// Looks at `path` without following a link or running anything.
pub fn examine(path: &Path) -> std::io::Result<Found> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Found::Nothing),
        Err(e) => return Err(e),
    };
    if meta.file_type().is_symlink() {
        return Ok(Found::Other("a symbolic link"));
    }
    if meta.is_dir() {
        return Ok(Found::Other("a folder"));
    }
    if !meta.is_file() || meta.len() > LARGEST_BUILD {
        return Ok(Found::Other(NOT_A_BUILD));
    }
    let (file, meta) = match fsx::open_regular_nofollow(path) {
        Ok(opened) => opened,
        // Replaced by a link or something else since it was looked at.
        Err(e) if fsx::is_link_refused(&e) || e.kind() == std::io::ErrorKind::InvalidInput => {
            return Ok(Found::Other(NOT_A_BUILD));
        }
        Err(e) => return Err(e),
    };
    let mut bytes = Vec::with_capacity(meta.len().min(LARGEST_BUILD) as usize);
    file.take(LARGEST_BUILD).read_to_end(&mut bytes)?;
    Ok(identify(&bytes))
}

/// Whether `bytes` are a baton build, and which.
pub fn identify(bytes: &[u8]) -> Found {
    let prefix = &MARKER[..PREFIX_LEN];
    for at in memchr::memmem::find_iter(bytes, prefix) {
        let rest = &bytes[at + PREFIX_LEN..];
        let line = rest.iter().position(|b| *b == 0).map(|end| &rest[..end]);
        if let Some(line) = line.filter(|l| is_version_line(l))
            && let Ok(line) = std::str::from_utf8(line)
        {
            return Found::Baton(Some(line.to_owned()));
        }
    }
    if memchr::memmem::find(bytes, EARLIER_BUILDS).is_some() {
        return Found::Baton(None);
    }
    Found::Other(NOT_A_BUILD)
}

/// `baton 1.2.3-rc.1+build`: what may follow the marker's prefix. Anything else (the same
/// bytes run on into other data, as the compiler may lay out a copy of the prefix) is no marker.
fn is_version_line(line: &[u8]) -> bool {
    line.len() < 64
        && line.strip_prefix(b"baton ").is_some_and(|version| {
            !version.is_empty() && version.iter().all(|b| b.is_ascii_alphanumeric() || b".-+".contains(b))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_marker_gives_the_version_and_other_files_are_not_baton() {
        assert_eq!(&MARKER[..PREFIX_LEN], b"\0baton-build-marker/1 ");
        assert_eq!(version_line(), concat!("baton ", env!("CARGO_PKG_VERSION")));
        let mut build = b"\x7fELF...".to_vec();
        build.extend_from_slice(MARKER);
        build.extend_from_slice(b"more code");
        assert_eq!(identify(&build), Found::Baton(Some(version_line().to_owned())));
        let older = b"...Usage:\nbaton install: wire baton into Claude Code\n...";
        assert_eq!(identify(older), Found::Baton(None));
        assert!(matches!(identify(b"#!/bin/sh\necho mine\n"), Found::Other(_)));
        // The prefix alone, without a version line after it, is not the marker, nor is the
        // prefix run on into other bytes.
        assert!(matches!(identify(&MARKER[..PREFIX_LEN]), Found::Other(_)));
        let run_on = [&MARKER[..MARKER.len() - 1], b"\x7fELF\0"].concat();
        assert!(matches!(identify(&run_on), Found::Other(_)));
    }

    #[test]
    fn this_very_binary_is_a_baton_build() {
        let exe = std::env::current_exe().unwrap();
        assert_eq!(examine(&exe).unwrap(), Found::Baton(Some(version_line().to_owned())));
    }
}
