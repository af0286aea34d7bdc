//! The data, devops and security fixtures of issue 20, each bridged whole (`--files .`) and
//! checked against its `expected.json`: a migration history replayed into the schema after
//! the run, SQLModel models merged with their Alembic chain, Flask-SQLAlchemy defaults and
//! mixins, TypeORM base classes and join tables, scans and pushes in pipelines with env vars
//! from compose, Dockerfile and Prisma, and ticket ids fixed by default.

use super::fixtures::check;

#[test]
fn a_migration_history_leaves_the_schema_after_its_last_migration() {
    let handoff = check("db-migration-history");
    let context = handoff["contextForNext"].as_str().unwrap();
    for gone in [
        "users",
        "sessions",
        "legacy_flag",
        "approver_id",
        "invoices_user_idx",
        "total_cents",
    ] {
        assert!(
            !context.contains(&format!("{gone} ")) && !context.contains(&format!("{gone},")),
            "{gone} is gone after the run, yet named:\n{context}"
        );
    }
}

#[test]
fn sqlmodel_tables_with_their_parents_fields_merged_with_the_alembic_chain() {
    check("db-sqlmodel-alembic");
}

#[test]
fn flask_sqlalchemy_default_names_mapped_columns_mixins_and_flaskenv() {
    check("db-flask-sqlalchemy");
}

#[test]
fn typeorm_base_class_columns_and_join_tables() {
    check("db-typeorm-relations");
}

#[test]
fn pipeline_scans_steps_stages_pushes_through_variables_and_env_from_every_file() {
    let handoff = check("devops-scans-and-env");
    assert!(
        !handoff.to_string().contains("set POSTGRES_PASSWORD"),
        "a value reached the handoff"
    );
}

#[test]
fn ticket_ids_a_fix_word_names_are_findings_without_configuration() {
    let handoff = check("security-tickets");
    let shown = handoff.to_string();
    for not_a_finding in ["SEC-9999", "PAY-12", "SHA-256", "UTF-8", "PEP-8"] {
        assert!(
            !shown.contains(&format!("\"{not_a_finding}\"")),
            "{not_a_finding} counted: {shown}"
        );
    }
}

#[test]
fn every_kind_with_items_gets_space_in_context_for_next() {
    // A run that touched many files of every kind: no kind may crowd the others out. (Kept
    // under the 64 KiB a test reads of the JSON: the handoff of a bigger one is longer.)
    let sandbox = crate::common::Sandbox::new();
    for i in 0..20 {
        sandbox.write(
            &format!("src/routes/r{i:03}.ts"),
            &format!(
                "import {{ Router }} from 'express';\nexport const router = Router();\n\
                 router.get('/api/v1/things/{i}/details', (req, res) => res.json({{}}));\n\
                 router.post('/api/v1/things/{i}/actions', (req, res) => res.json({{}}));\n"
            ),
        );
    }
    for i in 0..14 {
        sandbox.write(
            &format!("db/migrations/{i:04}_table_{i}.sql"),
            &format!("CREATE TABLE table_{i} (id bigserial PRIMARY KEY, name text NOT NULL, note text, created_at timestamptz);\n"),
        );
    }
    let env: String = (0..30).map(|i| format!("SETTING_NUMBER_{i}=x\n")).collect();
    sandbox.write(".env.example", &env);
    sandbox.write(
        ".github/workflows/ci.yml",
        "name: CI\non: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - name: Trivy\n        uses: aquasecurity/trivy-action@0.28.0\n",
    );
    sandbox.write(
        "src/auth.ts",
        "// Fixes SEC-4471: check the token's audience.\nexport const audience = 'api';\n",
    );
    let handoff = super::bridge_json(&sandbox, &["--agent", "backend-agent", "--files", "."]);
    let context = handoff["contextForNext"].as_str().unwrap();
    assert!(
        context.chars().count() <= 3000,
        "{} characters",
        context.chars().count()
    );
    for (title, cut) in [
        ("Endpoints:", Some("more endpoints")),
        ("Tables:", Some("more tables")),
        ("Env vars:", Some("more env vars")),
        ("Pipelines:", None),
        ("Findings:", None),
    ] {
        let at = context.find(title).unwrap_or_else(|| panic!("no {title}:\n{context}"));
        let first = context[at..].lines().nth(1).unwrap();
        assert!(
            first.starts_with("- ") && !first.starts_with("- … "),
            "{title} lists nothing:\n{context}"
        );
        if let Some(cut) = cut {
            assert!(context.contains(cut), "no count of {cut}:\n{context}");
        }
    }
    assert!(
        context.ends_with("Lists cut for length; `baton bridge --json` has everything."),
        "{context}"
    );
}

#[test]
fn postgrator_undo_files_are_down_migrations_not_replayed_after_the_do_files() {
    // `001.undo.accounts.sql` sorts right after `001.do.accounts.sql` and drops the table.
    check("db-postgrator");
}
