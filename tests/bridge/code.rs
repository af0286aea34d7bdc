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
