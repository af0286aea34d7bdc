//! What the planning figures depend on, as file metadata only: the size, modification time
//! and identity of STATE.md, ROADMAP.md (both in the live directory, see
//! [`Layout`](super::layout::Layout)), config.json, `active-workstream` and gsd-core's
//! `state.json`, the same of `phases/` (a phase directory added, removed or renamed changes its
//! time), and the name and times of each phase directory (a plan or summary added, removed or
//! renamed changes its time) and, in a gsd-core project, of its `NN-VERIFICATION.md` (whose
//! status can change in place). A [`Seal`]
//! digests them for a chosen set of phase directories; the same digest later means none of
//! those files changed, provided the seal was [settled](Seal::settled). The lookups go
//! through `.planning/` and `phases/` opened once ([`Dir`]), so each costs one `stat` of one
//! name.

use std::fs;
use std::io::{self, ErrorKind};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::Project;
use super::layout::{Generation, Layout};
use super::number::PhaseNumber;
use super::phases::MAX_ENTRIES;
use crate::platform::dir::{Dir, Stamp};

/// A file time this close to the moment it was read may still be shared by a later change:
/// file systems keep times in ticks (ext4 a few ms, HFS+ 1 s, FAT 2 s) taken from a clock
/// that may run a little behind or ahead of this one.
pub const SETTLE: Duration = Duration::from_secs(3);

/// The planning files' metadata at one moment, with `phases/` listed.
#[derive(Debug, Clone)]
pub struct Fingerprint {
    base: Key,
    /// Each numbered phase directory: its name and key, sorted by name; in a gsd-core project
    /// followed by its verification report (`<dir>/<NN>-VERIFICATION.md`).
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
    /// could be read and no modification time is within [`SETTLE`] of the moment it was read
    /// (a change in the same tick as a younger time could leave size and time as they were).
    pub fn settled(&self) -> bool {
        self.settled
    }
}

impl Fingerprint {
    /// Reads the files' metadata and lists `phases/` (no file is opened).
    pub fn take(project: &Project) -> Self {
        let layout = Layout::of(project);
        let place = Place::open(project);
        let base = place.base(project);
        let mut listed = true;
        let mut dirs = Vec::new();
        match fs::read_dir(layout.live.join("phases")) {
            Ok(entries) => {
                for entry in entries.take(MAX_ENTRIES + 1) {
                    let Ok(entry) = entry else {
                        listed = false;
                        continue;
                    };
                    // As the phase scan reads them: numbered directories, links not followed.
                    let name = entry.file_name().into_string().ok();
                    let number = name.as_deref().and_then(|n| PhaseNumber::prefix_of(n, layout.ids));
                    if let (Some(name), Some(number)) = (name.filter(|n| !n.contains('\n')), number)
                        && entry.file_type().is_ok_and(|t| t.is_dir())
                    {
                        let key = place.dir(&name);
                        if layout.generation == Generation::Core {
                            let report = format!("{name}/{}-VERIFICATION.md", super::phases::token_of(&name, &number));
                            let key = place.dir(&report);
                            dirs.push((report, key));
                        }
                        dirs.push((name, key));
                    }
                }
            }
            Err(e) => listed = absent(&e),
        }
        dirs.sort_by(|a, b| a.0.cmp(&b.0));
        Self { base, dirs, listed }
    }

    /// The seal over the files and the listed phase directories that `watched` picks by name
    /// (the others' contents are taken not to matter); returns their names too, for
    /// [`Self::reseal`].
    pub fn seal(&self, watched: impl Fn(&str) -> bool) -> (Seal, Vec<String>) {
        let dir_of = |name: &str| name.split('/').next().unwrap_or(name).to_owned();
        let chosen: Vec<&(String, Key)> = self.dirs.iter().filter(|(name, _)| watched(&dir_of(name))).collect();
        let names = chosen.iter().map(|(name, _)| name.clone()).collect();
        let seal = Seal {
            digest: combine(self.base, chosen.iter().map(|(name, key)| (name.as_str(), *key))),
            settled: self.listed && self.base.settled && chosen.iter().all(|(_, key)| key.settled),
        };
        (seal, names)
    }

    /// The digest the files and the phase directories `names` have now: `stat`s only, no
    /// listing. It equals an earlier [`Self::seal`] over the same names exactly when none of
    /// them changed, the listing of `phases/` included.
    pub fn reseal<'a>(project: &Project, names: impl Iterator<Item = &'a str>) -> u64 {
        let place = Place::open(project);
        let base = place.base(project);
        combine(base, names.map(|name| (name, place.dir(name))))
    }
}

/// One item's metadata, digested.
#[derive(Debug, Clone, Copy)]
struct Key {
    digest: u64,
    settled: bool,
}

fn combine<'a>(base: Key, dirs: impl Iterator<Item = (&'a str, Key)>) -> u64 {
    let mut mix = Mix::default();
    mix.word(base.digest);
    let mut count = 0u64;
    for (name, key) in dirs {
        mix.bytes(name.as_bytes());
        mix.word(key.digest);
        count += 1;
    }
    mix.word(count);
    mix.0
}

