//! `baton profile`: resolution precedence, switching profiles without disturbing the rest of
//! `.planning/config.json`, and errors that list what is valid.

use serde_json::{Value, json};

use crate::common::Sandbox;

/// A GSD config as people leave it: odd spacing, tabs, nested objects, non-ASCII, a string
/// holding braces and an escaped quote, keys in no particular order.
const CONFIG: &str = "{\n\t\"mode\" : \"interactive\",\n\t\"depth\": \"standard\",\n\t\"model_profile\":   \"balanced\" ,\n\
\t\"model_overrides\": {\"gsd-executor\": \"claude-opus-4-5\", \"my-reviewer\": \"haiku\"},\n\
\t\"hooks\": {\"context_warnings\": false},\n\t\"notes\": \"caf\u{e9} {not a key} \\\"quoted\\\"\",\n\
\t\"parallelization\": {\"enabled\": true, \"max_concurrent_agents\": 3}\n}\n";

fn resolve_json(sandbox: &Sandbox, agents: &[&str]) -> Value {
    let mut args = vec!["profile", "resolve"];
    args.extend(agents);
    args.push("--json");
    let out = sandbox.run(&args, b"");
    assert_eq!(out.code, Some(0), "{out:?}");
    serde_json::from_str(&out.stdout).unwrap()
}

#[test]
fn overrides_beat_the_profile_and_the_profile_beats_inherit() {
    let sandbox = Sandbox::new();
    sandbox.write(".planning/config.json", CONFIG);
    let v = resolve_json(&sandbox, &[]);
    assert_eq!(v["profile"], "balanced");
    assert_eq!(v["profile_source"], "config");
    assert_eq!(
        v["models"]["gsd-executor"], "claude-opus-4-5",
        "override beats balanced's sonnet"
    );
    assert_eq!(v["models"]["gsd-planner"], "opus");
    assert_eq!(v["models"]["gsd-codebase-mapper"], "haiku");
    assert_eq!(
        v["models"]["my-reviewer"], "haiku",
        "agents only in overrides resolve too"
    );
    assert_eq!(
        v["models"].as_object().unwrap().len(),
        36,
        "gsd-core's 35 agents and my-reviewer"
    );
    let executor = v["agents"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["agent"] == "gsd-executor")
        .unwrap();
    assert_eq!(executor["source"], "override");

    sandbox.run(&["profile", "set", "inherit"], b"");
    let v = resolve_json(&sandbox, &["gsd-planner", "gsd-executor"]);
    assert_eq!(
        v["models"],
        json!({"gsd-planner": "inherit", "gsd-executor": "claude-opus-4-5"})
    );
    assert_eq!(v["agents"][0]["source"], "inherit");

    sandbox.run(&["profile", "set", "adaptive"], b"");
    let one = sandbox.run(&["profile", "resolve", "gsd-planner"], b"");
    assert_eq!(
        (one.code, one.stdout.as_str()),
        (Some(0), "opus\n"),
        "one agent prints just its model"
    );
    let two = sandbox.run(&["profile", "resolve", "gsd-verifier", "gsd-research-synthesizer"], b"");
    assert_eq!(
        two.stdout,
        "gsd-verifier             sonnet\ngsd-research-synthesizer haiku\n"
    );
}

#[test]
fn without_a_config_the_default_is_balanced() {
    let sandbox = Sandbox::new();
    sandbox.with_planning_state();
    let v = resolve_json(&sandbox, &["gsd-planner", "gsd-roadmapper"]);
    assert_eq!(v["profile"], "balanced");
    assert_eq!(v["profile_source"], "default");
    assert_eq!(v["models"], json!({"gsd-planner": "opus", "gsd-roadmapper": "sonnet"}));
    let show = sandbox.run(&["profile"], b"");
    assert!(show.stdout.starts_with("Model profile: balanced (default;"), "{show:?}");
}

#[test]
fn switching_changes_only_the_value_bytes() {
    let sandbox = Sandbox::new();
    let path = sandbox.write(".planning/config.json", CONFIG);
    let out = sandbox.run(&["profile", "set", "quality"], b"");
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(
        out.stdout.starts_with("Model profile: quality (was balanced) in "),
        "{out:?}"
    );
    let after = std::fs::read_to_string(&path).unwrap();
    let at = CONFIG.find("\"balanced\"").unwrap();
    assert_eq!(&after[..at], &CONFIG[..at], "bytes before the value");
    assert_eq!(&after[at..at + 9], "\"quality\"");
    assert_eq!(&after[at + 9..], &CONFIG[at + 10..], "bytes after the value");
    let parsed: Value = serde_json::from_str(&after).unwrap();
    assert_eq!(parsed["model_profile"], "quality");
}

