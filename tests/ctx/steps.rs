//! Step inputs: the proposal's example step against its example document, required and
//! optional inputs, `extract` and `as`, deterministic transforms run by baton, and other
//! methods handed to the agent as instructions.

use serde_json::{Value, json};

use super::{bmad, ctx, example_store, ok};
use crate::common::Sandbox;

fn inputs_json(sandbox: &Sandbox, workflow: &str, step: &str) -> (Option<i32>, Value, String) {
    let out = ctx(sandbox, &["inputs", "--workflow", workflow, "--step", step, "--json"]);
    let payload = serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("no JSON ({e}): {out:?}"));
    (out.code, payload, out.stderr)
}

#[test]
fn the_proposals_example_step_builds_its_payload() {
    let sandbox = Sandbox::new();
    example_store(&sandbox);
    let step = bmad("workflow-step.yaml");
    let step = step.to_str().unwrap();
    let (code, payload, _) = inputs_json(&sandbox, step, "2");
    assert_eq!(code, Some(0));
    assert_eq!(payload["agent"], "pm");
    assert_eq!(
        payload["inputs"],
        json!({"target_users": ["team_leads", "team_members"],
               "core_features": ["task_creation", "assignment", "tracking"],
               "tech_preferences": {"preferences": ["React", "Node.js", "PostgreSQL"],
                                    "constraints": ["no_microservices", "single_deployment"]}})
    );
    // `constraints` is optional and the brief has none: reported, not fatal.
    assert_eq!(payload["missing_required"], json!([]));
    assert_eq!(payload["missing_optional"][0]["name"], "constraints");
    // expand_with_demographics is not pretended: it is an instruction next to the data.
    assert_eq!(
        payload["instructions"],
        json!([{"input": "target_users", "output": "user_personas", "method": "expand_with_demographics",
                "instruction": "Derive `user_personas` from `target_users` by \"expand_with_demographics\". \
                                baton does not run this method: do it yourself from the data above."}])
    );
    assert!(payload["inputs"].get("user_personas").is_none());
    let text = ok(&sandbox, &["inputs", "--workflow", step, "--step", "2"]);
    assert!(
        text.starts_with("Step 2: Requirements Documentation (agent pm)\nInputs:\n"),
        "{text}"
    );
    assert!(
        text.contains(
            "Missing optional inputs:\n  - constraints: agents.analyst.outputs.project_brief has no 'constraints'"
        ),
        "{text}"
    );
    assert!(
        text.contains("For the agent to do (baton does not run these methods):"),
        "{text}"
    );
}

#[test]
fn missing_required_inputs_fail_listing_every_one() {
    let sandbox = Sandbox::new();
    example_store(&sandbox);
    ok(
        &sandbox,
        &[
            "delete",
            "agents.analyst.outputs.project_brief.structured_data.target_users",
        ],
    );
    ok(
        &sandbox,
        &[
            "delete",
            "agents.analyst.outputs.project_brief.structured_data.core_features",
        ],
    );
    let step = bmad("workflow-step.yaml");
    let (code, payload, stderr) = inputs_json(&sandbox, step.to_str().unwrap(), "2");
    assert_eq!(code, Some(1));
    let names: Vec<&str> = payload["missing_required"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["target_users", "core_features"]);
    assert!(
        stderr.contains("step 2 cannot start: required inputs are missing: target_users, core_features"),
        "{stderr}"
    );
    // The transform's source is gone: said, not silently dropped.
    assert!(
        payload["notes"][0]
            .as_str()
            .unwrap()
            .contains("target_users → user_personas (expand_with_demographics) skipped")
    );

    // A source that does not exist at all fails the same way, naming the path.
    ok(&sandbox, &["delete", "agents.analyst"]);
    let (code, payload, _) = inputs_json(&sandbox, step.to_str().unwrap(), "2");
    assert_eq!(code, Some(1));
    assert!(
        payload["missing_required"][0]["reason"]
            .as_str()
            .unwrap()
            .contains("agents has no key 'analyst'"),
        "{payload:#}"
    );
}

