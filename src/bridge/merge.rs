//! Merges what the extractors found into one [`Facts`]: lists are joined, the migrations'
//! changes replayed into the schema after the run and the ORM models merged into its tables
//! (`bridge::schema`), lists ordered by file (stable, so each extractor's order within a file
//! stays), and exact duplicates dropped.

use super::facts::Facts;
use super::schema;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

/// One `Facts` from many.
pub fn merge(parts: Vec<Facts>) -> Facts {
    let mut all = Facts::default();
    for part in parts {
        all.append(part);
    }
    let replayed = schema::replay(
        std::mem::take(&mut all.schema_changes),
        &std::mem::take(&mut all.revisions),
    );
    all.tables = schema::models::merge(replayed.tables, std::mem::take(&mut all.tables));
    let mut indexes = replayed.indexes;
    indexes.append(&mut all.indexes);
    all.indexes = schema::models::dedupe_indexes(indexes);
    let mut enums = replayed.enums;
    enums.append(&mut all.enums);
    all.enums = schema::models::dedupe_enums(enums);
    all.dropped.extend(replayed.dropped);
    macro_rules! by_file_once {
        ($($list:ident)*) => { $(by_file_once(&mut all.$list, |item| &item.file);)* };
    }
    by_file_once! { tables indexes enums endpoints shapes services env_vars components routes state design_system
    pipelines docker_stages images findings guards dropped }
    by_file_once(&mut all.migrations, |m| m);
    by_file_once(&mut all.unparsed, |u| u);
    // A guard counts the endpoints of every extractor (routes one finds, guards another).
    for guard in &mut all.guards {
        let on = all.endpoints.iter().filter(|e| {
            e.guards.contains(&guard.name) || (guard.kind == "validation" && e.request.as_deref() == Some(&guard.name))
        });
        guard.endpoints = guard.endpoints.max(on.count());
    }
    all
}

/// Sorts by file (stable; numbers in names compare as numbers, so migrations stay in their
/// order) and drops exact repeats, in time linear in the items (a file may hold tens of
/// thousands of routes).
fn by_file_once<T: Eq + Hash>(items: &mut Vec<T>, file: impl Fn(&T) -> &String) {
    items.sort_by(|a, b| schema::order::natural(file(a), file(b)));
    let mut kept: Vec<T> = Vec::with_capacity(items.len());
    // Repeats are in the same file: the kept items of the current file, by their hash.
    let mut seen: HashMap<u64, Vec<usize>> = HashMap::new();
    for item in items.drain(..) {
        if kept.last().is_some_and(|last| file(last) != file(&item)) {
            seen.clear();
        }
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        item.hash(&mut hasher);
        let same = seen.entry(hasher.finish()).or_default();
        if !same.iter().any(|&at| kept.get(at) == Some(&item)) {
            same.push(kept.len());
            kept.push(item);
        }
    }
    *items = kept;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bridge::facts::{Change, ChangeKind, Name, TableOp};
    use crate::bridge::facts::{Column, EnvVar, Table};

    fn column(name: &str) -> Column {
        Column {
            name: name.into(),
            ..Column::default()
        }
    }

    #[test]
    fn alters_fold_into_creates_models_join_them_and_repeats_go() {
        let create = Change {
            file: "m/001.sql".into(),
            kind: ChangeKind::CreateTable {
                table: Table {
                    name: "users".into(),
                    origin: "create".into(),
                    columns: vec![column("id"), column("email")],
                    file: "m/001.sql".into(),
                    ..Table::default()
                },
                if_not_exists: false,
            },
        };
        let alter = |table: &str, added: &str| Change {
            file: "m/002.sql".into(),
            kind: ChangeKind::AlterTable {
                target: Name::parse(table),
                ops: vec![TableOp::AddColumn {
                    column: column(added),
                    foreign_key: None,
                }],
            },
        };
        let env = EnvVar {
            name: "DATABASE_URL".into(),
            source: ".env.example".into(),
            file: ".env.example".into(),
        };
        let a = Facts {
            // The later migration comes first: the merge orders them.
            schema_changes: vec![alter("users", "avatar_url"), alter("legacy", "note"), create],
            env_vars: vec![env.clone()],
            ..Facts::default()
        };
        let model = Table {
            name: "users".into(),
            model: Some("User".into()),
            origin: "model".into(),
            framework: Some("sqlalchemy".into()),
            columns: vec![column("email"), column("last_login")],
            file: "app/models.py".into(),
            ..Table::default()
        };
        let b = Facts {
            tables: vec![model],
            env_vars: vec![env],
            migrations: vec!["m/002.sql".into(), "m/001.sql".into()],
            ..Facts::default()
        };
        let merged = merge(vec![a, b]);
        assert_eq!(merged.tables.len(), 2);
        let users = &merged.tables[0];
        let names: Vec<&str> = users.columns.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["id", "email", "avatar_url", "last_login"]);
        assert_eq!(users.sources, ["m/001.sql", "m/002.sql", "app/models.py"]);
        assert_eq!(users.model.as_deref(), Some("User"));
        assert_eq!(merged.tables[1].origin, "alter");
        assert_eq!(merged.env_vars.len(), 1);
        assert_eq!(merged.migrations, ["m/001.sql", "m/002.sql"]);
    }
}
