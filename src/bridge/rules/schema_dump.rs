//! A schema dump among the sources is the schema: when Rails' `db/schema.rb` is read, the
//! tables the migrations under `db/migrate/` declare are left out (a migration may add a
//! column a later one removes; the dump has what is left).

use crate::bridge::facts::Table;

/// Files that hold the whole schema as the framework dumped it.
const DUMPS: &[&str] = &["db/schema.rb"];
/// Directories of the migrations such a dump supersedes.
const MIGRATIONS: &[&str] = &["db/migrate/"];

/// Drops the migrations' tables when a dump's tables are there.
pub fn prefer_dump(tables: &mut Vec<Table>) {
    let is = |table: &Table, parts: &[&str]| parts.iter().any(|part| table.file.contains(part));
    if tables.iter().any(|table| is(table, DUMPS)) {
        tables.retain(|table| !is(table, MIGRATIONS));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(name: &str, file: &str) -> Table {
        Table {
            name: name.into(),
            file: file.into(),
            ..Table::default()
        }
    }

    #[test]
    fn the_dump_supersedes_the_migrations() {
        let mut tables = vec![
            table("users", "db/migrate/20240101_create_users.rb"),
            table("users", "db/schema.rb"),
        ];
        prefer_dump(&mut tables);
        assert_eq!(tables.len(), 1);
        let mut alone = vec![table("users", "db/migrate/20240101_create_users.rb")];
        prefer_dump(&mut alone);
        assert_eq!(alone.len(), 1);
    }
}
