//! A Django 5 + DRF project shaped like cookiecutter-django and the HackSoftware styleguide,
//! bridged whole: URLconfs included as `(patterns, "namespace")` tuples and lists written in
//! place, API views whose methods and permission classes sit on local base classes in
//! another module, app labels from `AppConfig`, keys to `AUTH_USER_MODEL` from split
//! settings, and env vars read through django-environ.

use serde_json::Value;

use super::fixtures::check;
use super::{bridge_json, copy_project};
use crate::common::Sandbox;

const FIXTURE: &str = "backend-django5-drf";

/// The structured handoff of the fixture.
fn structured() -> Value {
    let sandbox = Sandbox::new();
    copy_project(&sandbox, FIXTURE);
    bridge_json(&sandbox, &["--agent", "backend-coding-agent", "--files", "."])["structured"].take()
}

/// `"METHOD /path"` of every endpoint.
fn endpoints(structured: &Value) -> Vec<String> {
    structured["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| format!("{} {}", e["method"].as_str().unwrap(), e["path"].as_str().unwrap()))
        .collect()
}

/// The table named `name`.
fn table<'v>(structured: &'v Value, name: &str) -> &'v Value {
    structured["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == name)
        .unwrap_or_else(|| panic!("no table {name}: {:#}", structured["tables"]))
}

/// The table a foreign key on `column` of table `name` references.
fn references(structured: &Value, name: &str, column: &str) -> String {
    table(structured, name)["foreignKeys"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["columns"][0] == column)
        .map(|k| k["referencesTable"].as_str().unwrap().to_owned())
        .unwrap_or_else(|| panic!("no key on {name}.{column}"))
}

#[test]
fn django5_drf_project_bridged_whole() {
    check(FIXTURE);
}

#[test]
fn django_includes_of_pattern_lists_in_namespace_tuples_and_in_place_reach_their_views() {
    let found = endpoints(&structured());
    for wanted in ["POST /api/auth/login/", "POST /api/auth/logout/", "GET /api/health/"] {
        assert!(found.iter().any(|e| e == wanted), "{wanted} missing: {found:?}");
    }
}

#[test]
fn django_api_views_take_methods_and_permissions_from_local_base_classes_in_other_modules() {
    let structured = structured();
    let found = endpoints(&structured);
    let boards = found.iter().filter(|e| e.contains(" /api/boards/"));
    assert!(boards.clone().all(|e| !e.starts_with("ALL ")), "{found:?}");
    for wanted in [
        "GET /api/boards/",
        "GET /api/boards/<int:board_id>/",
        "DELETE /api/boards/<int:board_id>/",
        "POST /api/boards/<int:board_id>/cards/",
    ] {
        let endpoint = structured["endpoints"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| format!("{} {}", e["method"].as_str().unwrap(), e["path"].as_str().unwrap()) == wanted)
            .unwrap_or_else(|| panic!("{wanted} missing: {found:?}"));
        assert_eq!(endpoint["guards"], serde_json::json!(["IsAuthenticated"]), "{wanted}");
    }
}

#[test]
fn django_tables_take_their_apps_appconfig_label_not_a_models_submodule() {
    let structured = structured();
    for name in [
        "kanban_board",
        "kanban_card",
        "kanban_archivedboard",
        "kanban_board_members",
    ] {
        table(&structured, name);
    }
    let names = structured["tables"].to_string();
    assert!(!names.contains("boards_") && !names.contains("archive_"), "{names}");
}

#[test]
fn django_keys_to_the_user_model_point_at_the_model_auth_user_model_names() {
    let structured = structured();
    for (name, column) in [
        ("kanban_board", "owner_id"),
        ("kanban_card", "assignee_id"),
        ("kanban_card", "reviewer_id"),
        ("kanban_board_members", "member_id"),
    ] {
        assert_eq!(
            references(&structured, name, column),
            "accounts_member",
            "{name}.{column}"
        );
    }
    assert!(!structured["tables"].to_string().contains("auth_user\""));
}

