//! Which scanners a file may interest: a cheap text check (the signals each scanner looks
//! for) made before anything is parsed, so that files without any are never parsed.

use std::sync::LazyLock;

use memchr::memmem::{self, Finder};

use crate::bridge::code_model::syntax::grammar::Grammar;

/// A string that starts like a path: what a prefix constant another file uses holds (each
/// searcher built once for the process: building one per file and needle cost more than the
/// search).
static PATH_STRING: LazyLock<Vec<Finder<'static>>> = LazyLock::new(|| {
    let needles = [
        "'/",
        "\"/",
        "`/",
        "ROUTES",
        "PREFIX",
        "prefix:",
        "BASE_PATH",
        "basePath",
    ];
    needles.into_iter().map(Finder::new).collect()
});

/// The scanners that may find something in a file, by the text it contains.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Wants {
    pub design: bool,
    /// The file's string constants, for prefixes written in other files.
    pub constants: bool,
}

impl Wants {
    /// The scanners `text` (of a file at `path` in `grammar`) may interest. Build output and
    /// installed packages (`dist/`, `.next/`, `node_modules/`) are generated, not written:
    /// nothing in them is read.
    pub fn of(grammar: Grammar, path: &str, text: &str, design_systems: &[String]) -> Wants {
        if is_generated_path(path) {
            return Wants::default();
        }
        let bytes = text.as_bytes();
        let path_string = || PATH_STRING.iter().any(|finder| finder.find(bytes).is_some());
        match grammar {
            Grammar::TypeScript | Grammar::Tsx | Grammar::JavaScript => Wants {
                design: design_systems
                    .iter()
                    .any(|package| memmem::find(bytes, package.trim_end_matches('/').as_bytes()).is_some()),
                constants: path_string(),
            },
            Grammar::Python => Wants {
                constants: path_string(),
                ..Wants::default()
            },
            // Rust's routers, handlers and extractors are rules; other grammars are no code files.
            _ => Wants::default(),
        }
    }

    /// Every scanner for every file: the extraction without the pre-filter, which the tests
    /// compare with the filtered one.
    #[cfg(test)]
    pub fn unfiltered(_grammar: Grammar, path: &str, _text: &str, _design_systems: &[String]) -> Wants {
        if is_generated_path(path) {
            return Wants::default();
        }
        Wants {
            design: true,
            constants: true,
        }
    }

    /// True if any scanner may find something (otherwise the file is not parsed).
    pub fn any(self) -> bool {
        // Compared whole (the derived `PartialEq`), so that a new scanner cannot be left out.
        self != Wants::default()
    }
}

/// Test files and folders: `test/`, `tests/`, `__tests__/`, `spec/`, `e2e/`, `cypress/`, `mocks/`,
/// `*.test.ts`, `*.spec.js`, `test_*.py`, `*_test.py`, `conftest.py`.
pub fn is_test_path(path: &str) -> bool {
    let mut parts = path.split('/');
    let name = parts.next_back().unwrap_or(path);
    let in_test_dir = parts.any(|dir| {
        matches!(
            dir,
            "test" | "tests" | "__tests__" | "spec" | "e2e" | "cypress" | "__mocks__" | "mocks"
        )
    });
    let stem = name.split('.').next().unwrap_or(name);
    in_test_dir
        || name.contains(".test.")
        || name.contains(".spec.")
        || stem.starts_with("test_")
        || stem.ends_with("_test")
        || stem == "conftest"
}

/// Folders of build output and installed packages.
pub fn is_generated_path(path: &str) -> bool {
    let mut parts = path.split('/');
    parts.next_back();
    parts.any(|dir| {
        matches!(
            dir,
            "dist"
                | ".next"
                | ".nuxt"
                | ".output"
                | ".svelte-kit"
                | "node_modules"
                | "bower_components"
                | "coverage"
                | "__pycache__"
        )
    })
}
