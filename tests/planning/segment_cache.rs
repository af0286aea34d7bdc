//! The GSD segment's cache: a render whose planning files have not changed reads the cache;
//! every kind of change, and every kind of bad cache file, shows the figures the files
//! support on the next render.

use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use serde_json::{Value, json};

use super::{after_reply, gsd_project};
use crate::common::*;

/// `gsd::write_project`'s project with a fourth plan of phase 3 that only exists on disk:
/// milestone v1.1 is (1/4 + 0 + 0 + 0) / 4 = 6%.
const BASE: &str = "v1.1 Checkout 6% · Phase 3/6 Cart · executing";

fn line(sandbox: &Sandbox) -> String {
    sandbox.statusline(&after_reply(sandbox)).assert_one_line()
}

/// The line with `segment` in the middle.
fn with(segment: &str) -> String {
    format!("Sonnet 4.5 │ {segment} │ proj │ ████████░░ 83%")
}

fn set_mtime(path: &Path, when: SystemTime) {
    File::open(path).unwrap().set_modified(when).unwrap();
}

/// Dates every planning file and directory an hour back, as in a project nobody touched
/// for a while (a cache is only written once the files' times are past the file system's tick).
fn settle(dir: &Path) {
    let hour_ago = SystemTime::now() - Duration::from_secs(3600);
    for entry in fs::read_dir(dir).unwrap().flatten() {
        if entry.file_type().unwrap().is_dir() {
            settle(&entry.path());
        } else {
            set_mtime(&entry.path(), hour_ago);
        }
    }
    set_mtime(dir, hour_ago);
}

fn project() -> Sandbox {
    let sandbox = gsd_project();
    sandbox.write(".planning/phases/03-cart/03-04-PLAN.md", "# 03-04\n");
    settle(&sandbox.project.join(".planning"));
    sandbox
}

/// The one cache file baton keeps in its private directory in the sandbox's temp dir.
fn cache_file(sandbox: &Sandbox) -> PathBuf {
    let private: Vec<PathBuf> = fs::read_dir(&sandbox.tmp)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.is_dir() && os::private_dir_names().contains(&p.file_name().unwrap().to_string_lossy().into_owned())
        })
        .collect();
    let found: Vec<PathBuf> = private
        .iter()
        .flat_map(|dir| fs::read_dir(dir).unwrap().flatten())
        .map(|e| e.path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.starts_with("baton-cache-") && name.ends_with("-gsd.json")
        })
        .collect();
    assert_eq!(found.len(), 1, "one cache file: {found:?}");
    found.into_iter().next().unwrap()
}

/// The cache baton wrote, with `edit` applied.
fn edited_cache(sandbox: &Sandbox, edit: impl FnOnce(&mut Value)) -> String {
    let mut cache = sandbox.read_json(&cache_file(sandbox));
    edit(&mut cache);
    cache.to_string()
}

#[test]
fn a_render_whose_files_are_unchanged_reads_the_cache() {
    let sandbox = project();
    assert_eq!(line(&sandbox), with(BASE));
    let cache = cache_file(&sandbox);
    os::assert_private(&cache);
    // Only a render that trusts the cache could show this.
    fs::write(
        &cache,
        edited_cache(&sandbox, |c| c["segment"] = json!("from the cache")),
    )
    .unwrap();
    assert_eq!(line(&sandbox), with("from the cache"));
    // Also when Claude Code runs it in a subdirectory (the files are then found from the root).
    let sub = sandbox.project.join("src");
    fs::create_dir_all(&sub).unwrap();
    let out = sandbox
        .command(&["statusline"])
        .current_dir(&sub)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child
                .stdin
                .take()
                .unwrap()
                .write_all(after_reply(&sandbox).to_string().as_bytes())?;
            child.wait_with_output()
        })
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim_end(), with("from the cache"));
    assert_eq!(
        sandbox.run(&["progress", "--json"], b"").code,
        Some(0),
        "commands read the files"
    );

    sandbox.write(".planning/phases/03-cart/03-02-SUMMARY.md", "# done\n");
    assert_eq!(line(&sandbox), with("v1.1 Checkout 12% · Phase 3/6 Cart · executing"));
}

/// `<project>/.planning/<path>`.
fn planning(sandbox: &Sandbox, path: &str) -> PathBuf {
    sandbox.project.join(".planning").join(path)
}

/// A file edited in place (same inode, so only its time says it changed).
fn edit(path: &Path, from: &str, to: &str) {
    let text = fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{from:?} in {}", path.display());
    fs::write(path, text.replace(from, to)).unwrap();
}

