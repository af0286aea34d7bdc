//! Migration files, by the layouts the common tools use: a `migrations/` directory (Django,
//! Knex, TypeORM, sqlx, Diesel `migrations/<ts>_name/up.sql`, Prisma
//! `prisma/migrations/<ts>_name/migration.sql`), Rails `db/migrate/`, Alembic `versions/`,
//! Flyway `V1__name.sql`, golang-migrate `*.up.sql`/`*.down.sql`, EF Core `Migrations/`.
//! Package markers and tool scaffolding in those directories are not migrations.

use super::Source;
use crate::bridge::facts::Facts;

/// Files in a migrations directory that are not migrations.
const NOT_MIGRATIONS: &[&str] = &[
    "__init__.py",
    "env.py",
    "script.py.mako",
    "README",
    "README.md",
    ".gitkeep",
    ".keep",
    "migration_lock.toml",
    "alembic.ini",
];

/// The migration files among `sources`, in source order.
pub fn extract(sources: &[Source<'_>]) -> Facts {
    Facts {
        migrations: sources
            .iter()
            .filter(|s| is_migration(s.path))
            .map(|s| s.path.to_owned())
            .collect(),
        ..Facts::default()
    }
}

/// Whether `path` (relative, with `/`) is a migration file.
pub fn is_migration(path: &str) -> bool {
    let mut parts: Vec<&str> = path.split('/').collect();
    let Some(name) = parts.pop() else { return false };
    if NOT_MIGRATIONS.contains(&name) || name.ends_with(".pyc") || name.ends_with(".Designer.cs") {
        return false;
    }
    let lower = name.to_ascii_lowercase();
    if lower.ends_with(".up.sql") || lower.ends_with(".down.sql") || is_flyway(name) {
        return true;
    }
    let dir = |d: &str| parts.iter().any(|p| p.eq_ignore_ascii_case(d));
    let in_alembic_versions = parts.last().is_some_and(|p| *p == "versions")
        && (dir("alembic") || dir("migrations"))
        && lower.ends_with(".py");
    in_alembic_versions || dir("migrations") || ((dir("migrate") || dir("migration")) && parts.contains(&"db"))
}

/// Flyway's `V2__add_orders.sql` / `R__views.sql` / `U2__undo.sql`.
fn is_flyway(name: &str) -> bool {
    let Some((prefix, rest)) = name.split_once("__") else {
        return false;
    };
    let mut chars = prefix.chars();
    let kind_ok = matches!(chars.next(), Some('V' | 'U')) && chars.clone().next().is_some_and(|c| c.is_ascii_digit())
        || prefix == "R";
    kind_ok && chars.all(|c| c.is_ascii_digit() || c == '.' || c == '_') && rest.to_ascii_lowercase().ends_with(".sql")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_layouts_are_migrations_and_scaffolding_is_not() {
        for path in [
            "prisma/migrations/20240101120000_init/migration.sql",
            "migrations/2024-01-01-000000_create_users/up.sql",
            "db/migrate/20240101120000_create_users.rb",
            "alembic/versions/3f2a1b_add_orders.py",
            "app/migrations/versions/3f2a1b_add_orders.py",
            "shop/orders/migrations/0002_order_status.py",
            "src/main/resources/db/migration/V2__add_orders.sql",
            "db/migrations/000001_users.up.sql",
            "Data/Migrations/20240101_Init.cs",
            "src/database/migrations/1700000000000-CreateUsers.ts",
        ] {
            assert!(is_migration(path), "{path}");
        }
        for path in [
            "shop/orders/migrations/__init__.py",
            "alembic/env.py",
            "alembic/script.py.mako",
            "prisma/migrations/migration_lock.toml",
            "Data/Migrations/20240101_Init.Designer.cs",
            "src/models/user.ts",
            "db/schema.rb",
            "docs/V2__notes.md",
        ] {
            assert!(!is_migration(path), "{path}");
        }
    }
}
