//! `baton profile resolve` against gsd-core's own resolver for every agent of gsd-core's catalog
//! (and one it does not know) × every profile, plain and with each setting that changes the
//! result: `model_overrides` with full ids, `models.execution`, `model_profile_overrides.claude`,
//! `resolve_model_ids` true and "omit". gsd-core's answers come from its `resolve-model` code
//! (`resolveModelInternal`, called once per agent in one Node process for speed), and a sample
//! through the `gsd-tools resolve-model` command itself.

use serde_json::{Value, json};

use super::super::sandbox::Sandbox;
use super::{package, run_in};

const PROFILES: [&str; 5] = ["quality", "balanced", "budget", "adaptive", "inherit"];
const UNKNOWN: &str = "gsd-custom-helper";

/// The settings each profile is tried with, besides `model_profile`.
fn variants() -> Vec<(&'static str, Value)> {
    vec![
        ("plain", json!({})),
        (
            "overrides",
            json!({"model_overrides": {"gsd-executor": "claude-opus-4-8", "gsd-verifier": "claude-opus-4-5",
                                        "gsd-planner": "haiku", UNKNOWN: "claude-haiku-4-5"}}),
        ),
        (
            "execution",
            json!({"models": {"execution": "opus", "research": "not-a-tier"}}),
        ),
        (
            "tier-overrides",
            json!({"model_profile_overrides": {"claude": {"opus": "claude-opus-4-7", "haiku": {"model": "claude-haiku-4-5"}}}}),
        ),
        ("model-ids", json!({"resolve_model_ids": true})),
        ("omit", json!({"resolve_model_ids": "omit"})),
    ]
}

/// The catalog's agents, from the package.
fn catalog_agents() -> Vec<String> {
    let path = package().join("gsd-core/bin/shared/model-catalog.json");
    let catalog: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    catalog["agents"].as_object().unwrap().keys().cloned().collect()
}

#[test]
fn baton_resolves_every_agent_and_profile_as_gsd_core_does() {
    let sandbox = Sandbox::new("profiles");
    let agents = catalog_agents();
    assert_eq!(agents.len(), 35);
    let mut all = agents.clone();
    all.push(UNKNOWN.to_owned());

    let mut dirs = Vec::new();
    for (name, settings) in variants() {
        for profile in PROFILES {
            let dir = sandbox.root.join(format!("{name}-{profile}"));
            let mut config = settings.clone();
            config["model_profile"] = json!(profile);
            std::fs::create_dir_all(dir.join(".planning")).unwrap();
            std::fs::write(dir.join(".planning/config.json"), config.to_string()).unwrap();
            dirs.push(dir);
        }
    }

    // gsd-core: its resolver once per directory and agent, in one process.
    let resolver = package().join("gsd-core/bin/lib/model-resolver.cjs");
    let script = format!(
        "const {{ resolveModelInternal }} = require({resolver:?});\n\
         const [dirs, agents] = JSON.parse(process.argv[1]);\n\
         process.stdout.write(JSON.stringify(dirs.map(d => agents.map(a => resolveModelInternal(d, a)))));\n",
        resolver = resolver.display().to_string()
    );
    let input = json!([dirs, all]).to_string();
    let node = super::super::npm::node24();
    let out = run_in(&sandbox, &sandbox.root, &node, &["-e", &script, &input], b"");
    let gsd_core: Vec<Vec<String>> = serde_json::from_str(&out).unwrap();

    let baton = std::path::Path::new(crate::common::baton_bin());
    let mut differences = Vec::new();
    for (dir, theirs) in dirs.iter().zip(&gsd_core) {
        let mut args = vec!["profile", "resolve", "--json"];
        args.extend(all.iter().map(String::as_str));
        let ours: Value = serde_json::from_str(&run_in(&sandbox, dir, baton, &args, b"")).unwrap();
        for (agent, model) in all.iter().zip(theirs) {
            if ours["models"][agent] != json!(model) {
                let case = dir.file_name().unwrap().to_string_lossy();
                differences.push(format!(
                    "{case} {agent}: gsd-core {model:?}, baton {}",
                    ours["models"][agent]
                ));
            }
        }
        // Without names, baton lists the same 35 agents (and the overridden extra one).
        let listed: Value =
            serde_json::from_str(&run_in(&sandbox, dir, baton, &["profile", "resolve", "--json"], b"")).unwrap();
        let listed: Vec<&String> = listed["models"].as_object().unwrap().keys().collect();
        assert!(agents.iter().all(|a| listed.contains(&a)), "{listed:?}");
    }
    assert!(
        differences.is_empty(),
        "{} of {} differ:\n{}",
        differences.len(),
        dirs.len() * all.len(),
        differences.join("\n")
    );

    // The command itself, on a sample: the light agents under adaptive, an unknown agent.
    let tools = package().join("gsd-core/bin/gsd-tools.cjs");
    let adaptive = sandbox.root.join("plain-adaptive");
    for agent in [
        "gsd-plan-checker",
        "gsd-integration-checker",
        "gsd-nyquist-auditor",
        UNKNOWN,
    ] {
        let args = [tools.to_str().unwrap(), "resolve-model", agent, "--raw"];
        let theirs = run_in(&sandbox, &adaptive, &node, &args, b"");
        let ours = run_in(&sandbox, &adaptive, baton, &["profile", "resolve", agent], b"");
        assert_eq!(ours.trim(), theirs.trim(), "{agent} under adaptive");
    }
}
