//! Following a script import to the file and name that define it: relative specifiers and
//! `@/` aliases to files, exported names through re-exports (`export … from`, `export *`) and
//! the importing file's own imports.

use super::script::{Export, Import, Imported, ScriptModule};
use super::{PathIndex, join_relative, parent_dir};

/// How far an export is followed through re-exports and imports.
const MAX_HOPS: usize = 8;

/// How many export tables one resolution reads at most (`export *` fans out).
const MAX_STEPS: usize = 256;

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

/// Follows `exported` of file `at` through re-exports and imports to the file and local name
/// that define it. `modules(at)` gives a file's module table.
pub fn resolve_export<'m>(
    index: &PathIndex,
    modules: &impl Fn(usize) -> Option<&'m ScriptModule>,
    at: usize,
    exported: &str,
) -> Option<(usize, String)> {
    let mut steps = MAX_STEPS;
    follow_export(index, modules, at, exported, MAX_HOPS, &mut steps)
}

/// The file and local name an import binding leads to.
pub fn resolve_import<'m>(
    index: &PathIndex,
    modules: &impl Fn(usize) -> Option<&'m ScriptModule>,
    at: usize,
    import: &Import,
) -> Option<(usize, String)> {
    let mut steps = MAX_STEPS;
    follow_import(index, modules, at, import, MAX_HOPS, &mut steps)
}

fn follow_import<'m>(
    index: &PathIndex,
    modules: &impl Fn(usize) -> Option<&'m ScriptModule>,
    at: usize,
    import: &Import,
    hops: usize,
    steps: &mut usize,
) -> Option<(usize, String)> {
    let target = resolve_source(index, index.path(at), &import.source)?;
    match &import.name {
        Imported::Named(name) => follow_export(index, modules, target, name, hops, steps),
        Imported::Default | Imported::Module => follow_export(index, modules, target, "default", hops, steps),
    }
}

fn follow_export<'m>(
    index: &PathIndex,
    modules: &impl Fn(usize) -> Option<&'m ScriptModule>,
    at: usize,
    name: &str,
    hops: usize,
    steps: &mut usize,
) -> Option<(usize, String)> {
    let hops = hops.checked_sub(1)?;
    *steps = steps.checked_sub(1)?;
    let module = modules(at)?;
    let here = index.path(at);
    for export in &module.exports {
        match export {
            Export::Local { exported, local } if exported == name => {
                return match module.imports.get(local) {
                    Some(import) => follow_import(index, modules, at, import, hops, steps),
                    None => Some((at, local.clone())),
                };
            }
            Export::From {
                exported,
                source,
                name: imported,
            } if exported == name => {
                let target = resolve_source(index, here, source)?;
                return match imported {
                    Imported::Named(inner) => follow_export(index, modules, target, inner, hops, steps),
                    Imported::Default => follow_export(index, modules, target, "default", hops, steps),
                    Imported::Module => None,
                };
            }
            _ => {}
        }
    }
    if name == "default" {
        return None;
    }
    for export in &module.exports {
        if let Export::Star { source } = export
            && let Some(target) = resolve_source(index, here, source)
            && let Some(found) = follow_export(index, modules, target, name, hops, steps)
        {
            return Some(found);
        }
    }
    None
}
