//! A CREATE TABLE that no dialect's parser reads (ClickHouse's engines and `DateTime('UTC')`,
//! another database's options) still names its table and columns: read from the statement's
//! tokens (sqlparser's tokenizer, never the raw text), the name after `TABLE`, then each
//! top-level item of the first parenthesised list that is not a constraint, index or
//! projection: its first word is the column, the words up to its first option its type.

use sqlparser::tokenizer::Token;

use super::split::word;
use crate::bridge::facts::{Column, Name, Table, TableOp};
use crate::bridge::schema::created;

/// Items of a column list that are no columns.
const NOT_COLUMNS: &[&str] = &[
    "CONSTRAINT",
    "PRIMARY",
    "FOREIGN",
    "UNIQUE",
    "INDEX",
    "KEY",
    "CHECK",
    "PROJECTION",
    "EXCLUDE",
    "LIKE",
    "PERIOD",
    "FULLTEXT",
    "SPATIAL",
];
/// Words that end a column's type and start its options.
const OPTIONS: &[&str] = &[
    "NOT",
    "NULL",
    "DEFAULT",
    "PRIMARY",
    "REFERENCES",
    "UNIQUE",
    "CHECK",
    "CODEC",
    "TTL",
    "COMMENT",
    "MATERIALIZED",
    "ALIAS",
    "EPHEMERAL",
    "COLLATE",
    "GENERATED",
    "CONSTRAINT",
    "AUTO_INCREMENT",
    "IDENTITY",
    "SETTINGS",
];

/// The table a `CREATE … TABLE name ( … )` statement's tokens declare, if they do.
pub fn create_table(tokens: &[Token], file: &str) -> Option<Table> {
    let code: Vec<&Token> = tokens.iter().filter(|t| !matches!(t, Token::Whitespace(_))).collect();
    if !code.first().is_some_and(|t| word(t, "CREATE")) {
        return None;
    }
    let at_table = code.iter().position(|t| word(t, "TABLE"))?;
    let mut at = at_table + 1;
    if code.get(at).is_some_and(|t| word(t, "IF")) {
        at += 3; // IF NOT EXISTS
    }
    let mut parts = Vec::new();
    while let Some(Token::Word(part)) = code.get(at) {
        parts.push(part.value.clone());
        at += 1;
        if matches!(code.get(at), Some(Token::Period)) {
            at += 1;
        } else {
            break;
        }
    }
    let name = parts.pop()?;
    if !matches!(code.get(at), Some(Token::LParen)) {
        return None;
    }
    let columns: Vec<TableOp> = top_level_items(&code[at + 1..])?
        .iter()
        .filter_map(|item| column(item))
        .map(|column| TableOp::AddColumn {
            column,
            foreign_key: None,
        })
        .collect();
    let schema = (!parts.is_empty()).then(|| parts.join("."));
    (!columns.is_empty()).then(|| created(Name { name, schema }, file, columns).0)
}

/// One item of the column list as a column; `None` for a constraint, an index, a projection.
fn column(item: &[&Token]) -> Option<Column> {
    let Token::Word(first) = *item.first()? else {
        return None;
    };
    if NOT_COLUMNS.iter().any(|w| word(item[0], w)) {
        return None;
    }
    let type_end = item[1..]
        .iter()
        .position(|t| OPTIONS.iter().any(|w| word(t, w)))
        .map_or(item.len(), |p| p + 1);
    let data_type: String = item[1..type_end].iter().map(|t| t.to_string()).collect();
    let not_null = item.windows(2).any(|w| word(w[0], "NOT") && word(w[1], "NULL"));
    Some(Column {
        name: first.value.clone(),
        data_type: (!data_type.is_empty()).then_some(data_type),
        nullable: Some(!not_null),
        ..Column::default()
    })
}

/// The comma-separated items of a parenthesised list whose `(` came just before `tokens`,
/// up to its `)`; `None` when the list is broken (an empty item, no closing bracket).
fn top_level_items<'t>(tokens: &[&'t Token]) -> Option<Vec<Vec<&'t Token>>> {
    let mut items = vec![Vec::new()];
    let mut depth = 0usize;
    let mut closed = false;
    for token in tokens {
        match token {
            Token::LParen => depth += 1,
            Token::RParen if depth == 0 => {
                closed = true;
                break;
            }
            Token::RParen => depth -= 1,
            Token::Comma if depth == 0 => {
                items.push(Vec::new());
                continue;
            }
            _ => {}
        }
        if let Some(last) = items.last_mut() {
            last.push(*token);
        }
    }
    (closed && items.iter().all(|i| !i.is_empty())).then_some(items)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqlparser::dialect::ClickHouseDialect;
    use sqlparser::tokenizer::Tokenizer;

    #[test]
    fn clickhouse_tables_no_parser_reads_still_name_their_columns() {
        let sql = "CREATE TABLE IF NOT EXISTS umami.website_event\n(\n    website_id UUID,\n    -- sessions\n    \
                   hostname LowCardinality(String),\n    created_at DateTime('UTC'),\n    lcp Nullable(Decimal(10, 1)),\n    \
                   job_id Nullable(UUID) CODEC(ZSTD),\n    PROJECTION p (SELECT * ORDER BY hostname),\n    \
                   INDEX idx hostname TYPE bloom_filter GRANULARITY 1\n)\nENGINE = MergeTree ORDER BY (website_id) SETTINGS index_granularity = 8192";
        let tokens: Vec<Token> = Tokenizer::new(&ClickHouseDialect {}, sql).tokenize().unwrap();
        let table = create_table(&tokens, "db/clickhouse/schema.sql").unwrap();
        assert_eq!(
            (table.name.as_str(), table.schema.as_deref()),
            ("website_event", Some("umami"))
        );
        let columns: Vec<(&str, Option<&str>)> = table
            .columns
            .iter()
            .map(|c| (c.name.as_str(), c.data_type.as_deref()))
            .collect();
        assert_eq!(
            columns,
            [
                ("website_id", Some("UUID")),
                ("hostname", Some("LowCardinality(String)")),
                ("created_at", Some("DateTime('UTC')")),
                ("lcp", Some("Nullable(Decimal(10,1))")),
                ("job_id", Some("Nullable(UUID)")),
            ]
        );
        for not_a_table in [
            "DROP TABLE x",
            "CREATE TABLE t (a int,, b int)",
            "CREATE TABLE t (a int",
        ] {
            let tokens = Tokenizer::new(&ClickHouseDialect {}, not_a_table).tokenize().unwrap();
            assert!(create_table(&tokens, "f").is_none(), "{not_a_table}");
        }
    }
}
