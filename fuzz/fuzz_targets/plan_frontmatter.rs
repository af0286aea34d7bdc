//! PLAN.md frontmatter (`agents::plans::Plan::parse`) and the waves built from a phase's
//! plans (`agents::waves::schedule`). The input is up to eight PLAN.md texts separated by
//! lines `=====`, plans 03-01, 03-02… of one phase. Any text reads (CRLF as LF) in linear
//! time; a wave read is positive and paths lose `./`; every plan lands in exactly one wave
//! or is reported unscheduled; a declared wave is kept; a dependency inside the phase runs
//! in an earlier wave or is reported; cycles end.

#![no_main]

use std::collections::BTreeSet;
use std::path::Path;

use baton::agents::plans::Plan;
use baton::agents::waves::{Problem, schedule};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let plans: Vec<Plan> = text
        .split("\n=====\n")
        .take(8)
        .enumerate()
        .map(|(i, body)| {
            let id = format!("03-{:02}", i + 1);
            let plan = Plan::parse(&id, Path::new("PLAN.md"), body);
            if !body.contains('\r') {
                assert_eq!(
                    Plan::parse(&id, Path::new("PLAN.md"), &body.replace('\n', "\r\n")),
                    plan
                );
            }
            assert!(plan.wave != Some(0), "wave 0 read");
            assert!(plan.files_modified.iter().all(|f| !f.starts_with("./")));
            let _ = plan.dependency_keys();
            plan
        })
        .collect();
    baton_fuzz::check_linear("Plan::parse", data, |long| {
        let _ = Plan::parse("03-01", Path::new("PLAN.md"), &String::from_utf8_lossy(long));
    });

    let result = schedule(&plans, &BTreeSet::new());
    let unscheduled: Vec<&str> = result
        .problems
        .iter()
        .filter_map(|p| match p {
            Problem::Unscheduled { plan } => Some(plan.as_str()),
            _ => None,
        })
        .collect();
    let wave_of = |id: &str| {
        result
            .waves
            .iter()
            .find(|w| w.plans.iter().any(|p| p == id))
            .map(|w| w.wave)
    };
    for plan in &plans {
        let waves = result.waves.iter().filter(|w| w.plans.contains(&plan.id)).count();
        let missing = unscheduled.contains(&plan.id.as_str());
        assert!(
            waves + usize::from(missing) == 1,
            "{} is in {waves} waves (unscheduled: {missing})",
            plan.id
        );
        if let Some(declared) = plan.wave {
            assert_eq!(
                wave_of(&plan.id),
                Some(declared),
                "{}'s declared wave was not kept",
                plan.id
            );
        }
    }
    for wave in &result.waves {
        assert!(wave.wave > 0);
    }
    for plan in &plans {
        let Some(wave) = wave_of(&plan.id) else { continue };
        for (written, key) in plan.dependency_keys() {
            let Some(on) = key.and_then(|k| plans.iter().find(|p| p.key() == Some(k.clone()))) else {
                continue;
            };
            let Some(on_wave) = wave_of(&on.id) else { continue };
            let reported = result
                .problems
                .iter()
                .any(|p| matches!(p, Problem::Order { plan: p_id, on: o, .. } if *p_id == plan.id && *o == on.id));
            assert!(
                on_wave < wave || reported,
                "{} (wave {wave}) needs {written} (wave {on_wave}), not reported",
                plan.id
            );
        }
    }
});
