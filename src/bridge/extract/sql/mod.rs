//! SQL DDL (`*.sql`, `*.ddl`) with sqlparser, in the PostgreSQL, MySQL and SQLite dialects:
//! the file is split into statements, each CREATE TABLE / CREATE INDEX / CREATE TYPE /
//! ALTER TABLE is parsed on its own with the dialect the file hints at first and the others
//! after it, and one that no dialect reads is recorded in `unparsed` (file, line, start).

mod ddl;
mod split;

use std::sync::LazyLock;

use memchr::memmem::Finder;
use sqlparser::dialect::{Dialect, GenericDialect, MySqlDialect, PostgreSqlDialect, SQLiteDialect};
use sqlparser::parser::Parser;
use sqlparser::tokenizer::Token;

use super::{Source, per_file};
use crate::bridge::facts::Facts;

/// sqlparser's own guard against deep nesting (its default); deeper input fails to parse.
const RECURSION_LIMIT: usize = 50;
/// Characters of an unparsed statement quoted in `unparsed`.
const QUOTED_CHARS: usize = 60;

/// Extracts tables, indexes and enum types from the SQL files among `sources`.
pub fn extract(sources: &[Source<'_>]) -> Facts {
    per_file(sources, |source| {
        if matches!(source.extension().as_str(), "sql" | "ddl" | "psql" | "pgsql") {
            file(source)
        } else {
            Facts::default()
        }
    })
}

fn file(source: &Source<'_>) -> Facts {
    let dialects = dialects_for(source.text);
    let mut facts = Facts::default();
    for statement in split::statements(source.text, &dialects) {
        let (text, line) = (statement.text, statement.line);
        match parse(statement, &dialects) {
            Some(parsed) => ddl::record(&parsed, source.path, &mut facts),
            None => facts.unparsed.push(format!("{}:{line}: {}", source.path, quote(text))),
        }
    }
    facts
}

/// The dialects to try, the one the text hints at first: backticks or `ENGINE=` are MySQL,
/// `WITHOUT ROWID`/`AUTOINCREMENT`/`STRICT` tables are SQLite, anything else PostgreSQL first.
fn dialects_for(text: &str) -> Vec<&'static dyn Dialect> {
    const POSTGRES: &PostgreSqlDialect = &PostgreSqlDialect {};
    const MYSQL: &MySqlDialect = &MySqlDialect {};
    const SQLITE: &SQLiteDialect = &SQLiteDialect {};
    const GENERIC: &GenericDialect = &GenericDialect {};
    // Each searcher built once for the process, not once per file.
    static MYSQL_HINTS: LazyLock<[Finder<'static>; 4]> =
        LazyLock::new(|| ["`", "ENGINE=", "ENGINE =", "AUTO_INCREMENT"].map(Finder::new));
    static SQLITE_HINTS: LazyLock<[Finder<'static>; 3]> =
        LazyLock::new(|| ["WITHOUT ROWID", "AUTOINCREMENT", ") STRICT"].map(Finder::new));
    let upper = text.to_ascii_uppercase();
    let has = |hints: &[Finder<'_>]| hints.iter().any(|hint| hint.find(upper.as_bytes()).is_some());
    if has(&*MYSQL_HINTS) {
        vec![MYSQL, POSTGRES, SQLITE, GENERIC]
    } else if has(&*SQLITE_HINTS) {
        vec![SQLITE, POSTGRES, MYSQL, GENERIC]
    } else {
        vec![POSTGRES, MYSQL, SQLITE, GENERIC]
    }
}

/// The statement parsed by the first dialect that reads all of it.
fn parse(statement: split::Statement<'_>, dialects: &[&'static dyn Dialect]) -> Option<sqlparser::ast::Statement> {
    let tokenized_by = statement.tokens.as_ref().map(|(i, _)| *i);
    if let Some((i, tokens)) = statement.tokens
        && let Some(dialect) = dialects.get(i)
    {
        let parser = Parser::new(*dialect)
            .with_recursion_limit(RECURSION_LIMIT)
            .with_tokens_with_locations(tokens);
        if let Some(parsed) = whole(parser) {
            return Some(parsed);
        }
    }
    dialects.iter().enumerate().find_map(|(i, dialect)| {
        if tokenized_by == Some(i) {
            return None;
        }
        let parser = Parser::new(*dialect)
            .with_recursion_limit(RECURSION_LIMIT)
            .try_with_sql(statement.text)
            .ok()?;
        whole(parser)
    })
}

/// One statement that uses every token, or nothing.
fn whole(mut parser: Parser<'_>) -> Option<sqlparser::ast::Statement> {
    let parsed = parser.parse_statement().ok()?;
    (parser.peek_token().token == Token::EOF).then_some(parsed)
}

/// The start of a statement on one line, for `unparsed`.
fn quote(text: &str) -> String {
    let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match flat.char_indices().nth(QUOTED_CHARS) {
        Some((end, _)) => format!("{}…", &flat[..end]),
        None => flat,
    }
}

#[cfg(test)]
mod tests;
