//! SQL DDL (`*.sql`, `*.ddl`) with sqlparser, in the PostgreSQL, MySQL and SQLite dialects:
//! the file is split into statements, each DDL statement (CREATE, ALTER and DROP of tables,
//! indexes and types, RENAME TABLE) is parsed on its own with the dialect the file's code
//! hints at first (comments and strings do not count) and the others after it, and one that
//! no dialect reads is recorded in `unparsed` (file, line, start, quoted). What each
//! statement does is kept as a schema change, which the merge replays in migration order.

mod ddl;
mod lenient;
mod split;

use sqlparser::dialect::Dialect;
use sqlparser::parser::Parser;
use sqlparser::tokenizer::Token;

use crate::bridge::facts::Facts;
use crate::bridge::facts::{Change, ChangeKind};
use crate::bridge::parallel::per_file;
use crate::bridge::source::Source;

/// sqlparser's own guard against deep nesting (its default); deeper input fails to parse.
const RECURSION_LIMIT: usize = 50;
/// Characters of an unparsed statement quoted in `unparsed`.
const QUOTED_CHARS: usize = 60;

/// Extracts the schema changes (tables, indexes and enum types created, altered, dropped)
/// of the SQL files among `sources`.
pub fn extract(sources: &[Source<'_>]) -> Facts {
    per_file(sources, |source| {
        if matches!(source.extension().as_str(), "sql" | "ddl" | "psql" | "pgsql") {
            file(source)
        } else {
            Facts::default()
        }
    })
}

/// The schema changes (and statements no dialect reads) of SQL text found elsewhere, such as
/// a migration's `op.execute("…")`.
pub fn facts_of(path: &str, text: &str) -> Facts {
    file(&Source { path, text })
}

fn file(source: &Source<'_>) -> Facts {
    let split = split::statements(crate::bridge::schema::order::up_part(source.text));
    let mut facts = Facts::default();
    for statement in split.statements {
        let (text, line) = (statement.text, statement.line);
        match parse(statement, &split.dialects) {
            Some(parsed) => ddl::record(&parsed, source.path, &mut facts),
            None => match leniently(text, &split.dialects, source.path) {
                Some(table) => facts.schema_changes.push(Change {
                    file: source.path.to_owned(),
                    kind: ChangeKind::CreateTable {
                        table,
                        if_not_exists: false,
                    },
                }),
                None => facts.unparsed.push(format!("{}:{line}: {}", source.path, quote(text))),
            },
        }
    }
    facts
}

/// A CREATE TABLE no dialect parses, read from its tokens ([`lenient`]).
fn leniently(text: &str, dialects: &[&'static dyn Dialect], file: &str) -> Option<crate::bridge::facts::Table> {
    let tokens = dialects
        .iter()
        .find_map(|d| sqlparser::tokenizer::Tokenizer::new(*d, text).tokenize().ok())?;
    lenient::create_table(&tokens, file)
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

/// The start of a statement on one line, in quotes, for `unparsed`.
fn quote(text: &str) -> String {
    let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match flat.char_indices().nth(QUOTED_CHARS) {
        Some((end, _)) => format!("\"{}…\"", &flat[..end]),
        None => format!("\"{flat}\""),
    }
}

#[cfg(test)]
mod tests;
