//! Imports of the design system: the names a file takes from the configured packages
//! (`import { Button, Card as UICard } from '@acme/ui'`, subpaths like `@acme/ui/forms`).

use super::modules::top_level;
use crate::bridge::extract::syntax::ParsedFile;
use crate::bridge::facts::DesignImport;

/// Reads the design-system imports of one script file into `out` (`families/modules/script.scm`
/// finds the imports): the names as the package exports them (`Card as UICard` → `Card`; a
/// default import under its local name; `* as UI` as written).
pub fn scan(file: &ParsedFile<'_>, packages: &[String], out: &mut Vec<DesignImport>) {
    for hit in top_level(file) {
        let Some(source) = hit.text("import.source") else {
            continue;
        };
        if hit.prop("require").is_some() || !packages.iter().any(|package| is_within(source, package)) {
            continue;
        }
        let name = match (
            hit.text("import.default"),
            hit.text("import.module"),
            hit.text("import.name"),
        ) {
            (Some(local), _, _) => local.to_owned(),
            (_, Some(local), _) => format!("* as {local}"),
            (_, _, Some(name)) => name.to_owned(),
            _ => continue,
        };
        match out.iter_mut().find(|have| have.package == source) {
            Some(have) if have.names.contains(&name) => {}
            Some(have) => have.names.push(name),
            None => out.push(DesignImport {
                package: source.to_owned(),
                names: vec![name],
                file: file.path.to_owned(),
            }),
        }
    }
}

/// True if `source` is `package` or one of its subpaths.
pub fn is_within(source: &str, package: &str) -> bool {
    let package = package.trim_end_matches('/');
    source == package || source.strip_prefix(package).is_some_and(|rest| rest.starts_with('/'))
}

#[cfg(test)]
mod tests {
    use super::is_within;

    #[test]
    fn a_package_covers_its_subpaths_only() {
        assert!(is_within("@acme/ui", "@acme/ui"));
        assert!(is_within("@acme/ui/forms", "@acme/ui"));
        assert!(!is_within("@acme/ui-legacy", "@acme/ui"));
        assert!(is_within("@/components/ui/button", "@/components/ui/"));
    }
}
