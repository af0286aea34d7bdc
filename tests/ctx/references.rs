//! The proposal's example document loads and validates unchanged; references resolve nested,
//! through the middle of a path, in pointer form and for keys with dots; cycles and dangling
//! references are errors that name the chain.

use serde_json::{Value, json};

use super::{bmad, ctx, document, example_store, get, ok};
use crate::common::{Sandbox, native};

#[test]
fn the_proposals_example_document_loads_and_validates_unchanged() {
    let sandbox = Sandbox::new();
    example_store(&sandbox);
    let example: Value = serde_json::from_slice(&std::fs::read(bmad("context-store-example.json")).unwrap()).unwrap();
    let loaded = document(&sandbox);
    assert_eq!(loaded, example);
    assert_eq!(
        serde_json::to_string(&loaded).unwrap(),
        serde_json::to_string(&example).unwrap(),
        "key order kept too"
    );
    let report = ok(&sandbox, &["validate"]);
    assert!(report.contains("OK: the document matches the journal"), "{report}");
    let summary = ok(&sandbox, &["show"]);
    assert!(summary.contains("version 1 (context_version \"1.0.2\")"), "{summary}");
    assert!(summary.contains("analyst  completed"), "{summary}");

    // A copy put in place by hand (no journal yet) is adopted as version 1, unchanged.
    let by_hand = Sandbox::new();
    std::fs::create_dir_all(by_hand.project.join(".baton")).unwrap();
    std::fs::copy(
        bmad("context-store-example.json"),
        by_hand.project.join(".baton/context.json"),
    )
    .unwrap();
    let out = ctx(&by_hand, &["validate"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(
        out.stderr.contains("had no journal: it is now version 1"),
        "{}",
        out.stderr
    );
    assert_eq!(document(&by_hand), example);
}

#[test]
fn references_resolve_nested_and_through_paths() {
    let sandbox = Sandbox::new();
    example_store(&sandbox);
    // Unresolved, a reference is the string; resolved, the analyst's artifact.
    assert_eq!(
        get(&sandbox, &["agents.pm.inputs.project_brief"]),
        json!("@agents.analyst.outputs.project_brief")
    );
    let brief = get(&sandbox, &["agents.pm.inputs.project_brief", "--resolve"]);
    assert_eq!(
        brief["structured_data"]["target_users"],
        json!(["team_leads", "team_members"])
    );
    // A reference to a reference, inside a list, and a path through a reference.
    ok(
        &sandbox,
        &[
            "set",
            "agents.architect.inputs",
            r#"{"brief": "@agents.pm.inputs.project_brief",
        "stack": ["@/global_context/technical_stack/preferences/0", "@@not-a-reference"]}"#,
        ],
    );
    let inputs = get(&sandbox, &["agents.architect.inputs", "--resolve"]);
    assert_eq!(inputs["brief"]["quality_score"], json!(8.5));
    assert_eq!(inputs["stack"], json!(["React", "@not-a-reference"]));
    assert_eq!(
        get(
            &sandbox,
            &[
                "agents.architect.inputs.brief.structured_data.complexity_score",
                "--resolve"
            ]
        ),
        json!(7)
    );
    // Pointer form reaches keys with dots; a reference can too.
    ok(
        &sandbox,
        &["set", "/global_context/versions/v1.2", r#"{"node": "20.x"}"#],
    );
    assert_eq!(get(&sandbox, &["/global_context/versions/v1.2/node"]), json!("20.x"));
    ok(
        &sandbox,
        &[
            "set",
            "agents.devops.inputs.runtime",
            "@/global_context/versions/v1.2/node",
        ],
    );
    assert_eq!(
        get(&sandbox, &["agents.devops.inputs", "--resolve"]),
        json!({"runtime": "20.x"})
    );
    assert_eq!(
        get(&sandbox, &["--", "/global_context/versions/v1.2"]),
        json!({"node": "20.x"})
    );
    ok(&sandbox, &["validate"]);
}

#[test]
fn dangling_and_cyclic_references_are_errors_naming_the_chain() {
    let sandbox = Sandbox::new();
    example_store(&sandbox);
    ok(&sandbox, &["set", "agents.qa.inputs.prd", "@agents.pm.outputs.prd"]);
    let out = ctx(&sandbox, &["get", "agents.qa.inputs", "--resolve"]);
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(
        out.stderr.contains("dangling reference at agents.qa.inputs.prd: agents.qa.inputs.prd → @agents.pm.outputs.prd (agents.pm has no key 'outputs')"),
        "{}",
        out.stderr
    );
    // validate names it too, and fails.
    let out = ctx(&sandbox, &["validate"]);
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(
        out.stdout.contains("dangling reference at agents.qa.inputs.prd"),
        "{}",
        out.stdout
    );

    ok(&sandbox, &["set", "agents.qa.inputs.prd", "@global_context.loop.a"]);
    ok(
        &sandbox,
        &[
            "set",
            "global_context.loop",
            r#"{"a": "@global_context.loop.b", "b": {"c": "@global_context.loop.a"}}"#,
        ],
    );
    let out = ctx(&sandbox, &["get", "agents.qa.inputs", "--resolve"]);
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(
        out.stderr.contains("reference cycle at agents.qa.inputs.prd: agents.qa.inputs.prd → global_context.loop.a → global_context.loop.b.c → @global_context.loop.a"),
        "{}",
        out.stderr
    );
    assert!(out.elapsed < std::time::Duration::from_secs(5), "a cycle must not hang");
    let self_ref = ctx(&sandbox, &["set", "agents.qa.inputs.me", "@agents.qa"]);
    assert_eq!(self_ref.code, Some(0));
    let out = ctx(&sandbox, &["get", "agents.qa", "--resolve"]);
    assert!(out.stderr.contains("reference cycle"), "{}", out.stderr);
}

/// Found while writing the store's fuzz target (fuzz/fuzz_targets/store_path.rs): following
/// a chain of references took time in its length squared and stack in its length, so a
/// document with a chain of 20,000 crashed `get --resolve`, `validate` and the SubagentStart
/// hook with a stack overflow (SIGABRT, a message on stderr). `validate` also compared each
/// problem with every other (a list searched per problem), minutes for such a document.
#[test]
fn a_reference_chain_too_long_to_follow_is_an_error_and_the_hook_stays_silent() {
    let sandbox = Sandbox::new();
    let mut doc = serde_json::Map::new();
    for i in 0..20_000 {
        doc.insert(format!("a{i}"), json!(format!("@a{}", i + 1)));
    }
    doc.insert("a20000".into(), json!("end"));
    doc.insert(
        "agents".into(),
        json!({"pm": {"status": "pending", "inputs": {"brief": "@a0"}}}),
    );
    sandbox.write(".baton/context.json", &Value::Object(doc).to_string());

    let out = ctx(&sandbox, &["get", "a0", "--resolve"]);
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(
        out.stderr
            .contains("reference chain at a0 is longer than 32 references: a0 → a1 → a2 → @a3 → …"),
        "{}",
        out.stderr
    );
    assert!(out.elapsed < std::time::Duration::from_secs(10), "{:?}", out.elapsed);

    let mut payload = crate::common::fixture("subagentstart.json");
    payload["cwd"] = json!(native(&sandbox.project));
    payload["agent_type"] = json!("pm");
    sandbox.hook(&payload).assert_hook_contract();
}

#[test]
fn bad_paths_and_values_are_usage_errors_that_say_what_to_do() {
    let sandbox = Sandbox::new();
    let out = ctx(&sandbox, &["show"]);
    assert_eq!(out.code, Some(1));
    assert!(out.stderr.contains("run `baton ctx init`"), "{}", out.stderr);
    example_store(&sandbox);
    let out = ctx(&sandbox, &["init"]);
    assert_eq!(out.code, Some(1));
    assert!(out.stderr.contains("already exists"), "{}", out.stderr);
    for (args, expected) in [
        (&["get", "agents..pm"][..], "for keys with dots use a JSON Pointer"),
        (&["get"][..], "get needs PATH"),
        (&["set", "a"][..], "set needs VALUE | --file F | --stdin"),
        (&["get", "a", "--keep", "3"][..], "baton ctx: get does not take --keep"),
        (
            &["agent", "pm", "--status", "done"][..],
            "one of: pending, in_progress, completed, failed",
        ),
        (&["output", "pm", "prd", "--data", "{oops"][..], "--data is not JSON"),
        (
            &["show", "--at", "99"][..],
            "there is no version 99: the store has versions 1 to 1",
        ),
        (&["frobnicate"][..], "unknown action 'frobnicate'"),
        (&["compact"][..], "needs --keep N"),
    ] {
        let out = ctx(&sandbox, args);
        assert_eq!(out.code, Some(2), "{args:?}: {out:?}");
        assert!(out.stderr.contains(expected), "{args:?}: {}", out.stderr);
    }
    let out = ctx(&sandbox, &["get", "agents.pm.outputs"]);
    assert_eq!(out.code, Some(1));
    assert!(
        out.stderr
            .contains("nothing at agents.pm.outputs: agents.pm has no key 'outputs'"),
        "{}",
        out.stderr
    );
    let out = ctx(&sandbox, &["set", "project_name.sub", "x"]);
    assert_eq!(out.code, Some(1));
    assert!(out.stderr.contains("project_name is a string"), "{}", out.stderr);
    // Nothing was written by the failed commands.
    assert_eq!(super::log(&sandbox).len(), 1);
}

/// `levels` levels of lists of two references each to the level below (a few KB): the top
/// resolves to 2^levels leaves.
fn fan_out(levels: usize) -> Value {
    let mut global = serde_json::Map::new();
    for i in 0..levels {
        let below = format!("@global_context.l{}", i + 1);
        global.insert(format!("l{i}"), json!([below, below]));
    }
    global.insert(format!("l{levels}"), json!("leaf"));
    json!({"project_name": "p", "context_version": 1,
           "agents": {"dev": {"status": "pending", "inputs": {"all": "@global_context.l0", "top": "@global_context.l28"}}},
           "global_context": global})
}

/// Issue 21 item 7: 30 levels of two references each. Each reference is resolved once, and
/// the size of what they expand to is known before anything is built, so the refusals come
/// at once (before: the SubagentStart hook took 34 s, `validate` 240 s, `get --resolve` 50 s).
/// `Sandbox::run` fails the test past its hang limit.
#[test]
fn references_that_fan_out_are_measured_once_and_refused_before_they_are_built() {
    let sandbox = Sandbox::new();
    let from = sandbox.write("doc.json", &fan_out(30).to_string());
    ok(&sandbox, &["init", "--from", from.to_str().unwrap()]);

    let out = sandbox.run(&["ctx", "get", "agents.dev.inputs.all", "--resolve"], b"");
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(
        out.stderr.contains("references expand to more than 2000000 values"),
        "{}",
        out.stderr
    );
    let out = sandbox.run(&["ctx", "validate"], b"");
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(
        out.stdout.contains("references expand to more than 2000000 values"),
        "{}",
        out.stdout
    );

    let mut start = crate::common::fixture("subagentstart.json");
    start["cwd"] = json!(sandbox.project);
    start["agent_type"] = json!("dev");
    let out = sandbox.run(&["hook"], start.to_string().as_bytes());
    out.assert_hook_contract();
    let context: Value = serde_json::from_str(&out.stdout).unwrap();
    let text = context["hookSpecificOutput"]["additionalContext"].as_str().unwrap();
    assert!(
        text.contains("\"top\":[[\"leaf\",\"leaf\"],[\"leaf\",\"leaf\"]]"),
        "{text}"
    );
    assert!(
        text.contains("Left out for size: all; read them with `baton ctx get agents.dev.inputs.KEY --resolve`."),
        "{text}"
    );

    // What fits is built, each shared level once: 2^16 leaves.
    let resolved = ok(&sandbox, &["get", "global_context.l14", "--resolve"]);
    assert_eq!(resolved.matches("\"leaf\"").count(), 1 << 16);
}
