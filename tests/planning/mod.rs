//! The planning files on the statusline and hook path: hostile files cost a bounded time and
//! drop only the GSD segment (commands name the file and the bound).

mod bounds;
mod segment_cache;

use serde_json::Value;

use crate::common::*;

/// The line with the GSD segment left out.
const PLAIN_LINE: &str = "Sonnet 4.5 │ proj │ ████████░░ 83%";
/// The line for `gsd::write_project`'s project.
const GSD_LINE: &str = "Sonnet 4.5 │ v1.1 Checkout 8% · Phase 3/6 Cart · executing │ proj │ ████████░░ 83%";

/// A statusline payload from the real client (150k of 200k used) for the sandbox's project.
fn after_reply(sandbox: &Sandbox) -> Value {
    sandbox.statusline_payload_in_project(fixture("statusline-after-reply.json"))
}

/// A sandbox holding `gsd::write_project`'s project, rendering without colours.
fn gsd_project() -> Sandbox {
    let sandbox = Sandbox::new().env("NO_COLOR", "1");
    crate::common::gsd::write_project(&sandbox);
    sandbox
}
