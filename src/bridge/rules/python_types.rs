//! Python type texts as column types (`#set! type-text "python"`): an annotation without its
//! `Mapped[…]` and `Optional`/`None` (`Mapped[Optional[str]]` → `str`, `int | None` → `int`;
//! such a column may be null),
//! an SQLAlchemy type expression without its module (`sa.String(255)` → `String(255)`,
//! `sa.Integer()` → `Integer`).

/// The type an annotation declares.
pub fn annotated(text: &str) -> String {
    let inner = unmapped(text);
    if let Some(optional) = inner.strip_prefix("Optional[").and_then(|t| t.strip_suffix(']')) {
        return optional.trim().to_owned();
    }
    let parts: Vec<&str> = inner.split('|').map(str::trim).filter(|p| *p != "None").collect();
    parts.join(" | ")
}

/// True if an annotation admits `None` (`Optional[…]`, `… | None`, inside `Mapped[…]` too).
pub fn optional(text: &str) -> bool {
    let inner = unmapped(text);
    inner.starts_with("Optional[") || inner.split('|').any(|part| part.trim() == "None")
}

/// The annotation without its `Mapped[…]`, trimmed.
fn unmapped(text: &str) -> &str {
    let text = text.trim();
    match text.split_once('[') {
        Some((head, rest)) if head.rsplit('.').next() == Some("Mapped") => {
            rest.strip_suffix(']').unwrap_or(rest).trim()
        }
        _ => text,
    }
}

/// A type expression without the module its head is read from.
pub fn unqualified(text: &str) -> String {
    let text = text.strip_suffix("()").unwrap_or(text);
    let head = text.split('(').next().unwrap_or(text);
    match head.rsplit_once('.') {
        Some((module, _)) => text[module.len() + 1..].to_owned(),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mapped_optional_and_module_go() {
        assert_eq!(annotated("so.Mapped[Optional[datetime]]"), "datetime");
        assert_eq!(annotated("Mapped[str | None]"), "str");
        assert_eq!(annotated("int | None"), "int");
        assert_eq!(annotated("WriteOnlyMapped[Post]"), "WriteOnlyMapped[Post]");
        assert!(optional("so.Mapped[Optional[datetime]]") && optional("str | None"));
        assert!(!optional("Mapped[int]") && !optional("Optional"));
        assert_eq!(unqualified("sa.String(255)"), "String(255)");
        assert_eq!(unqualified("sa.Integer()"), "Integer");
        assert_eq!(unqualified("DateTime(timezone=True)"), "DateTime(timezone=True)");
    }
}
