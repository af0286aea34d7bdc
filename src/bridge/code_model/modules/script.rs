//! The file a script import specifier names: relative specifiers and `@/` aliases, tried
//! the way bundlers do.

use super::{PathIndex, join_relative, parent_dir};

/// Extensions a script import may leave out, in the order bundlers try them.
const SCRIPT_EXTENSIONS: &[&str] = &["ts", "tsx", "js", "jsx", "mts", "mjs", "cts", "cjs"];

/// The file an import specifier names, when it is one of the run's files: relative specifiers,
/// and `@/x` or `~/x` aliases matched by path suffix. Extensions and `index` files are tried
/// the way bundlers do; a `.js` specifier may name a `.ts` file.
pub fn resolve_source(index: &PathIndex, from: &str, source: &str) -> Option<usize> {
    let base = if source.starts_with("./") || source.starts_with("../") {
        join_relative(parent_dir(from), source)?
    } else if let Some(rest) = source.strip_prefix("@/").or_else(|| source.strip_prefix("~/")) {
        rest.to_owned()
    } else {
        return None;
    };
    let stem = ["js", "jsx", "mjs", "cjs"]
        .iter()
        .find_map(|ext| base.strip_suffix(&format!(".{ext}")))
        .unwrap_or(&base);
    let mut candidates = vec![base.clone()];
    for ext in SCRIPT_EXTENSIONS {
        candidates.push(format!("{stem}.{ext}"));
    }
    for ext in SCRIPT_EXTENSIONS {
        candidates.push(format!("{base}/index.{ext}"));
    }
    index.find(&candidates)
}
