//! The text a capture stands for: a string literal's content.

/// A string literal's content (`"x"`, `'x'`, `` `x` ``, Ruby's `:x`), or the text as it is.
pub fn literal(text: &str) -> String {
    let text = text.trim();
    for quote in ['"', '\'', '`'] {
        if let Some(inner) = text.strip_prefix(quote).and_then(|t| t.strip_suffix(quote)) {
            return inner.to_owned();
        }
    }
    text.strip_prefix(':').unwrap_or(text).to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_and_symbols_go() {
        assert_eq!(literal("\"/users\""), "/users");
        assert_eq!(literal(":articles"), "articles");
        assert_eq!(literal("`/x`"), "/x");
    }
}