#[test]
fn a_missing_key_is_inserted_first_and_a_missing_file_is_created() {
    let sandbox = Sandbox::new();
    let original = "{\n    \"mode\": \"yolo\",\n    \"hooks\": {\"context_warnings\": true}\n}\n";
    let path = sandbox.write(".planning/config.json", original);
    sandbox.run(&["profile", "set", "budget"], b"");
    let after = std::fs::read_to_string(&path).unwrap();
    let inserted = "    \"model_profile\": \"budget\",\n";
    assert_eq!(after.replacen(inserted, "", 1), original, "{after}");
    assert!(after.starts_with(&format!("{{\n{inserted}")), "{after}");

    let fresh = Sandbox::new();
    fresh.write(".baton/.keep", "");
    let out = fresh.run(&["profile", "set", "budget"], b"");
    assert_eq!(out.code, Some(0), "{out:?}");
    let created = fresh.read_json(&fresh.project.join(".planning/config.json"));
    assert_eq!(created, json!({"model_profile": "budget"}));
}

#[test]
fn parallel_switches_leave_a_valid_file_with_every_other_key() {
    let sandbox = Sandbox::new();
    let path = sandbox.write(".planning/config.json", CONFIG);
    let profiles = [
        "quality", "budget", "adaptive", "inherit", "balanced", "quality", "budget", "inherit",
    ];
    let children: Vec<_> = profiles
        .iter()
        .map(|p| {
            sandbox
                .command(&["profile", "set", p])
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    let after = std::fs::read_to_string(&path).unwrap();
    let parsed: Value = serde_json::from_str(&after).unwrap();
    let mut expected: Value = serde_json::from_str(CONFIG).unwrap();
    expected["model_profile"] = parsed["model_profile"].clone();
    assert_eq!(parsed, expected);
    assert!(profiles.contains(&parsed["model_profile"].as_str().unwrap()));
}

#[test]
fn unknown_names_are_explained_and_bad_files_refused() {
    let sandbox = Sandbox::new();
    let path = sandbox.write(".planning/config.json", CONFIG);
    let out = sandbox.run(&["profile", "set", "turbo"], b"");
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(
        out.stderr
            .contains("unknown model profile 'turbo'; the profiles are: quality, balanced, budget, adaptive, inherit"),
        "{out:?}"
    );
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        CONFIG,
        "a refused set writes nothing"
    );

    let out = sandbox.run(&["profile", "set"], b"");
    assert_eq!(out.code, Some(2));
    assert!(
        out.stderr.contains("set needs PROFILE (one of quality, balanced"),
        "{out:?}"
    );

    // An agent the catalog does not know gets the profile's general choice, as in gsd-core,
    // and a note names the known ones (a typo shows).
    let out = sandbox.run(&["profile", "resolve", "gsd-planer"], b"");
    assert_eq!((out.code, out.stdout.as_str()), (Some(0), "sonnet\n"), "{out:?}");
    assert!(
        out.stderr
            .contains("'gsd-planer' is not one of the catalog's agents (gsd-planner, gsd-roadmapper"),
        "{out:?}"
    );
    assert!(
        out.stderr.contains("my-reviewer"),
        "override-only agents are listed: {out:?}"
    );

    sandbox.write(".planning/config.json", "{\"model_profile\": \"fast\"}");
    let out = sandbox.run(&["profile", "show"], b"");
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(
        out.stderr
            .contains("config.json: \"model_profile\": \"fast\" is not a profile; run `baton profile set PROFILE`"),
        "{out:?}"
    );

    sandbox.write(".planning/config.json", "{\"model_profile\": \"budget\",");
    let out = sandbox.run(&["profile", "set", "quality"], b"");
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(
        out.stderr.contains("not valid JSON") && out.stderr.contains("fix the file by hand"),
        "{out:?}"
    );
}

#[test]
fn a_non_anthropic_endpoint_gets_the_inherit_advice() {
    let sandbox = Sandbox::new().env("ANTHROPIC_BASE_URL", "https://openrouter.ai/api");
    sandbox.write(".planning/config.json", CONFIG);
    let show = sandbox.run(&["profile", "show"], b"");
    assert!(
        show.stdout.contains("Note: ANTHROPIC_BASE_URL points at openrouter.ai"),
        "{show:?}"
    );
    assert!(show.stdout.contains("`baton profile set inherit`"));
    let v = resolve_json(&sandbox, &[]);
    assert!(v["advice"].as_str().unwrap().contains("openrouter.ai"));

    let anthropic = Sandbox::new().env("ANTHROPIC_BASE_URL", "https://api.anthropic.com");
    assert!(!anthropic.run(&["profile", "show"], b"").stdout.contains("Note:"));
}

#[test]
fn the_slash_command_shells_out_to_profile_set() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/plugin/commands/set-profile.md")).unwrap();
    let (front, body) = text.strip_prefix("---\n").unwrap().split_once("\n---\n").unwrap();
    let front: serde_norway::Value = serde_norway::from_str(front).unwrap();
    assert!(front["description"].as_str().is_some_and(|d| !d.is_empty()));
    assert!(front["argument-hint"].as_str().unwrap().contains("inherit"));
    assert_eq!(front["allowed-tools"].as_str(), Some("Bash(baton:*)"));
    assert!(
        body.contains("```!\nbaton profile set --args-stdin <<'BATON_ARGS_END'\n$ARGUMENTS\nBATON_ARGS_END\n```"),
        "{body}"
    );
}
