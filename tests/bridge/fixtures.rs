//! Each fixture project under `tests/fixtures/bridge/<domain>-<framework>/` is bridged as a
//! whole (`--files .`) and must give the extraction in its `expected.json`: the `structured`
//! lists (see `assert_holds`) and lines of `contextForNext`.

use serde_json::Value;

use super::{assert_holds, bridge_json, copy_project, fixture_dir};
use crate::common::Sandbox;

/// Bridges fixture `name` and checks it against its `expected.json`; returns the handoff.
#[track_caller]
pub(super) fn check(name: &str) -> Value {
    let expected: Value =
        serde_json::from_slice(&std::fs::read(fixture_dir(name).join("expected.json")).unwrap()).unwrap();
    let sandbox = Sandbox::new();
    copy_project(&sandbox, name);
    if let Some(config) = expected.get("config") {
        sandbox.write(".baton/config.json", &config.to_string());
    }
    let agent = expected["agent"].as_str().unwrap();
    let handoff = bridge_json(&sandbox, &["--agent", agent, "--files", "."]);
    assert_eq!(handoff["agent"], agent);
    assert_holds(&expected["structured"], &handoff["structured"], "structured");
    let context = handoff["contextForNext"].as_str().unwrap();
    for line in expected["contextForNext"].as_array().unwrap() {
        let line = line.as_str().unwrap();
        assert!(context.contains(line), "contextForNext lacks {line:?}:\n{context}");
    }
    handoff
}

