//! 16 writers × 100 writes at once: 1,600 versions, none lost, and the log consistent.

use std::process::Stdio;
use std::sync::Arc;

use serde_json::Value;

use super::{document, example_store, log, ok};
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
