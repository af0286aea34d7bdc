//! `baton hook` on any input: the stdin reader takes the payload, serde the payload types,
//! and the dispatch runs the monitor, the ledger, the breadcrumbs and the store in a sandbox
//! whose project files, transcript and bridge file come from the input (see `scene`). The
//! hook prints nothing or exactly one JSON object, `hookSpecificOutput` for the payload's own
//! event with `additionalContext` within Claude Code's cap, writes nothing to stdout or stderr
//! itself, never panics, and writes only inside HOME, TMPDIR and the project.

#![no_main]

use baton::context::monitor::subagent_transcript;
use baton::hook::envelope::MAX_CONTEXT_UNITS;
use baton::hook::fit::utf16_len;
use baton::hook::payload::HookPayload;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let sandbox = baton_fuzz::sandbox();
    let Some(scene) = baton_fuzz::scene::set(sandbox, data) else {
        return;
    };
    let Ok(mut payload) = serde_json::from_slice::<HookPayload>(&scene.payload) else {
        return;
    };
    confine(&mut payload);
    let (output, written) = baton_fuzz::captured(|| baton::dispatch::handle(&payload, baton_fuzz::NOW));
    assert!(
        written.stdout.is_empty(),
        "the hook wrote to stdout itself: {:?}",
        String::from_utf8_lossy(&written.stdout)
    );
    assert!(
        written.stderr.is_empty(),
        "the hook wrote to stderr: {:?}",
        String::from_utf8_lossy(&written.stderr)
    );
    let escaped = sandbox.unexpected_entries();
    assert!(
        escaped.is_empty(),
        "written outside HOME, TMPDIR and the project: {escaped:?}"
    );
    let Some(text) = output else { return };
    assert!(!text.contains('\n'), "the output is more than one line");
    let value: Value = serde_json::from_str(&text).expect("the output is exactly one JSON value");
    let event = payload
        .hook_event_name
        .as_deref()
        .expect("output only for a named event");
    let specific = &value["hookSpecificOutput"];
    assert!(
        value.as_object().is_some_and(|o| o.len() == 1),
        "one key: hookSpecificOutput"
    );
    assert_eq!(specific["hookEventName"], event);
    let context = specific["additionalContext"]
        .as_str()
        .expect("additionalContext is text");
    assert!(!context.trim().is_empty(), "an empty additionalContext");
    assert!(
        utf16_len(context) <= MAX_CONTEXT_UNITS,
        "additionalContext of {} UTF-16 units is over Claude Code's cap",
        utf16_len(context)
    );
});

/// Points the payload's paths into the sandbox: the transcripts at the input's transcript
/// (the subagent's own one too), the working directory and the edited file under the
/// project. A tool id the transcript never mentions is dropped: the monitor would only wait
/// for it (up to a second), which says nothing more about the result.
fn confine(payload: &mut HookPayload) {
    let sandbox = baton_fuzz::sandbox();
    let transcript = sandbox.transcript();
    if payload.transcript_path.is_some() {
        payload.transcript_path = Some(transcript.display().to_string());
        if let Some(own) = payload
            .agent_id
            .as_deref()
            .and_then(|id| subagent_transcript(&transcript, id))
        {
            let bytes = std::fs::read(&transcript).unwrap_or_default();
            sandbox.write(&own, &bytes);
        }
    }
    if payload.agent_transcript_path.is_some() {
        payload.agent_transcript_path = Some(transcript.display().to_string());
    }
    let project = sandbox.project();
    payload.cwd = payload.cwd.as_deref().map(|cwd| sandbox.confine(cwd, &project));
    payload.tool_input_path = payload.tool_input_path.as_deref().map(|p| sandbox.confine(p, &project));
    if let Some(id) = payload.tool_use_id.as_deref() {
        let bytes = std::fs::read(&transcript).unwrap_or_default();
        if !bytes.windows(id.len().max(1)).any(|w| w == id.as_bytes()) {
            payload.tool_use_id = None;
        }
    }
}
