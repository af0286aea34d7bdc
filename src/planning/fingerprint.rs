//! What the planning figures depend on, as file metadata only: the size, modification and
//! birth times of STATE.md, ROADMAP.md and config.json, the modification time of `phases/`
//! (a phase directory added, removed or renamed changes it), and the name and modification
//! time of each phase directory (a plan or summary added, removed or renamed changes it).
//! A [`Seal`] digests them for a chosen set of phase directories; the same digest later
//! means none of those files changed, provided the seal was [settled](Seal::settled).

use std::fs::{self, Metadata};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::io::{self, ErrorKind};
use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use super::Project;
use super::number::PhaseNumber;
use super::phases::MAX_ENTRIES;

/// A file time this close to the moment it was read may still be shared by a later change:
/// file systems keep times in ticks (ext4 a few ms, HFS+ 1 s, FAT 2 s) taken from a clock
/// that may run a little behind or ahead of this one.
pub const SETTLE: Duration = Duration::from_secs(3);

/// The planning files' metadata at one moment, with `phases/` listed.
#[derive(Debug, Clone)]
pub struct Fingerprint {
    base: Key,
    /// Each numbered phase directory: its name and key, sorted by name.
    dirs: Vec<(String, Key)>,
    /// `phases/` could be listed completely.
    listed: bool,
}

/// A digest of the planning files and some phase directories.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seal {
    pub digest: u64,
    settled: bool,
}

impl Seal {
    /// Whether any later change to the sealed files is sure to change the digest: every item
    /// could be read and no time is within [`SETTLE`] of the moment it was read (a change in
    /// the same tick as a younger time could leave size and time as they were).
    pub fn settled(&self) -> bool {
        self.settled
    }
}

impl Fingerprint {
    /// Reads the files' metadata and lists `phases/` (no file is opened).
    pub fn take(project: &Project) -> Self {
        let place = Place::of(project);
        let base = place.base(project);
        let mut listed = true;
        let mut dirs = Vec::new();
        match fs::read_dir(place.phases()) {
            Ok(entries) => {
                for entry in entries.take(MAX_ENTRIES + 1) {
                    let Ok(entry) = entry else {
                        listed = false;
                        continue;
                    };
                    // As the phase scan reads them: numbered directories, links not followed.
                    let name = entry.file_name().into_string().ok();
                    if let Some(name) = name.filter(|n| PhaseNumber::prefix_of(n).is_some())
                        && entry.file_type().is_ok_and(|t| t.is_dir())
                    {
                        let key = place.dir(&name);
                        dirs.push((name, key));
                    }
                }
            }
            Err(e) => listed = matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory),
        }
        dirs.sort_by(|a, b| a.0.cmp(&b.0));
        Self { base, dirs, listed }
    }

    /// The seal over the files and the listed phase directories that `watched` picks (the
    /// others' contents are taken not to matter); returns their names too, for [`Self::reseal`].
    pub fn seal(&self, watched: impl Fn(&str) -> bool) -> (Seal, Vec<String>) {
        let chosen: Vec<&(String, Key)> = self.dirs.iter().filter(|(name, _)| watched(name)).collect();
        let names = chosen.iter().map(|(name, _)| name.clone()).collect();
        let seal = Seal {
            digest: combine(&self.base, chosen.iter().map(|(name, key)| (name.as_str(), key))),
            settled: self.listed && self.base.settled && chosen.iter().all(|(_, key)| key.settled),
        };
        (seal, names)
    }

    /// The digest the files and the phase directories `names` have now: `stat`s only, no
    /// listing. It equals an earlier [`Self::seal`] over the same names exactly when none of
    /// them changed, the listing of `phases/` included.
    pub fn reseal(project: &Project, names: &[&str]) -> u64 {
        let place = Place::of(project);
        let base = place.base(project);
        let keys: Vec<Key> = names.iter().map(|name| place.dir(name)).collect();
        combine(&base, names.iter().copied().zip(&keys))
    }
}

/// One item's metadata, digested.
#[derive(Debug, Clone)]
struct Key {
    digest: u64,
    settled: bool,
}

fn combine<'a>(base: &Key, dirs: impl ExactSizeIterator<Item = (&'a str, &'a Key)>) -> u64 {
    let mut hasher = DefaultHasher::new();
    base.digest.hash(&mut hasher);
    dirs.len().hash(&mut hasher);
    for (name, key) in dirs {
        name.hash(&mut hasher);
        key.digest.hash(&mut hasher);
    }
    hasher.finish()
}

/// Where the planning files are looked up: relative to the current directory when it is the
/// project root (as Claude Code runs the statusline), which makes each `stat` cheaper.
struct Place {
    planning: PathBuf,
    settled_before: Option<SystemTime>,
}

