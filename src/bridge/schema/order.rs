//! The order migrations run in: file paths compared with their runs of digits as numbers
//! (`V2__` before `V10__`, `0009_` before `0010_`, timestamps in time order, Prisma's and
//! Diesel's one directory per migration alike), Alembic files along their `down_revision`
//! chain, and down migrations (`*.down.sql`, Diesel's `down.sql`, Flyway's `U2__`) left out:
//! they undo what the up migrations did.

use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap};

use super::{Change, Revision};

/// `changes` without those of down migrations, stably sorted by their file's place in the
/// migration order (a file's own changes keep their order).
pub fn in_migration_order(mut changes: Vec<Change>, revisions: &[Revision]) -> Vec<Change> {
    changes.retain(|c| !is_down(&c.file));
    let mut files: Vec<&str> = changes.iter().map(|c| c.file.as_str()).collect();
    files.sort_by(|a, b| natural(a, b));
    files.dedup();
    let rank: HashMap<String, usize> = ordered(&files, revisions)
        .into_iter()
        .enumerate()
        .map(|(at, file)| (file.to_owned(), at))
        .collect();
    changes.sort_by_key(|c| rank.get(&c.file).copied().unwrap_or(usize::MAX));
    changes
}

/// Whether `path` undoes a migration rather than applying one.
pub fn is_down(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    let flyway_undo =
        name.starts_with('u') && name[1..].starts_with(|c: char| c.is_ascii_digit()) && name.contains("__");
    name == "down.sql"
        || name.ends_with(".down.sql")
        || name.ends_with("_down.sql")
        || name.ends_with(".rollback.sql")
        || flyway_undo
}

/// The part of a migration file that applies it: goose (`-- +goose Down`), sql-migrate
/// (`-- +migrate Down`) and dbmate (`-- migrate:down`) keep the undo in the same file, after
/// a marker line.
pub fn up_part(text: &str) -> &str {
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let marker = line.trim().to_ascii_lowercase();
        let marker: String = marker.chars().filter(|c| !c.is_whitespace()).collect();
        if matches!(marker.as_str(), "--+goosedown" | "--+migratedown" | "--migrate:down") {
            return &text[..at];
        }
        at += line.len();
    }
    text
}

/// `files` (in natural order) with the Alembic ones put in their chain's order, where the
/// first of them stood.
fn ordered<'a>(files: &[&'a str], revisions: &[Revision]) -> Vec<&'a str> {
    let of_file: HashMap<&str, &Revision> = revisions.iter().map(|r| (r.file.as_str(), r)).collect();
    let chained: Vec<&str> = files.iter().copied().filter(|f| of_file.contains_key(f)).collect();
    if chained.is_empty() {
        return files.to_vec();
    }
    let chain = chain_order(&chained, &of_file);
    let mut out = Vec::with_capacity(files.len());
    let mut placed = false;
    for file in files {
        if !of_file.contains_key(file) {
            out.push(*file);
        } else if !placed {
            out.extend(chain.iter().copied());
            placed = true;
        }
    }
    out
}

/// A topological order of the revisions (each after the ones it revises), ties and cycles
/// broken by the natural order of the files.
fn chain_order<'a>(files: &[&'a str], of_file: &HashMap<&str, &Revision>) -> Vec<&'a str> {
    let by_id: HashMap<&str, &str> = files.iter().map(|f| (of_file[f].id.as_str(), *f)).collect();
    let mut waiting: BTreeMap<usize, usize> = BTreeMap::new();
    let mut followers: HashMap<&str, Vec<usize>> = HashMap::new();
    for (at, file) in files.iter().enumerate() {
        let known: Vec<&str> = of_file[file]
            .down
            .iter()
            .filter_map(|d| by_id.get(d.as_str()).copied())
            .collect();
        waiting.insert(at, known.len());
        for parent in known {
            followers.entry(parent).or_default().push(at);
        }
    }
    let mut out = Vec::with_capacity(files.len());
    while !waiting.is_empty() {
        // The first file (in natural order) that waits for nothing; in a cycle, the first left.
        let next = waiting
            .iter()
            .find(|(_, n)| **n == 0)
            .map_or_else(|| *waiting.keys().next().unwrap_or(&0), |(at, _)| *at);
        waiting.remove(&next);
        out.push(files[next]);
        for follower in followers.get(files[next]).into_iter().flatten() {
            if let Some(n) = waiting.get_mut(follower) {
                *n = n.saturating_sub(1);
            }
        }
    }
    out
}

