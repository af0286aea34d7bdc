//! Merges what the extractors found into one [`Facts`]: lists are joined, ordered by file
//! (stable, so each extractor's order within a file stays), exact duplicates dropped, and
//! the columns an ALTER TABLE adds folded into the CREATE TABLE of the same table.

use super::facts::{Facts, Table};

/// One `Facts` from many.
pub fn merge(parts: Vec<Facts>) -> Facts {
    let mut all = Facts::default();
    for part in parts {
        all.append(part);
    }
    all.tables = fold_alters(all.tables);
    by_file_once(&mut all.tables, |t| &t.file);
    by_file_once(&mut all.indexes, |i| &i.file);
    by_file_once(&mut all.enums, |e| &e.file);
    by_file_once(&mut all.endpoints, |e| &e.file);
    by_file_once(&mut all.shapes, |s| &s.file);
    by_file_once(&mut all.services, |s| &s.file);
    by_file_once(&mut all.env_vars, |e| &e.file);
    by_file_once(&mut all.components, |c| &c.file);
    by_file_once(&mut all.routes, |r| &r.file);
    by_file_once(&mut all.state, |s| &s.file);
    by_file_once(&mut all.design_system, |d| &d.file);
    by_file_once(&mut all.pipelines, |p| &p.file);
    by_file_once(&mut all.docker_stages, |d| &d.file);
    by_file_once(&mut all.images, |i| &i.file);
    by_file_once(&mut all.findings, |f| &f.file);
    by_file_once(&mut all.guards, |g| &g.file);
    by_file_once(&mut all.migrations, |m| m);
    by_file_once(&mut all.unparsed, |u| u);
    all
}

/// Sorts by file (stable) and drops exact repeats.
fn by_file_once<T: PartialEq>(items: &mut Vec<T>, file: impl Fn(&T) -> &String) {
    items.sort_by(|a, b| file(a).cmp(file(b)));
    let mut kept: Vec<T> = Vec::with_capacity(items.len());
    for item in items.drain(..) {
        // Repeats are in the same file, so only the tail of `kept` needs looking at.
        let same_file = kept.iter().rev().take_while(|k| file(k) == file(&item));
        if !same_file.into_iter().any(|k| *k == item) {
            kept.push(item);
        }
    }
    *items = kept;
}

/// Adds each ALTER TABLE's new columns and keys to the CREATE TABLE of the same (schema,
/// name) in the same run; an ALTER of a table created elsewhere stays as it is.
fn fold_alters(tables: Vec<Table>) -> Vec<Table> {
    let mut out: Vec<Table> = Vec::with_capacity(tables.len());
    let mut alters = Vec::new();
    for table in tables {
        if table.origin == "alter" {
            alters.push(table);
        } else {
            out.push(table);
        }
    }
    for alter in alters {
        let created = out
            .iter_mut()
            .find(|t| t.origin == "create" && t.name.eq_ignore_ascii_case(&alter.name) && same_schema(t, &alter));
        let Some(created) = created else {
            out.push(alter);
            continue;
        };
        for column in alter.columns {
            if !created.columns.iter().any(|c| c.name == column.name) {
                created.columns.push(column);
            }
        }
        for key in alter.primary_key {
            if !created.primary_key.contains(&key) {
                created.primary_key.push(key);
            }
        }
        for fk in alter.foreign_keys {
            if !created.foreign_keys.contains(&fk) {
                created.foreign_keys.push(fk);
            }
        }
    }
    out
}

fn same_schema(a: &Table, b: &Table) -> bool {
    let schema = |t: &Table| t.schema.clone().filter(|s| s != "public");
    schema(a) == schema(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bridge::facts::{Column, EnvVar};

    fn table(name: &str, origin: &str, columns: &[&str], file: &str) -> Table {
        Table {
            name: name.into(),
            origin: origin.into(),
            columns: columns
                .iter()
                .map(|c| Column {
                    name: (*c).into(),
                    ..Column::default()
                })
                .collect(),
            file: file.into(),
            ..Table::default()
        }
    }

    #[test]
    fn alters_fold_into_creates_and_repeats_go() {
        let a = Facts {
            tables: vec![
                table("users", "create", &["id", "email"], "m/001.sql"),
                table("users", "alter", &["avatar_url", "email"], "m/002.sql"),
                table("legacy", "alter", &["note"], "m/002.sql"),
            ],
            env_vars: vec![EnvVar {
                name: "DATABASE_URL".into(),
                source: ".env.example".into(),
                file: ".env.example".into(),
            }],
            ..Facts::default()
        };
        let b = Facts {
            env_vars: a.env_vars.clone(),
            migrations: vec!["m/002.sql".into(), "m/001.sql".into()],
            ..Facts::default()
        };
        let merged = merge(vec![a, b]);
        assert_eq!(merged.tables.len(), 2);
        let users: Vec<&str> = merged.tables[0].columns.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(users, ["id", "email", "avatar_url"]);
        assert_eq!(merged.tables[1].origin, "alter");
        assert_eq!(merged.env_vars.len(), 1);
        assert_eq!(merged.migrations, ["m/001.sql", "m/002.sql"]);
    }
}