/// A digest of 64-bit words. Each step is a bijection of the state for a given word and of
/// the word for a given state, so a sequence that differs from another in one word (one
/// time, one size) always ends in another digest; it costs a multiply per word, where std's
/// SipHash cost a fifth of a big project's render.
#[derive(Default)]
struct Mix(u64);

impl Mix {
    fn word(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }

    /// The bytes in words, then their length (so `ab` and `ab\0` differ).
    fn bytes(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.word(u64::from_le_bytes(chunk.try_into().unwrap_or_default()));
        }
        let mut last = [0u8; 8];
        last[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
        self.word(u64::from_le_bytes(last));
        self.word(bytes.len() as u64);
    }
}

/// Absent is a state like any other; an item that cannot be read is not.
fn absent(error: &io::Error) -> bool {
    matches!(error.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory)
}

/// `.planning/`, the live directory and its `phases/`, opened once for all the lookups.
struct Place {
    planning: io::Result<Dir>,
    /// The active workstream's directory; `None` when the live files are in `.planning/`.
    live: Option<io::Result<Dir>>,
    phases: io::Result<Dir>,
    /// Times before this are settled (nanoseconds since the epoch).
    settled_before: Option<i64>,
}

impl Place {
    fn open(project: &Project) -> Self {
        let planning_dir = project.planning_dir();
        let planning = Dir::open(&planning_dir);
        let live_dir = project.live_dir();
        let live = (live_dir != planning_dir).then(|| Dir::open(&live_dir));
        // Followed if a link, as the phase scan lists it.
        let phases = match live.as_ref().unwrap_or(&planning) {
            Ok(dir) => dir.open_dir("phases"),
            Err(e) => Err(e.kind().into()),
        };
        let settled_before = SystemTime::now()
            .checked_sub(SETTLE)
            .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
            .and_then(|d| i64::try_from(d.as_nanos()).ok());
        Self {
            planning,
            live,
            phases,
            settled_before,
        }
    }

    /// The root, the files (links followed) and `phases/` itself.
    fn base(&self, project: &Project) -> Key {
        let mut mix = Mix::default();
        let mut settled = true;
        mix.bytes(project.root.as_os_str().as_encoded_bytes());
        let live = self.live.as_ref().unwrap_or(&self.planning);
        let files = [
            (live, "STATE.md"),
            (live, "ROADMAP.md"),
            (&self.planning, "config.json"),
            (&self.planning, "active-workstream"),
            (&self.planning, "state.json"),
        ];
        for (dir, name) in files {
            let stamp = match dir {
                Ok(dir) => dir.stamp_of(name, true),
                Err(e) => Err(e.kind().into()),
            };
            let key = self.key(stamp);
            mix.word(key.digest);
            settled &= key.settled;
        }
        let key = self.key(match &self.phases {
            Ok(dir) => dir.stamp(),
            Err(e) => Err(e.kind().into()),
        });
        mix.word(key.digest);
        Key {
            digest: mix.0,
            settled: settled && key.settled,
        }
    }

    /// A phase directory, its link not followed.
    fn dir(&self, name: &str) -> Key {
        self.key(match &self.phases {
            Ok(dir) => dir.stamp_of(name, false),
            Err(e) => Err(e.kind().into()),
        })
    }

    /// Presence and kind, size, times and identity. Settled on the modification time, which
    /// every change of contents moves; the change time and identity only add to what is
    /// caught (a time restored by `touch -r` or `rsync -t`, a file replaced by another).
    fn key(&self, stamp: io::Result<Stamp>) -> Key {
        let stamp = match stamp {
            Ok(stamp) => stamp,
            Err(e) => {
                return Key {
                    digest: 0,
                    settled: absent(&e),
                };
            }
        };
        let mut mix = Mix::default();
        mix.word(1); // present (an absent item's digest is 0)
        mix.word(u64::from(stamp.is_dir));
        mix.word(stamp.size);
        mix.word(stamp.modified_ns as u64);
        mix.word(stamp.changed_ns as u64);
        mix.word(stamp.id);
        Key {
            digest: mix.0,
            settled: self.settled_before.is_some_and(|limit| stamp.modified_ns < limit),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs::File;

    fn refs(names: &[String]) -> impl Iterator<Item = &str> {
        names.iter().map(String::as_str)
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
            Fingerprint::reseal(&project, refs(&names)),
            settled.digest,
            "nothing changed"
        );

        let only_two = |name: &str| name == "02-b";
        let (watched, two_only) = Fingerprint::take(&project).seal(only_two);
        fs::write(one.join("01-01-SUMMARY.md"), "x").unwrap();
        assert_ne!(
            Fingerprint::reseal(&project, refs(&names)),
            settled.digest,
            "a summary added"
        );
        assert_eq!(
            Fingerprint::reseal(&project, refs(&two_only)),
            watched.digest,
            "not in a watched directory"
        );
        assert!(Fingerprint::take(&project).seal(only_two).0.settled());
        assert!(!Fingerprint::take(&project).seal(all).0.settled());

        fs::rename(&two, planning.join("phases/03-b")).unwrap();
        assert_ne!(
            Fingerprint::reseal(&project, refs(&two_only)),
            watched.digest,
            "a phase renamed"
        );
    }
}
