//! HANDOFF.json (`continuity::handoff`): any bytes read as a handoff or an error, never a
//! panic; a handoff that reads comes back equal through baton's own JSON (what `pause`
//! writes must read back as written); describing it never fails; a valid one is written
//! into the project, and `resume`'s brief of it renders.

#![no_main]

use baton::continuity::handoff::{self, Handoff};
use baton::continuity::resume;
use baton::planning::Project;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(read) = serde_json::from_slice::<Handoff>(data) else {
        return;
    };
    let pretty = serde_json::to_vec_pretty(&read).expect("a handoff serialises");
    let back: Handoff = serde_json::from_slice(&pretty).expect("baton's own JSON reads");
    assert_eq!(back, read, "the handoff changed through its JSON");

    let _ = read.problems();
    let _ = read.stopped_at();
    for blocker in &read.blockers {
        let _ = blocker.describe();
    }
    for action in &read.human_actions_pending {
        let _ = action.describe();
    }
    if !read.problems().is_empty() {
        return;
    }
    let sandbox = baton_fuzz::sandbox();
    sandbox.reset();
    let project = Project {
        root: sandbox.project(),
    };
    handoff::write(&project, &read).expect("a valid handoff is written and reads back");
    let brief = resume::brief(&project)
        .expect("the brief of a written handoff")
        .expect("a handoff is there");
    assert!(!resume::render(&brief).is_empty());
});
