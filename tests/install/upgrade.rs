//! Installing over an install from before baton handled PostCompact (its settings and manifest
//! have every hook but that one): the next `baton install` wires PostCompact, records it, and
//! `uninstall` takes it out with the rest, giving back the original file byte for byte.

use serde_json::Value;

use super::{ok, settings, settings_path, write_settings};
use crate::common::*;

const ORIGINAL: &str = "{\n  \"model\": \"opus\",\n  \"hooks\": {\n    \"Stop\": [\n      {\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"notify-send done\"\n          }\n        ]\n      }\n    ]\n  }\n}\n";

/// Takes `event`'s groups out of a `hooks` object.
fn without(value: &mut Value, event: &str) {
    value.as_object_mut().unwrap().remove(event);
}

#[test]
fn an_install_from_before_post_compact_gets_it_and_uninstall_removes_it() {
    let sandbox = Sandbox::new();
    write_settings(&sandbox, ORIGINAL);
    ok(sandbox.run(&["install"], b""));

    // What a baton without PostCompact left: no PostCompact group, none in its manifest.
    let mut old = settings(&sandbox);
    without(&mut old["hooks"], "PostCompact");
    std::fs::write(settings_path(&sandbox), serde_json::to_string_pretty(&old).unwrap()).unwrap();
    let manifest_path = sandbox.home.join(".claude/baton-install.json");
    let mut manifest = sandbox.read_json(&manifest_path);
    let groups = manifest["groups"].as_array_mut().unwrap();
    let before = groups.len();
    groups.retain(|g| g["event"] != "PostCompact");
    assert_eq!(
        groups.len(),
        before - 1,
        "the manifest recorded PostCompact: {manifest}"
    );
    std::fs::write(&manifest_path, manifest.to_string()).unwrap();

    let out = ok(sandbox.run(&["install"], b""));
    assert!(out.stdout.contains("hooks.PostCompact"), "{}", out.stdout);
    let now = settings(&sandbox);
    let post_compact = &now["hooks"]["PostCompact"];
    assert_eq!(post_compact.as_array().map(Vec::len), Some(1), "{now}");
    let command = post_compact[0]["hooks"][0]["command"].as_str().unwrap();
    assert!(
        command.ends_with(&format!("/{} hook", binary::file_name())),
        "{command}"
    );
    assert_eq!(now["hooks"]["Stop"][0]["hooks"][0]["command"], "notify-send done");
    let recorded = sandbox.read_json(&manifest_path);
    assert!(
        recorded["groups"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["event"] == "PostCompact"),
        "{recorded}"
    );

    ok(sandbox.run(&["uninstall"], b""));
    assert_eq!(std::fs::read_to_string(settings_path(&sandbox)).unwrap(), ORIGINAL);
    assert!(!manifest_path.exists());
}
