//! ROADMAP.md (`planning::roadmap::Roadmap::parse`) and the progress definition over it
//! (`planning::progress::Progress`): any text reads (or is refused past a bound) in time
//! linear in its length, each phase number once, the same with CRLF line ends as with LF;
//! progress stays a percentage, done never exceeds total, and a milestone's progress is a
//! part of the whole.

#![no_main]

use baton::planning::layout::Generation;
use baton::planning::progress::Progress;
use baton::planning::roadmap::Roadmap;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let parsed = Roadmap::parse(&text);
    baton_fuzz::check_linear("Roadmap::parse", data, |long| {
        let _ = Roadmap::parse(&String::from_utf8_lossy(long));
    });

    if !text.contains('\r') {
        assert_eq!(
            Roadmap::parse(&text.replace('\n', "\r\n")),
            parsed,
            "CRLF reads otherwise"
        );
    }
    let Ok(roadmap) = parsed else { return };
    for (i, phase) in roadmap.phases.iter().enumerate() {
        assert!(
            roadmap.phases[..i].iter().all(|p| p.number != phase.number),
            "phase {} listed twice",
            phase.number
        );
    }

    // Both GSDs' rules: GSD 1.x's and gsd-core's (done once verified).
    for generation in [Generation::Classic, Generation::Core] {
        let progress = Progress::compute(&roadmap, &[], generation);
        well_formed(&progress);
        let mut milestones: Vec<&str> = roadmap.phases.iter().filter_map(|p| p.milestone.as_deref()).collect();
        milestones.dedup();
        for milestone in milestones {
            let part = progress.for_milestone(milestone);
            well_formed(&part);
            assert!(part.total_phases <= progress.total_phases && part.total_plans <= progress.total_plans);
        }
    }
});

fn well_formed(progress: &Progress) {
    assert!(progress.percent <= 100);
    assert!(progress.completed_phases <= progress.total_phases);
    assert!(progress.completed_plans <= progress.total_plans);
    assert_eq!(progress.total_phases, progress.phases.len());
    for phase in &progress.phases {
        assert!(phase.plans_done <= phase.plans_total, "{phase:?}");
        assert_eq!(phase.plans.len(), phase.plans_total);
    }
    if progress.total_phases > 0 && progress.completed_phases == progress.total_phases {
        assert_eq!(progress.percent, 100, "every phase done but not 100%");
    }
    if progress.percent == 100 {
        assert_eq!(
            progress.completed_phases, progress.total_phases,
            "100% with a phase not done"
        );
    }
}