/// Compares two paths with their runs of ASCII digits as numbers.
pub fn natural(a: &str, b: &str) -> Ordering {
    let (mut x, mut y) = (a.as_bytes(), b.as_bytes());
    loop {
        match (x.first(), y.first()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(p), Some(q)) if p.is_ascii_digit() && q.is_ascii_digit() => {
                let (m, rest_x) = digits(x);
                let (n, rest_y) = digits(y);
                let (m_short, n_short) = (trim_zeros(m), trim_zeros(n));
                let by_value = m_short.len().cmp(&n_short.len()).then_with(|| m_short.cmp(n_short));
                match by_value.then_with(|| m.len().cmp(&n.len())) {
                    Ordering::Equal => (x, y) = (rest_x, rest_y),
                    other => return other,
                }
            }
            (Some(p), Some(q)) => match p.cmp(q) {
                Ordering::Equal => (x, y) = (&x[1..], &y[1..]),
                other => return other,
            },
        }
    }
}

fn digits(text: &[u8]) -> (&[u8], &[u8]) {
    let end = text.iter().position(|b| !b.is_ascii_digit()).unwrap_or(text.len());
    text.split_at(end)
}

fn trim_zeros(digits: &[u8]) -> &[u8] {
    let start = digits.iter().position(|b| *b != b'0').unwrap_or(digits.len());
    &digits[start..]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_in_names_compare_as_numbers() {
        let mut files = vec![
            "db/migration/V10__orders.sql",
            "db/migration/V2__users.sql",
            "db/migration/V1__init.sql",
            "migrations/0010_x.sql",
            "migrations/0009_y.sql",
            "prisma/migrations/20240102000000_b/migration.sql",
            "prisma/migrations/20231231000000_a/migration.sql",
        ];
        files.sort_by(|a, b| natural(a, b));
        assert_eq!(
            files,
            [
                "db/migration/V1__init.sql",
                "db/migration/V2__users.sql",
                "db/migration/V10__orders.sql",
                "migrations/0009_y.sql",
                "migrations/0010_x.sql",
                "prisma/migrations/20231231000000_a/migration.sql",
                "prisma/migrations/20240102000000_b/migration.sql",
            ]
        );
    }

    #[test]
    fn a_down_section_is_cut_off() {
        let goose = "-- +goose Up\nCREATE TABLE t (id int);\n-- +goose Down\nDROP TABLE t;\n";
        assert_eq!(up_part(goose), "-- +goose Up\nCREATE TABLE t (id int);\n");
        assert_eq!(
            up_part("-- migrate:up\ncreate table a (x int);\n-- migrate:down\n"),
            "-- migrate:up\ncreate table a (x int);\n"
        );
        assert_eq!(
            up_part("CREATE TABLE t (id int); -- +goose Down"),
            "CREATE TABLE t (id int); -- +goose Down"
        );
    }

    #[test]
    fn down_migrations_undo() {
        for down in [
            "m/000002_users.down.sql",
            "migrations/2024-01-01-000000_users/down.sql",
            "db/U2__undo.sql",
        ] {
            assert!(is_down(down), "{down}");
        }
        for up in [
            "m/000002_users.up.sql",
            "migrations/x/up.sql",
            "db/V2__users.sql",
            "db/update_users.sql",
        ] {
            assert!(!is_down(up), "{up}");
        }
    }

    #[test]
    fn alembic_files_follow_their_chain_not_their_names() {
        let revision = |file: &str, id: &str, down: &[&str]| Revision {
            file: file.into(),
            id: id.into(),
            down: down.iter().map(|d| (*d).to_owned()).collect(),
        };
        let revisions = [
            revision("versions/e2412789c190_initialize.py", "e2412789c190", &[]),
            revision(
                "versions/9c0a54914c78_add_max_length.py",
                "9c0a54914c78",
                &["e2412789c190"],
            ),
            revision("versions/1a31ce608336_cascade.py", "1a31ce608336", &["d98dd8ec85a3"]),
            revision("versions/d98dd8ec85a3_uuid.py", "d98dd8ec85a3", &["9c0a54914c78"]),
        ];
        let mut files: Vec<&str> = revisions.iter().map(|r| r.file.as_str()).collect();
        files.push("schema.sql");
        files.sort_by(|a, b| natural(a, b));
        assert_eq!(
            ordered(&files, &revisions),
            [
                "schema.sql",
                "versions/e2412789c190_initialize.py",
                "versions/9c0a54914c78_add_max_length.py",
                "versions/d98dd8ec85a3_uuid.py",
                "versions/1a31ce608336_cascade.py",
            ]
        );
    }
}
