//! Following a script import to the file and name that define it: relative specifiers and
//! `@/` aliases to files, exported names through re-exports (`export … from`, `export *`) and
//! the importing file's own imports.

use super::PathIndex;
use super::script::{Export, Import, Imported, ScriptModule};
pub use crate::bridge::code_model::modules::script::resolve_source;

/// How far an export is followed through re-exports and imports.
const MAX_HOPS: usize = 8;

/// How many export tables one resolution reads at most (`export *` fans out).
const MAX_STEPS: usize = 256;

/// Follows `exported` of file `at` through re-exports and imports to the file and local name
/// that define it. `modules(at)` gives a file's module table.
pub fn resolve_export<'m>(
    index: &PathIndex,
    modules: &impl Fn(usize) -> Option<&'m ScriptModule>,
    at: usize,
    exported: &str,
) -> Option<(usize, String)> {
    Follow::new(index, modules).export(at, exported, MAX_HOPS)
}

/// The file and local name an import binding leads to.
pub fn resolve_import<'m>(
    index: &PathIndex,
    modules: &impl Fn(usize) -> Option<&'m ScriptModule>,
    at: usize,
    import: &Import,
) -> Option<(usize, String)> {
    Follow::new(index, modules).import(at, import, MAX_HOPS)
}

/// One resolution: the run's files, their module tables, and how many more tables it may read.
struct Follow<'r, M> {
    index: &'r PathIndex,
    modules: &'r M,
    steps: usize,
}

impl<'r, 'm, M: Fn(usize) -> Option<&'m ScriptModule>> Follow<'r, M> {
    fn new(index: &'r PathIndex, modules: &'r M) -> Self {
        Follow {
            index,
            modules,
            steps: MAX_STEPS,
        }
    }

    fn import(&mut self, at: usize, import: &Import, hops: usize) -> Option<(usize, String)> {
        let target = resolve_source(self.index, self.index.path(at), &import.source)?;
        match &import.name {
            Imported::Named(name) => self.export(target, name, hops),
            Imported::Default | Imported::Module => self.export(target, "default", hops),
        }
    }

    fn export(&mut self, at: usize, name: &str, hops: usize) -> Option<(usize, String)> {
        let hops = hops.checked_sub(1)?;
        self.steps = self.steps.checked_sub(1)?;
        let module = (self.modules)(at)?;
        let here = self.index.path(at);
        for export in &module.exports {
            match export {
                Export::Local { exported, local } if exported == name => {
                    return match module.imports.get(local) {
                        Some(import) => self.import(at, import, hops),
                        None => Some((at, local.clone())),
                    };
                }
                Export::From {
                    exported,
                    source,
                    name: imported,
                } if exported == name => {
                    let target = resolve_source(self.index, here, source)?;
                    return match imported {
                        Imported::Named(inner) => self.export(target, inner, hops),
                        Imported::Default => self.export(target, "default", hops),
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
                && let Some(target) = resolve_source(self.index, here, source)
                && let Some(found) = self.export(target, name, hops)
            {
                return Some(found);
            }
        }
        None
    }
}
