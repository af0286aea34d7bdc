//! The store's lock is the store's own (issue 21 items 1 and 2): `.baton/context.lock`, the
//! same file for every writer whatever its `$TMPDIR` and however its `cwd` spells the
//! project's path, and the hourly temp-dir sweep never takes it from under the writers.
//! Before, the lock lived in the temp dir, keyed by the path's spelling, and the sweep
//! unlinked it once its mtime was a day old (flock never touches it): writers then ran at
//! once and the store lost acknowledged versions.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use serde_json::{Value, json};

use super::{document, example_store, log, ok};
use crate::common::{Sandbox, fixture, os};

/// `writers` threads of `writes` `ctx set` each, every one run by `command` (which picks the
/// environment); returns the acknowledged keys and values.
fn write_concurrently(
    sandbox: &Arc<Sandbox>,
    writers: usize,
    writes: usize,
    command: fn(&Sandbox, usize, &[&str]) -> std::process::Command,
) -> Vec<(String, usize)> {
    let acknowledged = Arc::new(Mutex::new(Vec::new()));
    let threads: Vec<_> = (0..writers)
        .map(|w| {
            let (sandbox, acknowledged) = (sandbox.clone(), acknowledged.clone());
            std::thread::spawn(move || {
                for i in 0..writes {
                    let key = format!("global_context.w{w}.i{i}");
                    let out = command(&sandbox, w, &["ctx", "set", &key, &i.to_string()])
                        .stdin(Stdio::null())
                        .output()
                        .unwrap();
                    let said = String::from_utf8_lossy(&out.stderr);
                    assert!(out.status.success(), "{key}: {said}");
                    acknowledged.lock().unwrap().push((key, i));
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    Arc::try_unwrap(acknowledged).unwrap().into_inner().unwrap()
}

/// Every acknowledged write is in the document, the log is one version after the other, and
/// the store validates.
#[track_caller]
fn nothing_lost(sandbox: &Sandbox, acknowledged: &[(String, usize)]) {
    ok(sandbox, &["validate"]);
    let doc = document(sandbox);
    for (key, value) in acknowledged {
        let at = key.strip_prefix("global_context.").unwrap().split_once('.').unwrap();
        assert_eq!(
            doc["global_context"][at.0][at.1],
            json!(value),
            "{key} was acknowledged but is lost"
        );
    }
    let versions: Vec<u64> = log(sandbox).iter().map(|e| e["v"].as_u64().unwrap()).collect();
    assert_eq!(versions, (1..=versions.len() as u64).collect::<Vec<_>>());
}

/// Dates `path` back two days.
fn age(path: &Path) {
    let two_days_ago = SystemTime::now() - Duration::from_secs(2 * 24 * 60 * 60);
    if let Ok(file) = std::fs::File::options().write(true).open(path) {
        let _ = file.set_modified(two_days_ago);
    }
}

#[test]
fn the_hourly_sweep_never_takes_the_lock_from_the_writers() {
    let sandbox = Arc::new(Sandbox::new());
    example_store(&sandbox);
    let done = Arc::new(AtomicBool::new(false));
    // While the writers run: every lock file baton has (in its private temp directory and in
    // `.baton/`) and the sweep's stamp look a day old, and a statusline render sweeps.
    let sweeper = {
        let (sandbox, done) = (sandbox.clone(), done.clone());
        std::thread::spawn(move || {
            let mut payload = fixture("statusline-after-reply.json");
            payload["cwd"] = json!(sandbox.project);
            let mut sweeps = 0;
            while !done.load(Ordering::Relaxed) {
                let private: Vec<PathBuf> = std::fs::read_dir(&sandbox.tmp)
                    .into_iter()
                    .flatten()
                    .flatten()
                    .flat_map(|dir| std::fs::read_dir(dir.path()).into_iter().flatten().flatten())
                    .map(|e| e.path())
                    .chain([sandbox.project.join(".baton/context.lock")])
                    .collect();
                for path in &private {
                    age(path);
                }
                sandbox.statusline(&payload).assert_one_line();
                sweeps += 1;
            }
            sweeps
        })
    };
    let acknowledged = write_concurrently(&sandbox, 6, 30, |s, _, args| s.command(args));
    done.store(true, Ordering::Relaxed);
    let sweeps = sweeper.join().unwrap();
    assert!(sweeps > 5, "the sweep ran {sweeps} times");
    nothing_lost(&sandbox, &acknowledged);
    assert!(
        sandbox.project.join(".baton/context.lock").is_file(),
        "the lock is never removed"
    );
}

/// The hook payload of `event` for agent `agent_type`, with `cwd` as given.
fn hook_payload(event: &str, agent_type: &str, cwd: &str) -> Value {
    let mut p = fixture(&format!("{}.json", event.to_ascii_lowercase()));
    p["cwd"] = json!(cwd);
    p["agent_type"] = json!(agent_type);
    p["last_assistant_message"] = json!("Done: the plan is written.");
    p
}

#[test]
fn writers_under_two_tmpdirs_and_hooks_through_a_link_take_one_lock() {
    let sandbox = Arc::new(Sandbox::new());
    example_store(&sandbox);
    for agent in ["a0", "a1"] {
        ok(&sandbox, &["agent", agent, "--status", "pending"]);
    }
    let other_tmp = sandbox.home.join("other-tmp");
    std::fs::create_dir_all(&other_tmp).unwrap();
    let link = sandbox.home.join("project-link");
    os::symlink(&sandbox.project, &link);
    // Hooks whose payload's cwd reaches the project through a link, or ends in `/`, mark the
    // agents in progress and done over and over meanwhile.
    let done = Arc::new(AtomicBool::new(false));
    let hooks: Vec<_> = (0..2)
        .map(|h| {
            let (sandbox, done, link) = (sandbox.clone(), done.clone(), link.clone());
            std::thread::spawn(move || {
                let cwd = match h {
                    0 => link.display().to_string(),
                    _ => format!("{}/", sandbox.project.display()),
                };
                let mut runs = 0;
                while !done.load(Ordering::Relaxed) {
                    for event in ["SubagentStart", "SubagentStop"] {
                        let agent = format!("a{h}");
                        sandbox.hook(&hook_payload(event, &agent, &cwd)).assert_hook_contract();
                    }
                    runs += 1;
                }
                runs
            })
        })
        .collect();
    let acknowledged = write_concurrently(&sandbox, 4, 30, |s, w, args| {
        let mut command = s.command(args);
        if w % 2 == 1 {
            command.env("TMPDIR", s.home.join("other-tmp"));
        }
        command
    });
    done.store(true, Ordering::Relaxed);
    for hook in hooks {
        assert!(hook.join().unwrap() > 0);
    }
    nothing_lost(&sandbox, &acknowledged);
    let by_hooks = log(&sandbox)
        .iter()
        .filter(|e| e["cmd"].as_str().is_some_and(|c| c.starts_with("hook ")))
        .count();
    assert!(by_hooks > 0, "the hooks wrote through the link and the trailing slash");
}
