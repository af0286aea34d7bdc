//! The bridge file both ways: gsd-core's monitor reads what baton's statusline writes, and
//! baton's monitor reads what gsd-core's statusline writes.

use serde_json::Value;

use super::super::gsd::{SESSION, context, payloads};
use super::super::sandbox::Sandbox;
use super::{package, run_in};

#[test]
fn gsd_cores_monitor_reads_the_bridge_file_batons_statusline_writes() {
    let hooks = package().join("hooks");
    let sandbox = Sandbox::new("gsd-core-reads-baton");
    let (status, post) = payloads(&sandbox);
    let baton = std::path::Path::new(crate::common::baton_bin());
    run_in(
        &sandbox,
        &sandbox.project,
        baton,
        &["statusline"],
        status.to_string().as_bytes(),
    );
    let monitor = hooks.join("gsd-context-monitor.js");
    let out = run_in(
        &sandbox,
        &sandbox.project,
        &super::super::npm::node24(),
        &[monitor.to_str().unwrap()],
        post.to_string().as_bytes(),
    );
    let said = context(&out);
    assert!(
        said.starts_with("CONTEXT CRITICAL: Usage at 75%. Remaining: 25%."),
        "gsd-core's monitor said: {said:?}"
    );
}

#[test]
fn batons_monitor_reads_the_bridge_file_gsd_cores_statusline_writes() {
    let hooks = package().join("hooks");
    let sandbox = Sandbox::new("baton-reads-gsd-core");
    let (status, post) = payloads(&sandbox);
    let statusline = hooks.join("gsd-statusline.js");
    let node = super::super::npm::node24();
    run_in(
        &sandbox,
        &sandbox.project,
        &node,
        &[statusline.to_str().unwrap()],
        status.to_string().as_bytes(),
    );
    let bridge = std::fs::read_to_string(sandbox.tmp.join(format!("claude-ctx-{SESSION}.json"))).unwrap();
    let bridge: Value = serde_json::from_str(&bridge).unwrap();
    assert!(
        bridge.get("generator").is_none(),
        "this bridge file is gsd-core's own: {bridge}"
    );
    assert_eq!(bridge["remaining_percentage"], 25, "{bridge}");
    let baton = std::path::Path::new(crate::common::baton_bin());
    let said = context(&run_in(
        &sandbox,
        &sandbox.project,
        baton,
        &["hook"],
        post.to_string().as_bytes(),
    ));
    assert!(
        said.starts_with("CONTEXT CRITICAL: Usage at 75%. Remaining: 25%."),
        "baton said: {said:?}"
    );
}
