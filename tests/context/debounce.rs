//! The monitor's debounce when its state cannot be kept: a state file or temp dir baton
//! cannot read or write, or a state that records no warning, never silences a warning.
//! The debounce only holds back a warning when it has recorded the one before.

use crate::common::*;

const SESSION: &str = "2ce07739-e512-40fe-b9e8-343880ca9de9";

/// Runs the monitor three times at 30% remaining (a fresh bridge file when `bridge`, else a
/// headless transcript) and returns which calls warned.
fn three_calls(sandbox: &Sandbox, bridge: bool) -> Vec<bool> {
    let transcript = sandbox.transcript("t", "claude-sonnet-4-5", 140_000);
    (0..3)
        .map(|_| {
            if bridge {
                sandbox.bridge(SESSION, 30, 0);
            }
            let mut call = post_tool_use(sandbox, SESSION, Some(&transcript));
            call["tool_use_id"] = serde_json::json!("toolu_1");
            match sandbox.hook(&call).context() {
                Some(text) => {
                    assert!(
                        text.starts_with("CONTEXT WARNING: Usage at 70%. Remaining: 30%."),
                        "{text}"
                    );
                    true
                }
                None => false,
            }
        })
        .collect()
}

#[test]
fn an_unusable_temp_dir_warns_on_every_call() {
    // TMPDIR under a regular file: nothing can be created there, by any user.
    let sandbox = Sandbox::new();
    let blocker = sandbox.home.join("not-a-dir");
    std::fs::write(&blocker, "").unwrap();
    let sandbox = sandbox.env("TMPDIR", blocker.join("tmp").to_str().unwrap());
    assert_eq!(three_calls(&sandbox, false), [true, true, true]);

    // A temp dir without write permission (only meaningful when not running as root).
    let readonly = Sandbox::new();
    let dir = readonly.home.join("readonly-tmp");
    std::fs::create_dir(&dir).unwrap();
    crate::common::os::set_mode(&dir, 0o500);
    let writable = std::fs::write(dir.join("probe"), "").is_ok();
    let readonly = readonly.env("TMPDIR", dir.to_str().unwrap());
    if !writable {
        assert_eq!(three_calls(&readonly, false), [true, true, true]);
    }
    crate::common::os::set_mode(&dir, 0o700);
}

#[test]
fn a_state_file_that_cannot_be_written_or_locked_warns_on_every_call() {
    let sandbox = Sandbox::new();
    std::fs::create_dir(sandbox.planted_debounce_file(SESSION)).unwrap();
    assert_eq!(three_calls(&sandbox, true), [true, true, true]);

    // The state and its lock live in baton's private directory in the temp dir: with every
    // name for it taken by something else, neither can be had.
    let locked_out = Sandbox::new();
    crate::common::os::take_every_private_dir_name(&locked_out.tmp);
    assert_eq!(three_calls(&locked_out, true), [true, true, true]);
}

#[test]
fn a_state_that_records_no_warning_does_not_suppress_the_first() {
    for empty in [
        "{}",
        r#"{"callsSinceWarn":2}"#,
        r#"{"callsSinceWarn":2,"lastLevel":null}"#,
    ] {
        let sandbox = Sandbox::new();
        std::fs::write(sandbox.planted_debounce_file(SESSION), empty).unwrap();
        assert_eq!(three_calls(&sandbox, true), [true, false, false], "state {empty}");
    }
}
