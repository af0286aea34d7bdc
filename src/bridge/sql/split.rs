//! Splits a SQL file into statements with sqlparser's own tokenizer, so a `;` inside a
//! string, a comment, a quoted identifier or a `$$ … $$` body never splits. PostgreSQL's
//! tokenizer reads the file first (its `--` starts a comment even without a space after it,
//! as in `--TL;DR:`); the dialect is then chosen from the tokens of the code, comments and
//! strings left out: a `MergeTree` engine or `LowCardinality` type is ClickHouse,
//! backtick-quoted names, `ENGINE =` or `AUTO_INCREMENT` MySQL (the dialect's tokenizer then
//! reads the file again), `AUTOINCREMENT`, `WITHOUT ROWID` and `STRICT` tables SQLite. When no dialect's tokenizer can read the file (an unterminated
//! quote), it falls back to lines ending in `;`, so one broken statement costs only itself.
//! Only the statements the bridge reads (CREATE, ALTER and DROP of tables, indexes and types,
//! RENAME TABLE) are kept: a seed file's INSERTs cost a tokenizer pass and nothing more.

use sqlparser::dialect::{ClickHouseDialect, Dialect, GenericDialect, MySqlDialect, PostgreSqlDialect, SQLiteDialect};
use sqlparser::tokenizer::{Location, Token, TokenWithSpan, Tokenizer};

const POSTGRES: &PostgreSqlDialect = &PostgreSqlDialect {};
const MYSQL: &MySqlDialect = &MySqlDialect {};
const SQLITE: &SQLiteDialect = &SQLiteDialect {};
const GENERIC: &GenericDialect = &GenericDialect {};
const CLICKHOUSE: &ClickHouseDialect = &ClickHouseDialect {};

/// One DDL statement: its text (without the `;`), the line it starts on, and its tokens
/// with the index (in [`Split::dialects`]) of the dialect that produced them (none after the
/// line fallback).
#[derive(Debug)]
pub struct Statement<'a> {
    pub text: &'a str,
    pub line: usize,
    pub tokens: Option<(usize, Vec<TokenWithSpan>)>,
}

/// A file's DDL statements and the dialects to parse them with, the likeliest first.
pub struct Split<'a> {
    pub dialects: Vec<&'static dyn Dialect>,
    pub statements: Vec<Statement<'a>>,
}

/// The DDL statements of `sql`, tokenized by the dialect its code hints at.
pub fn statements(sql: &str) -> Split<'_> {
    let tokenize = |dialect: &dyn Dialect| Tokenizer::new(dialect, sql).tokenize_with_location().ok();
    let (first, statements): (&'static dyn Dialect, _) = match tokenize(POSTGRES) {
        // `#` comments are MySQL's; an unterminated quote no dialect reads.
        None => match [MYSQL as &'static dyn Dialect, SQLITE, GENERIC]
            .into_iter()
            .find_map(|dialect| Some((dialect, tokenize(dialect)?)))
        {
            Some((dialect, tokens)) => (dialect, by_tokens(sql, tokens, 0)),
            None => (POSTGRES, by_lines(sql)),
        },
        Some(postgres) => match hint(&postgres) {
            None => (POSTGRES, by_tokens(sql, postgres, 0)),
            Some(hinted) => match tokenize(hinted) {
                Some(tokens) => (hinted, by_tokens(sql, tokens, 0)),
                None => (hinted, by_tokens(sql, postgres, 1)),
            },
        },
    };
    Split {
        statements,
        dialects: order(first),
    }
}