#[test]
fn every_kind_of_change_shows_on_the_next_render() {
    type Change = fn(&Sandbox);
    let changes: [(&str, Change, &str); 6] = [
        (
            "a SUMMARY added",
            |s| fs::write(planning(s, "phases/03-cart/03-02-SUMMARY.md"), "# done\n").unwrap(),
            "v1.1 Checkout 12% · Phase 3/6 Cart · executing",
        ),
        (
            "a plan removed",
            |s| fs::remove_file(planning(s, "phases/03-cart/03-04-PLAN.md")).unwrap(),
            "v1.1 Checkout 8% · Phase 3/6 Cart · executing",
        ),
        (
            "STATE.md edited in place, same size",
            |s| edit(&planning(s, "STATE.md"), "status: executing", "status: verifying"),
            "v1.1 Checkout 6% · Phase 3/6 Cart · verifying",
        ),
        (
            "ROADMAP.md phase checked",
            |s| {
                edit(
                    &planning(s, "ROADMAP.md"),
                    "- [ ] **Phase 3: Cart**",
                    "- [x] **Phase 3: Cart**",
                )
            },
            "v1.1 Checkout 25% · Phase 3/6 Cart · executing",
        ),
        (
            "a phase directory renamed",
            |s| fs::rename(planning(s, "phases/03-cart"), planning(s, "phases/07-cart")).unwrap(),
            "v1.1 Checkout 0% · Phase 3/6 Cart · executing",
        ),
        (
            "a phase directory added, its plan done",
            |s| {
                fs::create_dir(planning(s, "phases/05-receipts")).unwrap();
                fs::write(planning(s, "phases/05-receipts/05-01-PLAN.md"), "# plan\n").unwrap();
                fs::write(planning(s, "phases/05-receipts/05-01-SUMMARY.md"), "# done\n").unwrap();
            },
            "v1.1 Checkout 31% · Phase 3/6 Cart · executing",
        ),
    ];
    for (what, change, expected) in changes {
        let sandbox = project();
        assert_eq!(line(&sandbox), with(BASE), "{what}: before");
        cache_file(&sandbox);
        change(&sandbox);
        assert_eq!(line(&sandbox), with(expected), "{what}");
        let progress: Value = serde_json::from_str(&sandbox.run(&["progress", "--json"], b"").stdout).unwrap();
        let percent = progress["milestone_progress"]["percent"].to_string();
        assert!(
            expected.contains(&format!(" {percent}% ")),
            "{what}: progress says {percent}%"
        );
    }
}

#[test]
fn a_bad_cache_file_is_never_believed() {
    let stale = |sandbox: &Sandbox| edited_cache(sandbox, |c| c["segment"] = json!("STALE"));
    /// Bad contents, from the sandbox and the cache's text with a stale segment.
    type Bad = fn(&Sandbox, &str) -> String;
    let cases: [(&str, Bad); 5] = [
        ("corrupted", |_, good| good[..good.len() - 10].to_owned()),
        ("garbage", |_, _| "\0\u{1}\u{fffd} not json".to_owned()),
        ("from another version of baton", |s, _| {
            edited_cache(s, |c| {
                c["version"] = json!("0.0.1");
                c["segment"] = json!("STALE");
            })
        }),
        ("about another project", |s, _| {
            edited_cache(s, |c| {
                c["root"] = json!("/elsewhere");
                c["segment"] = json!("STALE");
            })
        }),
        ("holding another digest", |s, _| {
            edited_cache(s, |c| {
                c["digest"] = json!(c["digest"].as_u64().unwrap() ^ 1);
                c["segment"] = json!("STALE");
            })
        }),
    ];
    for (what, bad) in cases {
        let sandbox = project();
        assert_eq!(line(&sandbox), with(BASE));
        let path = cache_file(&sandbox);
        let good = stale(&sandbox);
        fs::write(&path, bad(&sandbox, &good)).unwrap();
        assert_eq!(line(&sandbox), with(BASE), "{what}");
        assert!(
            sandbox.read_json(&path)["segment"] == BASE,
            "{what}: rewritten with the true figures"
        );
    }

    // A symlink planted at the cache's path, to a file holding a cache that would match.
    let sandbox = project();
    assert_eq!(line(&sandbox), with(BASE));
    let path = cache_file(&sandbox);
    let decoy = sandbox.tmp.join("decoy.json");
    fs::write(&decoy, stale(&sandbox)).unwrap();
    fs::remove_file(&path).unwrap();
    os::symlink(&decoy, &path);
    assert_eq!(line(&sandbox), with(BASE), "not read through the link");
    assert!(
        !fs::symlink_metadata(&path).unwrap().file_type().is_symlink(),
        "the link is replaced"
    );
    assert!(
        fs::read_to_string(&decoy).unwrap().contains("STALE"),
        "its target is left alone"
    );
}

