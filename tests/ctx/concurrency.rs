//! 16 writers × 100 writes at once: 1,600 versions, none lost, and the log consistent; and
//! writes that land while other processes read the document.

use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::Value;

use super::{ctx, document, example_store, log, ok};
use crate::common::Sandbox;

#[test]
fn sixteen_writers_at_once_land_every_write_as_its_own_version() {
    let sandbox = Arc::new(Sandbox::new());
    example_store(&sandbox);
    let threads: Vec<_> = (0..16)
        .map(|w| {
            let sandbox = sandbox.clone();
            std::thread::spawn(move || {
                for i in 0..100 {
                    // Every writer also bumps one shared key: the last write must win whole.
                    let key = format!("global_context.writers.w{w:02}.n{i:03}");
                    let out = sandbox
                        .command(&["ctx", "set", &key, &format!("{{\"writer\": {w}, \"i\": {i}}}")])
                        .env("BATON_AGENT", format!("agent-{w:02}"))
                        .stdin(Stdio::null())
                        .output()
                        .unwrap();
                    assert!(out.status.success(), "{key}: {}", String::from_utf8_lossy(&out.stderr));
                    assert!(out.stderr.is_empty(), "{key}: {}", String::from_utf8_lossy(&out.stderr));
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let entries = log(&sandbox);
    assert_eq!(entries.len(), 1601, "init and 1,600 writes");
    let versions: Vec<u64> = entries.iter().map(|e| e["v"].as_u64().unwrap()).collect();
    assert_eq!(versions, (1..=1601).collect::<Vec<u64>>());
    // Each writer's 100 writes are in the log in the order it made them.
    for w in 0..16 {
        let mine: Vec<&str> = entries
            .iter()
            .filter(|e| e["by"] == format!("agent-{w:02}").as_str())
            .map(|e| e["cmd"].as_str().unwrap())
            .collect();
        let expected: Vec<String> = (0..100)
            .map(|i| format!("set global_context.writers.w{w:02}.n{i:03}"))
            .collect();
        assert_eq!(mine, expected, "writer {w}");
    }
    let doc = document(&sandbox);
    let writers = doc["global_context"]["writers"].as_object().unwrap();
    let total: usize = writers.values().map(|w| w.as_object().unwrap().len()).sum();
    assert_eq!(total, 1600, "every write is in the document");
    assert_eq!(
        doc["global_context"]["writers"]["w07"]["n042"],
        serde_json::json!({"writer": 7, "i": 42})
    );
    assert_eq!(doc["context_version"], Value::from("1.0.1602"));
    ok(&sandbox, &["validate"]);
}

/// Readers read the document without the lock while writers replace it. Windows refuses to
/// replace a file another process has open unless the system renames as Unix does (Windows
/// 10 on NTFS; not Wine, FAT or a network drive): a write waits the reader out instead of
/// failing with "access denied".
#[test]
fn writes_land_while_other_processes_read_the_document() {
    let sandbox = Arc::new(Sandbox::new());
    example_store(&sandbox);
    let writing = Arc::new(AtomicBool::new(true));
    let readers: Vec<_> = (0..3)
        .map(|_| {
            let (sandbox, writing) = (sandbox.clone(), writing.clone());
            std::thread::spawn(move || {
                let mut reads = 0;
                while writing.load(Ordering::Relaxed) {
                    let out = ctx(&sandbox, &["get", "global_context"]);
                    assert_eq!(out.code, Some(0), "{out:?}");
                    serde_json::from_str::<Value>(&out.stdout).unwrap_or_else(|e| panic!("{e}: {out:?}"));
                    reads += 1;
                }
                reads
            })
        })
        .collect();
    let writers: Vec<_> = (0..2)
        .map(|w| {
            let sandbox = sandbox.clone();
            std::thread::spawn(move || {
                for i in 0..15 {
                    ok(
                        &sandbox,
                        &["set", &format!("global_context.read_while.w{w}n{i:02}"), "true"],
                    );
                }
            })
        })
        .collect();
    for writer in writers {
        writer.join().unwrap();
    }
    writing.store(false, Ordering::Relaxed);
    let reads: usize = readers.into_iter().map(|r| r.join().unwrap()).sum();
    assert!(reads >= 3, "the readers read while the writers wrote: {reads}");
    let written = document(&sandbox)["global_context"]["read_while"]
        .as_object()
        .unwrap()
        .len();
    assert_eq!(written, 30, "every write landed");
}
