//! Environment variables and services (both read by the rule engine) extracted from the
//! fixture projects, and the signal check before parsing, which must never change what the
//! fixtures give.

use super::fixture::extract_with_rules;
use crate::bridge::facts::Facts;

/// `NAME (source) file` of every environment variable.
fn env_lines(facts: &Facts) -> Vec<String> {
    facts
        .env_vars
        .iter()
        .map(|e| format!("{} ({}) {}", e.name, e.source, e.file))
        .collect()
}

fn methods<'f>(facts: &'f Facts, service: &str) -> &'f [String] {
    let found = facts.services.iter().find(|s| s.name == service);
    &found
        .unwrap_or_else(|| panic!("no {service} in {:#?}", facts.services))
        .methods
}

#[test]
fn env_vars_are_read_from_member_access_subscripts_and_destructuring() {
    let facts = extract_with_rules("backend-express");
    assert_eq!(
        env_lines(&facts),
        [
            "PORT (process.env) src/config.ts",
            "DATABASE_URL (process.env) src/config.ts",
            "JWT_SECRET (process.env) src/config.ts",
            "STRIPE_API_KEY (process.env) src/config.ts",
            "STRIPE_WEBHOOK_SECRET (process.env) src/config.ts",
            "JWT_SECRET (process.env) src/middleware/auth.ts",
        ]
    );
}

#[test]
fn python_env_reads_and_pydantic_settings_fields_are_env_vars() {
    let facts = extract_with_rules("backend-fastapi");
    assert_eq!(
        env_lines(&facts),
        [
            "PROJECT_NAME (pydantic-settings) app/core/config.py",
            "DATABASE_URL (pydantic-settings) app/core/config.py",
            "SENTRY_DSN (os.getenv) app/core/config.py",
            "REDIS_URL (os.environ) app/core/config.py",
            "SECRET_KEY (os.environ) app/core/config.py",
        ]
    );
    assert_eq!(
        env_lines(&extract_with_rules("backend-flask")),
        ["FLASK_SECRET_KEY (os.environ) app/__init__.py"]
    );
}

#[test]
fn rust_env_reads() {
    assert_eq!(
        env_lines(&extract_with_rules("backend-axum")),
        ["DATABASE_URL (std::env::var) src/main.rs"]
    );
    assert_eq!(
        env_lines(&extract_with_rules("backend-actix")),
        ["BIND_ADDR (std::env::var) src/main.rs"]
    );
}

#[test]
fn services_list_their_public_methods_only() {
    assert_eq!(
        methods(&extract_with_rules("backend-express"), "UsersService"),
        ["list", "create"]
    );
    assert_eq!(
        methods(&extract_with_rules("backend-nestjs"), "UsersService"),
        ["findAll", "findOne", "create", "update", "remove"]
    );
    assert_eq!(
        methods(&extract_with_rules("backend-fastapi"), "UserService"),
        ["list", "get", "create", "update", "delete"]
    );
}

#[test]
fn rust_services_merge_inherent_impls_and_skip_trait_impls() {
    assert_eq!(
        methods(&extract_with_rules("backend-axum"), "LedgerService"),
        ["new", "open_account", "close_account"]
    );
}

/// The fixture projects' names (every folder of `tests/fixtures/bridge/`).
fn fixture_projects() -> Vec<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/bridge");
    let mut names: Vec<String> = std::fs::read_dir(&root)
        .expect("fixture folder")
        .map(|entry| entry.expect("dir entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn the_signal_check_before_parsing_never_changes_what_is_extracted() {
    use super::wants::Wants;
    use crate::bridge::extract::syntax::Grammar;
    use crate::bridge::extract::{Settings, Source};

    let configured = Settings {
        design_system: vec!["@acme/ui".into(), "@/components/ui".into()],
        ..Settings::default()
    };
    let (mut skipped_files, mut parsed_without_design) = (0, 0);
    for project in fixture_projects() {
        let files = super::fixture::files(&project);
        let sources: Vec<Source<'_>> = files.iter().map(|(path, text)| Source { path, text }).collect();
        for settings in [&Settings::default(), &configured] {
            assert_eq!(
                super::extract_with(&sources, settings),
                super::extract_unfiltered(&sources, settings),
                "{project}: the pre-filter changed the extraction"
            );
        }
        for source in &sources {
            let Some(grammar) = Grammar::of_code_path(source.path) else {
                continue;
            };
            let wants = Wants::of(grammar, source.path, source.text, &configured.design_system);
            skipped_files += usize::from(!wants.any());
            parsed_without_design += usize::from(wants.any() && !wants.design);
        }
    }
    // Otherwise the comparison above would prove nothing.
    assert!(skipped_files > 0, "no fixture file is skipped by the pre-filter");
    assert!(
        parsed_without_design > 0,
        "no parsed fixture file has its design-system scanner left out"
    );
}