/// The dialects to parse with: `first`, then PostgreSQL, MySQL, SQLite (not after
/// ClickHouse) and the generic one.
fn order(first: &'static dyn Dialect) -> Vec<&'static dyn Dialect> {
    let clickhouse = first.dialect() == CLICKHOUSE.dialect();
    let others = [POSTGRES as &'static dyn Dialect, MYSQL, SQLITE, GENERIC]
        .into_iter()
        .filter(|d| d.dialect() != first.dialect() && !(clickhouse && d.dialect() == SQLITE.dialect()));
    std::iter::once(first).chain(others).collect()
}

/// The dialect the code (not its comments or strings) is written in, when it says: a
/// ClickHouse engine or type, MySQL's backticks and options, SQLite's table options.
fn hint(tokens: &[TokenWithSpan]) -> Option<&'static dyn Dialect> {
    let code: Vec<&Token> = tokens
        .iter()
        .map(|t| &t.token)
        .filter(|t| !matches!(t, Token::Whitespace(_)))
        .collect();
    let mut sqlite = false;
    let clickhouse = |t: &Token| {
        matches!(t, Token::Word(w) if w.quote_style.is_none()
            && (w.value.ends_with("MergeTree") || w.value == "LowCardinality" || w.value == "ReplicatedMergeTree"))
    };
    if code.iter().any(|t| clickhouse(t)) {
        return Some(CLICKHOUSE);
    }
    for (at, token) in code.iter().enumerate() {
        let next = code.get(at + 1).copied();
        if matches!(token, Token::Char('`'))
            || word(token, "AUTO_INCREMENT")
            || (word(token, "ENGINE") && matches!(next, Some(Token::Eq)))
        {
            return Some(MYSQL);
        }
        sqlite |= word(token, "AUTOINCREMENT")
            || (word(token, "WITHOUT") && next.is_some_and(|n| word(n, "ROWID")))
            || (matches!(token, Token::RParen) && next.is_some_and(|n| word(n, "STRICT")));
    }
    sqlite.then_some(SQLITE as &'static dyn Dialect)
}

/// Whether `token` is the unquoted word `w` (in any case).
pub fn word(token: &Token, w: &str) -> bool {
    matches!(token, Token::Word(word) if word.quote_style.is_none() && word.value.eq_ignore_ascii_case(w))
}

fn by_tokens(sql: &str, tokens: Vec<TokenWithSpan>, dialect: usize) -> Vec<Statement<'_>> {
    let mut cursor = Cursor::new(sql);
    let mut out = Vec::new();
    let mut current: Vec<TokenWithSpan> = Vec::new();
    let mut start: Option<(usize, usize)> = None;
    for token in tokens {
        if token.token == Token::SemiColon {
            let end = cursor.offset(token.span.start);
            if let Some((from, line)) = start.take() {
                push(
                    &mut out,
                    &sql[from..end.max(from)],
                    line,
                    Some((dialect, std::mem::take(&mut current))),
                );
            }
            current.clear();
            continue;
        }
        if start.is_none() && !matches!(token.token, Token::Whitespace(_)) {
            start = Some((cursor.offset(token.span.start), token.span.start.line as usize));
        }
        if start.is_some() {
            current.push(token);
        }
    }
    if let Some((from, line)) = start {
        push(&mut out, &sql[from..], line, Some((dialect, current)));
    }
    out
}

/// Keeps the statement when it is one the bridge reads.
fn push<'a>(out: &mut Vec<Statement<'a>>, text: &'a str, line: usize, tokens: Option<(usize, Vec<TokenWithSpan>)>) {
    let text = text.trim();
    if is_ddl(text) {
        out.push(Statement { text, line, tokens });
    }
}

/// CREATE [UNIQUE] INDEX, CREATE [TEMP…] TABLE, CREATE TYPE, ALTER and DROP of a table, an
/// index or a type, RENAME TABLE, judged by the leading words (after comments); a CREATE
/// FUNCTION or VIEW that mentions a table is not.
pub fn is_ddl(text: &str) -> bool {
    let words = leading_words(text, 8);
    let has = |w: &str| words.iter().any(|x| x == w);
    let second = |options: &[&str]| words.get(1).is_some_and(|w| options.contains(&w.as_str()));
    match words.first().map(String::as_str) {
        Some("CREATE") => {
            (has("TABLE") || has("INDEX") || has("TYPE"))
                && !["FUNCTION", "PROCEDURE", "TRIGGER", "VIEW", "RULE", "POLICY"]
                    .iter()
                    .any(|w| has(w))
        }
        Some("ALTER" | "DROP") => second(&["TABLE", "INDEX", "TYPE"]),
        Some("RENAME") => second(&["TABLE"]),
        _ => false,
    }
}

/// Up to `n` leading words in upper case, after comments, up to the first other character.
fn leading_words(text: &str, n: usize) -> Vec<String> {
    let mut rest = text.trim_start();
    loop {
        if let Some(r) = rest.strip_prefix("--").or_else(|| rest.strip_prefix('#')) {
            rest = r.split_once('\n').map_or("", |(_, after)| after).trim_start();
        } else if let Some(r) = rest.strip_prefix("/*") {
            rest = r.split_once("*/").map_or("", |(_, after)| after).trim_start();
        } else {
            break;
        }
    }
    let mut words = Vec::new();
    for word in rest.split_ascii_whitespace() {
        let end = word
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(word.len());
        if end > 0 {
            words.push(word[..end].to_ascii_uppercase());
        }
        if end < word.len() || words.len() >= n {
            break;
        }
    }
    words
}

/// Statements ending where a line ends in `;` (for a file no tokenizer accepts).
fn by_lines(sql: &str) -> Vec<Statement<'_>> {
    let mut out = Vec::new();
    let mut from = 0;
    let mut first_line = 1;
    let ends = sql.match_indices('\n').chain(std::iter::once((sql.len(), "")));
    for (line, (at, _)) in (1..).zip(ends) {
        let text = &sql[from..at];
        if text.trim_end().ends_with(';') || at == sql.len() {
            let body = text.trim_end().trim_end_matches(';');
            let lead = body.len() - body.trim_start().len();
            let skipped_lines = body[..lead].matches('\n').count();
            push(&mut out, body, first_line + skipped_lines, None);
            from = (at + 1).min(sql.len());
            first_line = line + 1;
        }
    }
    out
}