impl Place {
    fn of(project: &Project) -> Self {
        let at_root = std::env::current_dir().is_ok_and(|cwd| cwd == project.root);
        Self {
            planning: if at_root {
                PathBuf::from(".planning")
            } else {
                project.planning_dir()
            },
            settled_before: SystemTime::now().checked_sub(SETTLE),
        }
    }

    fn phases(&self) -> PathBuf {
        self.planning.join("phases")
    }

    /// The root, the three files and `phases/` itself.
    fn base(&self, project: &Project) -> Key {
        let mut hasher = DefaultHasher::new();
        let mut settled = true;
        project.root.as_os_str().as_encoded_bytes().hash(&mut hasher);
        for name in ["STATE.md", "ROADMAP.md", "config.json"] {
            name.hash(&mut hasher);
            let key = self.key(fs::metadata(self.planning.join(name)), true);
            key.digest.hash(&mut hasher);
            settled &= key.settled;
        }
        let key = self.key(fs::metadata(self.phases()), false);
        key.digest.hash(&mut hasher);
        Key {
            digest: hasher.finish(),
            settled: settled && key.settled,
        }
    }

    /// A phase directory, its link not followed.
    fn dir(&self, name: &str) -> Key {
        self.key(fs::symlink_metadata(self.phases().join(name)), false)
    }

    /// Presence and kind, times, and the size when `sized`.
    fn key(&self, meta: io::Result<Metadata>, sized: bool) -> Key {
        let mut hasher = DefaultHasher::new();
        let meta = match meta {
            Ok(meta) => meta,
            // Absent is a state like any other; an unreadable item is not.
            Err(e) => {
                return Key {
                    digest: 0,
                    settled: matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory),
                };
            }
        };
        meta.is_dir().hash(&mut hasher);
        if sized {
            meta.len().hash(&mut hasher);
        }
        let modified = meta.modified().ok();
        modified.hash(&mut hasher);
        meta.created().ok().hash(&mut hasher);
        let settled = match (modified, self.settled_before) {
            (Some(time), Some(limit)) => time < limit,
            _ => false,
        };
        Key {
            digest: hasher.finish() | 1,
            settled,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs::File;

    fn refs(names: &[String]) -> Vec<&str> {
        names.iter().map(String::as_str).collect()
    }

    fn age(path: &std::path::Path, seconds: u64) {
        let when = SystemTime::now() - Duration::from_secs(seconds);
        File::open(path).unwrap().set_modified(when).unwrap();
    }

    #[test]
    fn changes_show_young_times_are_not_settled_and_unwatched_dirs_do_not_count() {
        let tmp = tempfile::tempdir().unwrap();
        let project = Project {
            root: tmp.path().to_path_buf(),
        };
        let planning = project.planning_dir();
        let (one, two) = (planning.join("phases/01-a"), planning.join("phases/02-b"));
        for dir in [&one, &two, &planning.join("phases/notes")] {
            fs::create_dir_all(dir).unwrap();
        }
        fs::write(planning.join("STATE.md"), "---\nstatus: executing\n---\n").unwrap();
        fs::write(one.join("01-01-PLAN.md"), "x").unwrap();
        let all = |_: &str| true;
        let (first, names) = Fingerprint::take(&project).seal(all);
        assert!(!first.settled(), "files written just now");
        assert_eq!(names, ["01-a", "02-b"]);
        for path in [
            planning.join("STATE.md"),
            one.clone(),
            two.clone(),
            planning.join("phases"),
        ] {
            age(&path, 60);
        }
        let (settled, names) = Fingerprint::take(&project).seal(all);
        assert!(settled.settled());
        assert_eq!(
            Fingerprint::reseal(&project, &refs(&names)),
            settled.digest,
            "nothing changed"
        );

        let only_two = |name: &str| name == "02-b";
        let (watched, two_only) = Fingerprint::take(&project).seal(only_two);
        fs::write(one.join("01-01-SUMMARY.md"), "x").unwrap();
        assert_ne!(
            Fingerprint::reseal(&project, &refs(&names)),
            settled.digest,
            "a summary added"
        );
        assert_eq!(
            Fingerprint::reseal(&project, &refs(&two_only)),
            watched.digest,
            "not in a watched directory"
        );
        assert!(Fingerprint::take(&project).seal(only_two).0.settled());
        assert!(!Fingerprint::take(&project).seal(all).0.settled());

        fs::rename(&two, planning.join("phases/03-b")).unwrap();
        assert_ne!(
            Fingerprint::reseal(&project, &refs(&two_only)),
            watched.digest,
            "a phase renamed"
        );
    }
}
