//! The one door to the YAML parser for frontmatter (STATE.md, PLAN.md). serde_norway's
//! scanner checks every open flow collection at each token, so `[[[[…` costs tokens ×
//! nesting (100 KB took 15 s), and aliases can make a few hundred bytes expand a
//! thousandfold. A text is checked against bounds that keep parsing linear and short before
//! the parser sees it; past a bound it is refused, never half read.

use std::fmt;

use serde::de::DeserializeOwned;

use super::Bound;

/// Largest frontmatter handed to the parser (GSD's are well under 4 KB).
pub const MAX_BYTES: usize = 64 * 1024;

/// Most flow collections (`[` or `{`) in one frontmatter. Every bracket counts, quoted or
/// not, so the nesting the scanner sees is bounded without a second parser.
pub const MAX_FLOW_COLLECTIONS: usize = 256;

/// Why a frontmatter was not parsed.
#[derive(Debug, Clone, PartialEq)]
pub enum YamlError {
    /// Past a bound: not handed to the parser at all.
    Refused(Bound),
    /// The parser's own complaint (invalid YAML, wrong types).
    Invalid(String),
}

impl fmt::Display for YamlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Refused(bound) => bound.fmt(f),
            Self::Invalid(why) => f.write_str(why),
        }
    }
}

/// Parses a frontmatter (the text between the `---` lines) once it is within the bounds.
pub fn parse<T: DeserializeOwned>(text: &str) -> Result<T, YamlError> {
    check(text).map_err(YamlError::Refused)?;
    serde_norway::from_str(text).map_err(|e| YamlError::Invalid(e.to_string()))
}

/// `Err(bound)` when `text` is past a bound: too long, too many flow collections, or an
/// anchor (GSD never writes one, and without anchors no alias can expand).
pub fn check(text: &str) -> Result<(), Bound> {
    if text.len() > MAX_BYTES {
        return Err(Bound::FrontmatterBytes {
            found: text.len(),
            max: MAX_BYTES,
        });
    }
    let flows = text.bytes().filter(|b| matches!(b, b'[' | b'{')).count();
    if flows > MAX_FLOW_COLLECTIONS {
        return Err(Bound::FlowCollections {
            found: flows,
            max: MAX_FLOW_COLLECTIONS,
        });
    }
    if has_anchor(text) {
        return Err(Bound::Anchor);
    }
    Ok(())
}

/// Whether `text` may hold an anchor: a `&` followed by a name where a node can start (at a
/// line start, after white space, or after `[`, `{`, `,` or `:`). `R&D` and `a=1&b=2` are
/// not anchors; a `&name` inside a quoted string is counted, erring on the safe side.
fn has_anchor(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.iter().enumerate().any(|(i, &b)| {
        b == b'&'
            && bytes.get(i + 1).is_some_and(|n| !n.is_ascii_whitespace())
            && (i == 0 || matches!(bytes[i - 1], b' ' | b'\t' | b'\n' | b'\r' | b'[' | b'{' | b',' | b':'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_norway::Value;

    #[test]
    fn gsd_frontmatter_passes_and_bombs_are_refused_before_parsing() {
        let gsd = "phase: 03-cart\nwave: 1\ndepends_on: [\"03-01\"]\nfiles_modified: []\nmust_haves:\n  truths: []\n\
                   milestone_name: R&D\nurl: https://x.test/?a=1&b=2\n";
        let parsed: Value = parse(gsd).unwrap();
        assert_eq!(parsed["milestone_name"].as_str(), Some("R&D"));

        let deep = format!("a: {}{}", "[".repeat(50_000), "]".repeat(50_000));
        assert!(matches!(parse::<Value>(&deep), Err(YamlError::Refused(_))));
        let long = format!("a: {}", "x".repeat(MAX_BYTES));
        assert!(matches!(parse::<Value>(&long), Err(YamlError::Refused(_))));
        for anchored in ["a: &a [x, x]\nb: [*a, *a]\n", "- &a x\n", "{k: &a v}", "[&a x]", "&a x"] {
            assert!(
                matches!(parse::<Value>(anchored), Err(YamlError::Refused(_))),
                "{anchored}"
            );
        }
        assert!(matches!(parse::<Value>("a: [unclosed\n"), Err(YamlError::Invalid(_))));
        assert!(matches!(parse::<Value>("a: *nowhere\n"), Err(YamlError::Invalid(_))));
    }
}
