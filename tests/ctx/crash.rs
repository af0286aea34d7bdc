//! Writers killed with SIGKILL at random moments during 1,000 writes: afterwards the store
//! loads, validates, and holds every write whose command exited 0, in a consistent log.

use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::{ctx, document, example_store, log};
use crate::common::Sandbox;

/// A small xorshift generator: the seed is printed, so a failure can be replayed.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

const WRITERS: usize = 4;
const WRITES_EACH: usize = 250;

#[test]
fn writers_killed_at_random_moments_lose_no_acknowledged_write() {
    let sandbox = Arc::new(Sandbox::new());
    example_store(&sandbox);
    let seed = std::env::var("BATON_CRASH_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos() as u64
                | 1
        });
    eprintln!("crash test seed: BATON_CRASH_SEED={seed}");
    let acknowledged = Arc::new(Mutex::new(Vec::new()));
    let killed = Arc::new(Mutex::new(0usize));
    let repairs = Arc::new(Mutex::new(Vec::new()));
    let threads: Vec<_> = (0..WRITERS)
        .map(|w| {
            let (sandbox, acknowledged, killed) = (sandbox.clone(), acknowledged.clone(), killed.clone());
            let repairs = repairs.clone();
            std::thread::spawn(move || {
                let mut random = Random(seed.wrapping_add((w as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)) | 1);
                for i in 0..WRITES_EACH {
                    let key = format!("global_context.crash.w{w}_{i}");
                    let mut child = sandbox
                        .command(&["ctx", "set", &key, &i.to_string(), "--as", &format!("writer{w}")])
                        .stdin(Stdio::null())
                        .stdout(Stdio::null())
                        .stderr(Stdio::piped())
                        .spawn()
                        .unwrap();
                    // One write in three is killed after 1 to 13 ms (a write takes about 10 in
                    // the debug build): before, inside or after its journal append and
                    // document replace.
                    if random.next().is_multiple_of(3) {
                        std::thread::sleep(Duration::from_micros(1000 + random.next() % 12_000));
                        let _ = child.kill();
                    }
                    let output = child.wait_with_output().unwrap();
                    let said = String::from_utf8_lossy(&output.stderr);
                    for repair in ["dropped a torn last line", "brought it forward", "rebuilt version"] {
                        if said.contains(repair) {
                            repairs.lock().unwrap().push(repair);
                        }
                    }
                    match output.status.code() {
                        Some(0) => acknowledged.lock().unwrap().push((key, i)),
                        None => *killed.lock().unwrap() += 1,
                        Some(code) => panic!("baton ctx set {key} exited {code}"),
                    }
                }
            })
        })
        .collect();
    let started = Instant::now();
    for t in threads {
        t.join().unwrap();
    }
    let acknowledged = acknowledged.lock().unwrap().clone();
    let killed = *killed.lock().unwrap();
    eprintln!(
        "{} writes acknowledged, {killed} killed, in {:?}",
        acknowledged.len(),
        started.elapsed()
    );
    assert_eq!(acknowledged.len() + killed, WRITERS * WRITES_EACH);
    assert!(killed > 0, "no writer was killed: the test tested nothing");

    // The store loads and validates (repairs, if any, are reported), and holds every
    // acknowledged write.
    let out = ctx(&sandbox, &["validate"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    eprintln!("validate: {}{}", out.stdout, out.stderr);
    let doc = document(&sandbox);
    for (key, value) in &acknowledged {
        let name = key.rsplit('.').next().unwrap();
        assert_eq!(
            doc["global_context"]["crash"][name],
            Value::from(*value),
            "{key} was acknowledged but is lost"
        );
    }
    // The log is one version per write, in order, without gaps or repeats, and every
    // acknowledged write has its entry.
    let entries = log(&sandbox);
    let versions: Vec<u64> = entries.iter().map(|e| e["v"].as_u64().unwrap()).collect();
    assert_eq!(versions, (1..=versions.len() as u64).collect::<Vec<_>>());
    let written: Vec<&str> = entries.iter().filter_map(|e| e["cmd"].as_str()).collect();
    for (key, _) in &acknowledged {
        assert!(
            written.contains(&format!("set {key}").as_str()),
            "no journal entry for {key}"
        );
    }
    assert!(
        versions.len() > acknowledged.len(),
        "init plus every acknowledged write"
    );
    // Killed writes landed or not depending on the moment: both happen.
    let landed = versions.len() - 1 - acknowledged.len();
    let repairs = repairs.lock().unwrap();
    let count = |kind: &str| repairs.iter().filter(|r| **r == kind).count();
    eprintln!(
        "{landed} of the {killed} killed writes had reached the journal; later writers dropped {} torn \
         lines and brought the document forward {} times",
        count("dropped a torn last line"),
        count("brought it forward")
    );
}