#[test]
fn django_environ_reads_are_env_vars() {
    let structured = structured();
    let names: Vec<&str> = structured["envVars"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|v| v["source"] == "django-environ")
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    for wanted in [
        "DJANGO_READ_DOT_ENV_FILE",
        "DJANGO_DEBUG",
        "DJANGO_SECRET_KEY",
        "DJANGO_ALLOWED_HOSTS",
        "DATABASE_URL",
        "CONN_MAX_AGE",
        "DJANGO_EMAIL_BACKEND",
        "REDIS_URL",
    ] {
        assert!(names.contains(&wanted), "{wanted} missing: {names:?}");
    }
}

#[test]
fn django_meta_app_label_names_a_models_app_outright() {
    // `class Meta: app_label = "kanban"` on a model kept in `tracker/shared/models.py`.
    let structured = structured();
    table(&structured, "kanban_label");
    assert!(!structured["tables"].to_string().contains("shared_label"));
    let indexes = structured["indexes"].to_string();
    assert!(indexes.contains("\"table\":\"kanban_label\""), "{indexes}");
}

#[test]
fn django_generic_views_the_run_does_not_define_answer_their_own_methods() {
    // `TemplateView.as_view(template_name=…)` answers GET, not any method.
    let found = endpoints(&structured());
    assert!(found.iter().any(|e| e == "GET /"), "{found:?}");
    assert!(!found.iter().any(|e| e == "ALL /"), "{found:?}");
}

#[test]
fn django_a_user_model_that_only_extends_abstract_user_is_a_table() {
    // `class Member(AbstractUser): pass`, as cookiecutter-django and djangox write it.
    let structured = structured();
    let columns = table(&structured, "accounts_member")["columns"].to_string();
    assert!(
        columns.contains("\"username\"") && columns.contains("\"password\""),
        "{columns}"
    );
    table(&structured, "accounts_member_groups");
}

#[test]
fn django_a_router_chosen_by_a_conditional_registers_its_viewsets() {
    // `router = DefaultRouter() if settings.DEBUG else SimpleRouter()` (cookiecutter-django).
    let found = endpoints(&structured());
    for wanted in ["GET /api/members/", "GET /api/members/<username>/"] {
        assert!(found.iter().any(|e| e == wanted), "{wanted} missing: {found:?}");
    }
}

#[test]
fn django_authentication_classes_are_guards_in_use_not_route_guards() {
    // `authentication_classes = [SessionAuthentication, JWTAuthentication]` on the base API
    // class: named among the guards; the permission class is what guards the routes.
    let structured = structured();
    let guards = structured["guards"].as_array().unwrap();
    for name in ["SessionAuthentication", "JWTAuthentication"] {
        let guard = guards
            .iter()
            .find(|g| g["name"] == name)
            .unwrap_or_else(|| panic!("{name} missing: {guards:#?}"));
        assert_eq!(guard["kind"], "authentication");
    }
    assert!(!structured["endpoints"].to_string().contains("JWTAuthentication"));
}

#[test]
fn django_a_module_level_as_view_alias_routes_like_its_class() {
    // `member_detail_view = MemberDetailView.as_view()` named by `path(..., view=…)`: the
    // class's methods and mixins, as cookiecutter-django's users app writes it.
    let structured = structured();
    let endpoint = structured["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["path"] == "/members/<str:username>/")
        .unwrap_or_else(|| panic!("{:#}", structured["endpoints"]));
    assert_eq!(endpoint["method"], "GET");
    assert_eq!(endpoint["handler"], "MemberDetailView.get");
    assert_eq!(endpoint["guards"], serde_json::json!(["LoginRequiredMixin"]));
}

#[test]
fn django_a_view_whose_methods_come_from_a_library_base_still_answers_at_its_url() {
    // `class SchemaApi(SpectacularAPIView)`: no method of its own or of a base in the run.
    let found = endpoints(&structured());
    assert!(found.iter().any(|e| e == "ALL /api/schema/"), "{found:?}");
}
