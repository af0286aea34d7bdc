//! Imports of the design system: the names a file takes from the configured packages
//! (`import { Button, Card as UICard } from '@acme/ui'`, subpaths like `@acme/ui/forms`).

use tree_sitter::Node;

use crate::bridge::extract::syntax::literal::string;
use crate::bridge::extract::syntax::{Fields, ParsedFile, named_children};
use crate::bridge::facts::DesignImport;

/// Reads the design-system imports of one script file into `out`.
pub fn scan(file: &ParsedFile<'_>, packages: &[String], out: &mut Vec<DesignImport>) {
    for statement in named_children(file.root())
        .into_iter()
        .filter(|s| s.kind() == "import_statement")
    {
        let Some(source) = statement.field("source").and_then(|s| string(file, s)) else {
            continue;
        };
        if !packages.iter().any(|package| is_within(&source, package)) {
            continue;
        }
        let names = imported_names(file, statement);
        if names.is_empty() {
            continue;
        }
        match out.iter_mut().find(|have| have.package == source) {
            Some(have) => {
                for name in names {
                    if !have.names.contains(&name) {
                        have.names.push(name);
                    }
                }
            }
            None => out.push(DesignImport {
                package: source,
                names,
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

/// The names an import takes, as the package exports them (`Card as UICard` → `Card`;
/// a default import under its local name; `* as UI` as written).
fn imported_names(file: &ParsedFile<'_>, statement: Node<'_>) -> Vec<String> {
    let Some(clause) = named_children(statement)
        .into_iter()
        .find(|c| c.kind() == "import_clause")
    else {
        return Vec::new();
    };
    let mut names = Vec::new();
    for part in named_children(clause) {
        match part.kind() {
            "identifier" => names.push(file.text(part).to_owned()),
            "namespace_import" => names.push(file.text(part).to_owned()),
            "named_imports" => {
                for specifier in named_children(part)
                    .into_iter()
                    .filter(|s| s.kind() == "import_specifier")
                {
                    if let Some(name) = file.field_text(specifier, "name") {
                        names.push(name.to_owned());
                    }
                }
            }
            _ => {}
        }
    }
    names
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