#[test]
fn a_change_in_the_same_tick_as_the_last_read_is_not_missed() {
    // STATE.md was just written: a render now cannot tell it from a rewrite in the same tick
    // of a coarse clock (1 s on HFS+, 2 s on FAT), so it does not cache what it read.
    let sandbox = project();
    let state = sandbox.project.join(".planning/STATE.md");
    let text = fs::read_to_string(&state).unwrap();
    fs::write(&state, &text).unwrap();
    let written = fs::metadata(&state).unwrap().modified().unwrap();
    assert_eq!(line(&sandbox), with(BASE));
    fs::write(&state, text.replace("status: executing", "status: verifying")).unwrap();
    set_mtime(&state, written);
    assert_eq!(line(&sandbox), with("v1.1 Checkout 6% · Phase 3/6 Cart · verifying"));

    // Once the times are old enough, the render caches again.
    settle(&sandbox.project.join(".planning"));
    assert_eq!(line(&sandbox), with("v1.1 Checkout 6% · Phase 3/6 Cart · verifying"));
    assert_eq!(
        sandbox.read_json(&cache_file(&sandbox))["segment"],
        "v1.1 Checkout 6% · Phase 3/6 Cart · verifying"
    );
}

#[cfg(unix)]
#[test]
fn a_change_whose_old_time_is_given_back_still_shows() {
    // `touch -r`, `rsync -t` or a restore sets the modification time back; the change time
    // (which no tool sets) still moves.
    type Change = fn(&Sandbox);
    let changes: [(&str, Change, &str); 2] = [
        (
            "STATE.md edited in place, same size, old time restored",
            |s| {
                let state = planning(s, "STATE.md");
                let before = fs::metadata(&state).unwrap().modified().unwrap();
                edit(&state, "status: executing", "status: verifying");
                set_mtime(&state, before);
            },
            "v1.1 Checkout 6% · Phase 3/6 Cart · verifying",
        ),
        (
            "a SUMMARY added, the phase directory's old time restored",
            |s| {
                let dir = planning(s, "phases/03-cart");
                let before = fs::metadata(&dir).unwrap().modified().unwrap();
                fs::write(dir.join("03-02-SUMMARY.md"), "# done\n").unwrap();
                set_mtime(&dir, before);
            },
            "v1.1 Checkout 12% · Phase 3/6 Cart · executing",
        ),
    ];
    for (what, change, expected) in changes {
        let sandbox = project();
        assert_eq!(line(&sandbox), with(BASE), "{what}: before");
        cache_file(&sandbox);
        // The change comes a tick later than the last render, as it would in a session.
        std::thread::sleep(Duration::from_millis(20));
        change(&sandbox);
        assert_eq!(line(&sandbox), with(expected), "{what}");
    }
}

#[test]
fn a_gsd_core_verification_passed_in_place_shows_on_the_next_render() {
    // A gsd-core project (its state.json): phase 3's plans all summarised, its report found
    // gaps; under gsd-core's rule the phase is 4 of 5 steps done until the report passes.
    let sandbox = gsd_project();
    sandbox.write(".planning/state.json", "{}");
    for plan in ["02", "03", "04"] {
        sandbox.write(&format!(".planning/phases/03-cart/03-{plan}-PLAN.md"), "# plan\n");
        sandbox.write(&format!(".planning/phases/03-cart/03-{plan}-SUMMARY.md"), "# done\n");
    }
    let report = planning(&sandbox, "phases/03-cart/03-VERIFICATION.md");
    fs::write(&report, "---\nstatus: gaps_found\n---\n# Verification\n").unwrap();
    settle(&sandbox.project.join(".planning"));
    assert_eq!(line(&sandbox), with("v1.1 Checkout 20% · Phase 3/6 Cart · executing"));
    cache_file(&sandbox);
    // The verifier's status edited in the same file (the directory's time does not move).
    edit(&report, "status: gaps_found", "status: passed");
    assert_eq!(line(&sandbox), with("v1.1 Checkout 25% · Phase 3/6 Cart · executing"));
}