/// Turns the tokenizer's line/column locations (columns count characters) into byte offsets,
/// moving forward only, so a file is walked once.
struct Cursor<'a> {
    text: &'a str,
    byte: usize,
    line: u64,
    column: u64,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str) -> Self {
        Self {
            text,
            byte: 0,
            line: 1,
            column: 1,
        }
    }

    fn offset(&mut self, at: Location) -> usize {
        while (self.line, self.column) < (at.line, at.column) {
            let Some(c) = self.text[self.byte..].chars().next() else {
                break;
            };
            self.byte += c.len_utf8();
            if c == '\n' {
                self.line += 1;
                self.column = 1;
            } else {
                self.column += 1;
            }
        }
        self.byte
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(sql: &str) -> Vec<(usize, String)> {
        statements(sql)
            .statements
            .into_iter()
            .map(|s| (s.line, s.text.to_owned()))
            .collect()
    }

    #[test]
    fn semicolons_in_strings_comments_and_dollar_bodies_do_not_split() {
        let sql = "-- one; two\nCREATE TABLE \"a;b\" (x text DEFAULT 'x;y');\n\n\
                   DO $$ BEGIN CREATE TABLE inner_t (x int); END $$;\n/* c; */ CREATE INDEX i ON t (é);\n\
                   INSERT INTO t VALUES ('CREATE TABLE x');";
        assert_eq!(
            texts(sql),
            [
                (2, "CREATE TABLE \"a;b\" (x text DEFAULT 'x;y')".to_owned()),
                (5, "CREATE INDEX i ON t (é)".to_owned()),
            ]
        );
        assert!(statements(sql).statements[0].tokens.is_some());
    }

    #[test]
    fn quotes_and_backticks_in_comments_neither_split_nor_swallow_a_statement() {
        // In a comment, a backtick is no MySQL hint, and `--` needs no space after it.
        let sql = "--TL;DR: we add the `users` table; don't use `name` here\n\
                   create table users (id serial primary key, name text not null);\n\
                   -- it's a \"quote\" and a `tick`\ncreate table posts (id int);\n";
        let split = statements(sql);
        let got: Vec<(usize, &str)> = split.statements.iter().map(|s| (s.line, s.text)).collect();
        assert_eq!(
            got,
            [
                (2, "create table users (id serial primary key, name text not null)"),
                (4, "create table posts (id int)"),
            ]
        );
        assert_eq!(split.dialects[0].dialect(), PostgreSqlDialect {}.dialect());
    }

    #[test]
    fn a_file_no_tokenizer_reads_is_split_by_lines() {
        let sql = "CREATE TABLE a (x int);\nCREATE TABLE b (y text DEFAULT 'oops);\n\nCREATE TABLE c (z int);\n";
        let got = texts(sql);
        assert_eq!(got.len(), 3, "{got:?}");
        assert_eq!(got[1].0, 2);
        assert_eq!(got[2], (4, "CREATE TABLE c (z int)".to_owned()));
        assert!(statements(sql).statements[0].tokens.is_none());
    }

    #[test]
    fn the_code_chooses_the_dialect() {
        // `#` starts a comment in MySQL only: PostgreSQL's tokenizer sees an open quote.
        let sql = "# it's MySQL\nCREATE TABLE t (a int);";
        let split = statements(sql);
        assert_eq!(split.statements[0].text, "CREATE TABLE t (a int)");
        assert_eq!(split.dialects[0].dialect(), MySqlDialect {}.dialect());
        let ticks = statements("-- MySQL dump\nCREATE TABLE `t` (`a` int) ENGINE=InnoDB;");
        assert_eq!(ticks.dialects[0].dialect(), MySqlDialect {}.dialect());
        assert_eq!(ticks.statements[0].tokens.as_ref().map(|t| t.0), Some(0));
        let sqlite = statements("CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT);");
        assert_eq!(sqlite.dialects[0].dialect(), SQLiteDialect {}.dialect());
    }

    #[test]
    fn only_the_statements_the_bridge_reads_are_kept() {
        for ddl in [
            "create table t (x int)",
            "CREATE UNIQUE INDEX CONCURRENTLY i ON t (x)",
            "create temporary table t (x int)",
            "-- note\nALTER TABLE ONLY t ADD COLUMN y int",
            "CREATE TYPE mood AS ENUM ('sad')",
            "DROP TABLE IF EXISTS t CASCADE",
            "drop index concurrently if exists i",
            "ALTER INDEX i RENAME TO j",
            "ALTER TYPE mood ADD VALUE 'ok'",
            "RENAME TABLE a TO b",
        ] {
            assert!(is_ddl(ddl), "{ddl}");
        }
        for other in [
            "CREATE FUNCTION f() RETURNS TABLE (x int) AS $$ select 1 $$",
            "CREATE VIEW table_view AS SELECT 1",
            "ALTER SEQUENCE s RESTART",
            "DROP FUNCTION f",
            "INSERT INTO t VALUES (1)",
            "CREATE EXTENSION IF NOT EXISTS pgcrypto",
        ] {
            assert!(!is_ddl(other), "{other}");
        }
    }
}
