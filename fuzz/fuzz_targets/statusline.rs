//! `baton statusline` on any input: the payload (the input's first JSON object, through the
//! stdin reader and serde) is rendered in a sandbox whose project files, task list, bridge
//! file and transcript come from the input (see `scene`). The line is always exactly one
//! non-empty line of printable text (NO_COLOR is set) ending in the context meter; with
//! `COLUMNS` it fits the terminal (the meter alone may not); nothing reaches stdout or
//! stderr; a bridge file written says `used_pct + remaining_percentage = 100`.

#![no_main]

use baton::context::bridge::Bridge;
use baton::words::width;
use baton::hook::payload::StatuslinePayload;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let sandbox = baton_fuzz::sandbox();
    let Some(scene) = baton_fuzz::scene::set(sandbox, data) else {
        return;
    };
    // The statusline renders whatever the payload: one it cannot read is the empty one.
    let mut payload: StatuslinePayload = serde_json::from_slice(&scene.payload).unwrap_or_default();
    confine(&mut payload);
    // SAFETY: the fuzzing process runs one input at a time on this thread; baton reads
    // COLUMNS only while rendering, below.
    unsafe {
        match scene.columns {
            Some(columns) => std::env::set_var("COLUMNS", columns.to_string()),
            None => std::env::remove_var("COLUMNS"),
        }
    }
    let (line, written) = baton_fuzz::captured(|| baton::context::statusline::render(&payload, baton_fuzz::NOW));
    assert!(
        written.stdout.is_empty() && written.stderr.is_empty(),
        "the statusline wrote by itself: {written:?}"
    );
    let escaped = sandbox.unexpected_entries();
    assert!(
        escaped.is_empty(),
        "written outside HOME, TMPDIR and the project: {escaped:?}"
    );

    assert!(!line.trim().is_empty(), "a blank line");
    assert!(!line.chars().any(char::is_control), "control characters in {line:?}");
    assert!(
        line.ends_with('%') || line.ends_with("--"),
        "no meter at the end of {line:?}"
    );
    if let Some(columns) = scene.columns.filter(|c| *c > 0) {
        let cells = width::cells(&line);
        assert!(
            cells <= columns.max(baton_fuzz::METER_CELLS),
            "{cells} cells in {columns} columns: {line:?}"
        );
    }

    let session = payload
        .session_id
        .as_deref()
        .filter(|s| baton::fsx::is_safe_session_id(s));
    if let Some(path) = session.and_then(baton::context::bridge::path)
        && scene.fuzz.get("bridge").is_none()
        && let Ok(bytes) = std::fs::read(&path)
    {
        let bridge: Bridge = serde_json::from_slice(&bytes).expect("the bridge file baton wrote reads back");
        let (used, remaining) = (
            bridge.used_pct.expect("used_pct"),
            bridge.remaining_percentage.expect("remaining"),
        );
        assert!((0.0..=100.0).contains(&used) && used + remaining == 100.0, "{bridge:?}");
    }
});

/// Points the payload's directories under the sandbox's project and its transcript at the
/// input's transcript.
fn confine(payload: &mut StatuslinePayload) {
    let sandbox = baton_fuzz::sandbox();
    let project = sandbox.project();
    if payload.transcript_path.is_some() {
        payload.transcript_path = Some(sandbox.transcript().display().to_string());
    }
    payload.cwd = payload.cwd.as_deref().map(|cwd| sandbox.confine(cwd, &project));
    if let Some(workspace) = payload.workspace.as_mut() {
        workspace.current_dir = workspace.current_dir.as_deref().map(|d| sandbox.confine(d, &project));
        workspace.project_dir = workspace.project_dir.as_deref().map(|d| sandbox.confine(d, &project));
    }
}
