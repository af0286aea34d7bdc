//! The code extractor's fixture projects through `baton bridge` (one per framework): the
//! `structured` lists and `contextForNext` lines each `expected.json` names; and what
//! `--timings` says of the parsing.

use super::baton;
use super::fixtures::check;
use crate::common::Sandbox;

#[test]
fn express_routers_mounted_across_files_with_zod_bodies_and_a_broken_file() {
    check("backend-express");
}

#[test]
fn koa_router_prefixes_and_chained_routes() {
    check("backend-koa");
}

#[test]
fn fastify_plugins_under_register_prefixes() {
    check("backend-fastify");
}

#[test]
fn nestjs_controllers_under_the_global_prefix_with_dtos() {
    check("backend-nestjs");
}

#[test]
fn fastapi_routers_included_across_modules_with_pydantic_models() {
    check("backend-fastapi");
}

#[test]
fn flask_blueprints_registered_in_an_app_factory() {
    check("backend-flask");
}

#[test]
fn axum_routers_nested_from_other_modules() {
    check("backend-axum");
}

#[test]
fn actix_scopes_config_functions_and_attribute_handlers() {
    check("backend-actix");
}

#[test]
fn react_app_with_router_slices_stores_contexts_and_the_configured_design_system() {
    check("frontend-react");
}

#[test]
fn nextjs_app_router_pages_and_route_handlers() {
    check("frontend-nextjs");
}

#[test]
fn remix_flat_routes_and_resource_routes() {
    check("frontend-remix");
}

#[test]
fn typeorm_entities_with_relations() {
    check("db-typeorm");
}

#[test]
fn sqlalchemy_declarative_and_classic_tables() {
    check("db-sqlalchemy");
}

#[test]
fn django_models_with_abstract_parents_and_meta() {
    check("db-django");
}

#[test]
fn diesel_schema_with_joinables() {
    check("db-diesel");
}

#[test]
fn seaorm_entities_with_belongs_to() {
    check("db-seaorm");
}

#[test]
fn express_prefixes_from_config_modules_chained_and_table_mounts_with_auth_middleware() {
    let handoff = check("backend-express-mounts");
    let endpoints = handoff["structured"]["endpoints"].as_array().unwrap();
    // `app.options('*', cors())` answers preflights: no endpoint; `passport.initialize()` and
    // `cors()` are no guards.
    assert!(endpoints.iter().all(|e| e["method"] != "OPTIONS"), "{endpoints:#?}");
    let guards = handoff["structured"]["guards"].to_string();
    assert!(!guards.contains("initialize") && !guards.contains("cors"), "{guards}");
}

#[test]
fn express_loaders_take_the_app_destructured_and_mount_a_router_factory_under_the_config_prefix() {
    // `({ app }) => app.use(config.api.prefix, api())`, `api` returning the router its route
    // modules register on; `require('compression')()` is no guard.
    let handoff = check("backend-express-loaders");
    assert!(!handoff["structured"]["guards"].to_string().contains("require\""));
}

#[test]
fn fastapi_settings_prefix_dependencies_aliases_and_security_schemes() {
    let handoff = check("backend-fastapi-auth");
    let shapes = handoff["structured"]["shapes"].to_string();
    assert!(!shapes.contains("\"Book\""), "a table model is no shape: {shapes}");
}

#[test]
fn fastify_autoload_folders_autohooks_route_hooks_and_typebox_bodies() {
    let handoff = check("backend-fastify-autoload");
    // `autoPrefix` replaces the folder's name; a folder with an index file loads only that.
    let paths: Vec<&str> = handoff["structured"]["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["path"].as_str().unwrap())
        .collect();
    assert!(
        paths
            .iter()
            .all(|p| !p.contains("/api/bookings") && !p.contains("helpers")),
        "{paths:?}"
    );
}

#[test]
fn nestjs_guards_global_guards_and_middleware_bound_to_routes() {
    let handoff = check("backend-nestjs-guards");
    // Rate limiting is no auth guard, and a backend's DTO re-exports are no components.
    assert!(!handoff["structured"]["guards"].to_string().contains("Throttler"));
    assert_eq!(handoff["structured"]["components"], serde_json::json!([]));
}

#[test]
fn django_urlconfs_drf_routers_viewsets_and_permission_classes() {
    check("backend-django-drf");
}

#[test]
fn flask_blueprint_prefixes_login_decorators_before_request_and_forms() {
    check("backend-flask-auth");
}

#[test]
fn axum_routers_in_spawned_tasks_layers_extractors_and_serde_bodies() {
    let handoff = check("backend-axum-auth");
    let structured = &handoff["structured"];
    // A struct no endpoint takes or returns is no body; an extractor that never rejects is
    // no guard.
    assert!(!structured["shapes"].to_string().contains("InternalAuditRecord"));
    assert!(!structured["guards"].to_string().contains("MaybeUser"));
}

#[test]
fn nextjs_catch_all_api_routes_zod_bodies_and_auth_middleware() {
    check("frontend-nextjs-auth");
}

#[test]
fn remix_actions_are_post_endpoints_with_their_auth_checks() {
    check("frontend-remix-actions");
}

#[test]
fn tanstack_router_file_routes_and_their_unexported_page_components() {
    check("frontend-tanstack");
}

#[test]
fn timings_say_how_many_code_files_were_parsed_and_the_routes_still_count() {
    let sandbox = Sandbox::new();
    let write = |name: &str, text: &str| {
        let path = sandbox.project.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    // A router (parsed), and two helper modules that name no signal of any scanner: no
    // route, env read, component, model, class or type, so they are never parsed.
    write(
        "src/routes.ts",
        "import { Router } from \"express\";\nexport const router = Router();\nrouter.get(\"/items/:id\", (req, res) => res.json({}));\n",
    );
    write(
        "src/format.ts",
        "export function twice(value: number): number {\n  return value * 2;\n}\n",
    );
    write("app/scale.py", "def scale(value):\n    return value * 3\n");
    let out = baton(
        &sandbox,
        &[
            "bridge",
            "--files",
            "src/routes.ts",
            "src/format.ts",
            "app/scale.py",
            "--json",
            "--timings",
        ],
    );
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(
        out.stderr.contains("bridge: extract code: parse 1 of 3 files"),
        "{out:?}"
    );
    let handoff: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let endpoints = &handoff["structured"]["endpoints"];
    assert_eq!(endpoints[0]["path"], "/items/:id", "{handoff:#}");
    assert_eq!(endpoints[0]["method"], "GET", "{handoff:#}");
}
