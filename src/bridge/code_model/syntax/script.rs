//! JavaScript/TypeScript types as a handler returns them.

/// `Promise<X>`, `Observable<X>` → `X`; other types as written.
pub fn unwrap_async_type(text: &str) -> &str {
    for wrapper in ["Promise<", "Observable<"] {
        if let Some(inner) = text.strip_prefix(wrapper).and_then(|rest| rest.strip_suffix('>')) {
            return inner.trim();
        }
    }
    text
}
