//! Splits a SQL file into statements with sqlparser's own tokenizer, so a `;` inside a
//! string, a comment, a quoted identifier or a `$$ … $$` body never splits. When no dialect's
//! tokenizer can read the file (an unterminated quote), it falls back to lines ending in `;`,
//! so one broken statement costs only itself. Only the statements the bridge reads (CREATE
//! TABLE, CREATE INDEX, CREATE TYPE, ALTER TABLE) are kept: a seed file's INSERTs cost a
//! tokenizer pass and nothing more.

use sqlparser::dialect::Dialect;
use sqlparser::tokenizer::{Location, Token, TokenWithSpan, Tokenizer};

/// One DDL statement: its text (without the `;`), the line it starts on, and its tokens
/// with the index of the dialect that produced them (none after the line fallback).
#[derive(Debug)]
pub struct Statement<'a> {
    pub text: &'a str,
    pub line: usize,
    pub tokens: Option<(usize, Vec<TokenWithSpan>)>,
}

/// The DDL statements of `sql`, tokenized with the first of `dialects` that reads the whole file.
pub fn statements<'a>(sql: &'a str, dialects: &[&dyn Dialect]) -> Vec<Statement<'a>> {
    for (i, dialect) in dialects.iter().enumerate() {
        if let Ok(tokens) = Tokenizer::new(*dialect, sql).tokenize_with_location() {
            return by_tokens(sql, tokens, i);
        }
    }
    by_lines(sql)
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

/// CREATE [UNIQUE] INDEX, CREATE [TEMP…] TABLE, CREATE TYPE or ALTER TABLE, judged by the
/// leading words (after comments); a CREATE FUNCTION or VIEW that mentions a table is not.
pub fn is_ddl(text: &str) -> bool {
    let words = leading_words(text, 8);
    let has = |w: &str| words.iter().any(|x| x == w);
    match words.first().map(String::as_str) {
        Some("CREATE") => {
            (has("TABLE") || has("INDEX") || has("TYPE"))
                && !["FUNCTION", "PROCEDURE", "TRIGGER", "VIEW", "RULE", "POLICY"]
                    .iter()
                    .any(|w| has(w))
        }
        Some("ALTER") => words.get(1).is_some_and(|w| w == "TABLE"),
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
    use sqlparser::dialect::{MySqlDialect, PostgreSqlDialect};

    fn texts(sql: &str, dialects: &[&dyn Dialect]) -> Vec<(usize, String)> {
        statements(sql, dialects)
            .into_iter()
            .map(|s| (s.line, s.text.to_owned()))
            .collect()
    }

    #[test]
    fn semicolons_in_strings_comments_and_dollar_bodies_do_not_split() {
        let sql = "-- one; two\nCREATE TABLE \"a;b\" (x text DEFAULT 'x;y');\n\n\
                   DO $$ BEGIN CREATE TABLE inner_t (x int); END $$;\n/* c; */ CREATE INDEX i ON t (é);\n\
                   INSERT INTO t VALUES ('CREATE TABLE x');";
        let got = texts(sql, &[&PostgreSqlDialect {}]);
        assert_eq!(
            got,
            [
                (2, "CREATE TABLE \"a;b\" (x text DEFAULT 'x;y')".to_owned()),
                (5, "CREATE INDEX i ON t (é)".to_owned()),
            ]
        );
        assert!(statements(sql, &[&PostgreSqlDialect {}])[0].tokens.is_some());
    }

    #[test]
    fn a_file_no_tokenizer_reads_is_split_by_lines() {
        let sql = "CREATE TABLE a (x int);\nCREATE TABLE b (y text DEFAULT 'oops);\n\nCREATE TABLE c (z int);\n";
        let got = texts(sql, &[&PostgreSqlDialect {}, &MySqlDialect {}]);
        assert_eq!(got.len(), 3, "{got:?}");
        assert_eq!(got[1].0, 2);
        assert_eq!(got[2], (4, "CREATE TABLE c (z int)".to_owned()));
        assert!(statements(sql, &[&PostgreSqlDialect {}])[0].tokens.is_none());
    }

    #[test]
    fn the_first_dialect_that_reads_the_file_is_used() {
        // `#` starts a comment in MySQL only: PostgreSQL's tokenizer sees an open quote.
        let sql = "# it's MySQL\nCREATE TABLE `t` (`a` int) ENGINE=InnoDB;";
        let got = statements(sql, &[&PostgreSqlDialect {}, &MySqlDialect {}]);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].text, "CREATE TABLE `t` (`a` int) ENGINE=InnoDB");
        assert_eq!(got[0].tokens.as_ref().map(|t| t.0), Some(1));
    }

    #[test]
    fn only_the_statements_the_bridge_reads_are_kept() {
        for ddl in [
            "create table t (x int)",
            "CREATE UNIQUE INDEX CONCURRENTLY i ON t (x)",
            "create temporary table t (x int)",
            "-- note\nALTER TABLE ONLY t ADD COLUMN y int",
            "CREATE TYPE mood AS ENUM ('sad')",
        ] {
            assert!(is_ddl(ddl), "{ddl}");
        }
        for other in [
            "CREATE FUNCTION f() RETURNS TABLE (x int) AS $$ select 1 $$",
            "CREATE VIEW table_view AS SELECT 1",
            "ALTER SEQUENCE s RESTART",
            "INSERT INTO t VALUES (1)",
            "CREATE EXTENSION IF NOT EXISTS pgcrypto",
        ] {
            assert!(!is_ddl(other), "{other}");
        }
    }
}