#[test]
fn postgres_migrations_with_types_dollar_blocks_quoted_schema_names_and_a_broken_statement() {
    let handoff = check("db-postgres");
    assert_eq!(handoff["domain"], "db");
    let summary = handoff["summary"].as_str().unwrap();
    assert!(
        summary.starts_with(
            "db-coding-agent (db) changed 6 files: 3 tables (public.customers, billing.Invoices, billing.audit_log)"
        ),
        "{summary}"
    );
    assert!(summary.contains("1 could not be parsed"), "{summary}");
    let seed = handoff["artifacts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["path"] == "db/seeds/dev_seed.sql")
        .unwrap();
    assert_eq!(seed["type"], "file", "a seed file holds no schema: {seed}");
}

#[test]
fn mysql_backticks_engine_options_keys_and_alter_table() {
    check("db-mysql");
}

#[test]
fn sqlite_strict_and_without_rowid_tables_and_a_trigger_body() {
    check("db-sqlite");
}

#[test]
fn prisma_schema_with_its_generated_migration() {
    let handoff = check("db-prisma");
    let context = handoff["contextForNext"].as_str().unwrap();
    assert_eq!(
        context.matches("- Role = USER | EDITOR | ADMIN").count(),
        1,
        "{context}"
    );
}

#[test]
fn github_actions_workflows_dockerfile_and_env_example() {
    let handoff = check("devops-github-actions");
    let shown = handoff.to_string();
    assert!(
        !shown.contains("change-me") && !shown.contains("app_test"),
        "values leaked: {shown}"
    );
}

#[test]
fn gitlab_ci_with_anchors_includes_and_hidden_jobs() {
    check("devops-gitlab");
}

#[test]
fn azure_pipelines_with_stages_deployments_and_the_docker_task() {
    check("devops-azure");
}

#[test]
fn security_ids_in_comments_and_prose_but_not_in_strings_or_data() {
    let handoff = check("security-findings");
    assert!(
        !handoff.to_string().contains("CVE-2099-0001"),
        "an id inside a string counted"
    );
}

#[test]
fn go_gin_with_groups_chained_middleware_validator_tags_env_struct_tags_and_golang_migrate() {
    let handoff = check("backend-go-gin");
    let context = handoff["contextForNext"].as_str().unwrap();
    // The down migration drops what the up migration made: the tables stay.
    assert!(context.contains("- accounts"), "{context}");
}

#[test]
fn go_chi_closures_and_mounts_net_http_patterns_echo_groups_and_gorm_models() {
    let handoff = check("backend-go-services");
    let tables = handoff["structured"]["tables"].to_string();
    assert!(!tables.contains("\"author\""), "a relation is no column: {tables}");
    // goose keeps the undo in the file, after `-- +goose Down`: the tables stay.
    for table in ["users", "articles_archive", "display_name"] {
        assert!(tables.contains(&format!("\"{table}\"")), "{table} is missing: {tables}");
    }
}

#[test]
fn vue_router_tables_with_lazy_pages_and_children_pinia_stores_and_env_in_components() {
    let handoff = check("frontend-vue");
    let routes = handoff["structured"]["routes"].to_string();
    // A menu's `{ path }` objects in a component are no route table.
    assert_eq!(routes.matches("\"/cart\"").count(), 1, "{routes}");
}

#[test]
fn sveltekit_file_routes_server_handlers_form_actions_hooks_env_modules_and_stores() {
    let handoff = check("frontend-sveltekit");
    let state = handoff["structured"]["state"].to_string();
    assert!(
        !state.contains("busy"),
        "a store made inside a function is no module store: {state}"
    );
}

#[test]
fn nuxt_pages_nitro_handlers_server_middleware_runtime_config_and_component_prefixes() {
    let handoff = check("frontend-nuxt");
    let guards = handoff["structured"]["guards"].to_string();
    assert!(!guards.contains("\"log\""), "a logger is no guard: {guards}");
}

#[test]
fn vue_file_routes_from_src_pages_with_markdown_pages_layouts_and_a_setup_store() {
    let handoff = check("frontend-vue-pages");
    let shown = handoff["structured"].to_string();
    assert!(!shown.contains("README"), "a README is no page: {shown}");
    assert!(!shown.contains("\"MODE\""), "Vite's built-ins are no env vars: {shown}");
}

#[test]
fn vue2_router_with_default_children_a_route_module_vuex_modules_and_a_test_file_router() {
    let handoff = check("frontend-vue2-vuex");
    let routes = handoff["structured"]["routes"].to_string();
    assert!(
        !routes.contains("/profile\""),
        "a test's router is no route table: {routes}"
    );
}

#[test]
fn spring_controllers_method_security_filter_chain_jpa_superclasses_validation_and_config_placeholders() {
    let handoff = check("backend-spring");
    let structured = &handoff["structured"];
    // A Feign client's mappings are routes it calls, not routes it serves.
    let endpoints = structured["endpoints"].to_string();
    assert!(!endpoints.contains("/invoices"), "{endpoints}");
    // A mapped superclass or an embeddable lends its columns and is no table; relations to many, transient
    // and static fields are no columns.
    let tables = structured["tables"].to_string();
    for absent in [
        "base_entity",
        "audited_entity",
        "\"person\"",
        "contact_info",
        "nickname",
        "\"pets\"",
        "serial_version_uid",
    ] {
        assert!(!tables.contains(absent), "{absent} in {tables}");
    }
    // A commented-out placeholder, a lower-case property and a JVM system property read no env var.
    let env = structured["envVars"].to_string();
    for absent in [
        "OLD_DB_PASSWORD",
        "NOT_AN_ENV",
        "app.title",
        "app.cors",
        "billing.region",
        "USER_REGION",
    ] {
        assert!(!env.contains(absent), "{absent} in {env}");
    }
}

#[test]
fn rails_routes_resources_nested_and_namespaced_migrations_before_action_guards_validations_and_env() {
    let handoff = check("backend-rails");
    let endpoints = handoff["structured"]["endpoints"].to_string();
    assert!(
        !endpoints.contains("\"GET /api/v1/articles/new\""),
        "except: [:new] {endpoints}"
    );
}

#[test]
fn laravel_api_prefix_groups_resources_middleware_migrations_form_requests_and_env() {
    let handoff = check("backend-laravel");
    let tables = handoff["structured"]["tables"].to_string();
    assert!(tables.contains("remember_token"), "{tables}");
}