#[test]
fn extract_as_and_deterministic_transforms_run_in_baton() {
    let sandbox = Sandbox::new();
    example_store(&sandbox);
    ok(
        &sandbox,
        &[
            "output",
            "ux",
            "flows",
            "--file",
            "artifacts/flows.md",
            "--quality",
            "7",
            "--data",
            r#"{"screens": [["login", "signup"], ["board", "login"]], "owners": {"login": "ana", "board": "li"},
                     "personas": [{"name": "Lead", "age": 40, "goal": "overview"}]}"#,
            "--as",
            "ux",
        ],
    );
    let workflow = sandbox.write(
        "workflow.yaml",
        r#"
workflow:
  id: greenfield-fullstack
  sequence:
    - agent: analyst
      name: Brief
    - agent: architect
      name: Architecture
      context_inputs:
        - source: agents.ux.outputs.flows
          extract: [screens, owners, personas, structured_data.screens]
          as: ux
        - source: agents.analyst.outputs.project_brief
          extract: [complexity_score]
        - source: /global_context/technical_stack/preferences
        - source: global_context.project_constraints.budget
          as: budget
      context_validation:
        required: [ux.screens, complexity_score, preferences]
        optional: [budget, security_review]
      context_transformation:
        - {transform: ux.screens, to: screen_list, method: flatten}
        - {transform: screen_list, to: screens_unique, method: unique}
        - {transform: screens_unique, to: screen_count, method: count}
        - {transform: screens_unique, to: screen_line, method: join, separator: " / "}
        - {transform: ux.personas, to: persona_goals, method: pick, fields: [name, goal]}
        - {transform: budget, to: budget_tier, method: rename}
        - {transform: ux.owners, to: owner_names, method: values}
        - {transform: screen_list, to: journeys, method: derive_user_journeys, depth: 2}
"#,
    );
    let (code, payload, stderr) = inputs_json(&sandbox, workflow.to_str().unwrap(), "2");
    assert_eq!(code, Some(0), "{stderr}");
    let inputs = &payload["inputs"];
    assert_eq!(
        inputs["ux"]["screens"],
        json!([["login", "signup"], ["board", "login"]])
    );
    assert_eq!(inputs["complexity_score"], json!(7));
    assert_eq!(inputs["preferences"], json!(["React", "Node.js", "PostgreSQL"]));
    assert_eq!(inputs["screen_list"], json!(["login", "signup", "board", "login"]));
    assert_eq!(inputs["screens_unique"], json!(["login", "signup", "board"]));
    assert_eq!(inputs["screen_count"], json!(3));
    assert_eq!(inputs["screen_line"], json!("login / signup / board"));
    assert_eq!(inputs["persona_goals"], json!([{"name": "Lead", "goal": "overview"}]));
    assert_eq!(inputs["owner_names"], json!(["ana", "li"]));
    assert_eq!(inputs["budget_tier"], json!("startup"));
    assert!(inputs.get("budget").is_none(), "rename moves the value");
    assert_eq!(
        payload["missing_optional"],
        json!([{"name": "security_review", "reason": "no context_input provides it"}])
    );
    assert_eq!(payload["instructions"][0]["method"], "derive_user_journeys");
    assert!(
        payload["instructions"][0]["instruction"]
            .as_str()
            .unwrap()
            .contains("(parameters: {\"depth\":2})")
    );

    // Steps without `step:` are numbered by position; an unknown one lists the steps.
    let out = ctx(
        &sandbox,
        &["inputs", "--workflow", workflow.to_str().unwrap(), "--step", "7"],
    );
    assert_eq!(out.code, Some(2));
    assert!(
        out.stderr.contains("has no step 7; its steps are: 1, 2"),
        "{}",
        out.stderr
    );
    let (code, first, _) = inputs_json(&sandbox, workflow.to_str().unwrap(), "1");
    assert_eq!((code, first["inputs"].clone()), (Some(0), json!({})));
}
