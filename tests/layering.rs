//! The crate's modules import each other without circles (issue 33): in every directory of
//! `src/`, no sibling modules (each standing for its whole subtree) reach each other through
//! their `use` items and paths, and neither do the top-level modules. Read with `syn` from the
//! sources; test-only modules (`#[cfg(test)]`) are not part of the layering.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use proc_macro2::{TokenStream, TokenTree};
use syn::visit::Visit;
use syn::{Attribute, Item, UseTree};

/// A module's path from the crate's root (`["bridge", "rules"]`; the root is empty).
type ModulePath = Vec<String>;

/// One module's reference to another: the path it wrote, resolved from the crate's root.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Reference {
    from: ModulePath,
    to: ModulePath,
    written: String,
}

/// Modules that reach each other: the directory (module) they are children of, and the
/// children in the circle with one reference for each step.
#[derive(Debug, PartialEq, Eq)]
struct Circle {
    parent: ModulePath,
    members: Vec<String>,
    steps: Vec<String>,
}

impl Circle {
    /// `parent: {a, b}` (`crate` for the top-level modules).
    fn name(&self) -> String {
        let parent = if self.parent.is_empty() {
            "crate".to_owned()
        } else {
            self.parent.join("::")
        };
        format!("{parent}: {{{}}}", self.members.join(", "))
    }
}

impl std::fmt::Display for Circle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "{}", self.name())?;
        for step in &self.steps {
            writeln!(f, "    {step}")?;
        }
        Ok(())
    }
}

/// Circles not broken yet (issue 33), as the test names them (`parent: {members}`). Any other
/// circle fails the test, and so does one of these once it is gone (take it off the list).
const NOT_YET_BROKEN: &[&str] = &[];

#[test]
fn no_module_imports_its_siblings_in_a_circle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let circles = circles(&references(&src, "lib.rs"));
    let named: Vec<String> = circles.iter().map(Circle::name).collect();
    let new: String = circles
        .iter()
        .filter(|c| !NOT_YET_BROKEN.contains(&c.name().as_str()))
        .map(ToString::to_string)
        .collect();
    assert!(new.is_empty(), "import circles among sibling modules in src/:\n{new}");
    let gone: Vec<&&str> = NOT_YET_BROKEN
        .iter()
        .filter(|known| !named.iter().any(|n| n == **known))
        .collect();
    assert!(
        gone.is_empty(),
        "no longer a circle (take it off NOT_YET_BROKEN): {gone:?}"
    );
}

#[test]
fn a_planted_circle_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let files = [
        ("lib.rs", "mod store;\nmod report;\n#[cfg(test)]\nmod checks;\n"),
        ("store/mod.rs", "pub mod ledger;\npub mod usage;\n"),
        ("store/ledger.rs", "use super::usage::Usage;\npub struct Ledger;\n"),
        (
            "store/usage.rs",
            "pub struct Usage;\npub fn of() { crate::report::chart(); }\n",
        ),
        (
            "report.rs",
            "pub fn chart() { let _ = crate::store::ledger::Ledger; }\n",
        ),
        ("checks.rs", "use crate::report::chart;\nuse crate::store::usage::of;\n"),
    ];
    for (path, text) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let circles = circles(&references(dir.path(), "lib.rs"));
    assert_eq!(circles.len(), 1, "{circles:?}");
    assert_eq!(circles[0].parent, ModulePath::new());
    assert_eq!(circles[0].members, ["report", "store"]);
    let shown = circles[0].to_string();
    assert!(shown.starts_with("crate: {report, store}\n"), "{shown}");
    assert!(
        shown.contains("store::usage -> report (crate::report::chart)"),
        "{shown}"
    );
}

#[test]
fn circles_are_found_per_directory_with_subtrees_collapsed() {
    let reference = |from: &str, to: &str| Reference {
        from: from.split("::").map(str::to_owned).collect(),
        to: to.split("::").map(str::to_owned).collect(),
        written: to.to_owned(),
    };
    // a::x and a::y reach each other through y's child; a's own file and a child referring to
    // each other are no circle; neither is a one-way chain at the top.
    let references = [
        reference("a::x", "a::y::deep"),
        reference("a::y::deep", "a::x"),
        reference("a", "a::x"),
        reference("a::x", "a"),
        reference("a", "b"),
        reference("b", "c"),
    ];
    let one = circles(&references);
    assert_eq!(one.len(), 1, "{one:?}");
    assert_eq!(one[0].parent, ["a"]);
    assert_eq!(one[0].members, ["x", "y"]);
    assert_eq!(
        one[0].steps,
        ["a::x -> a::y::deep (a::y::deep)", "a::y::deep -> a::x (a::x)"]
    );
    // Closing the chain at the top makes a second circle, of three.
    let mut closed = references.to_vec();
    closed.push(reference("c::z", "a::x"));
    let both = circles(&closed);
    assert_eq!(both.len(), 2, "{both:?}");
    assert_eq!(both[0].parent, ModulePath::new());
    assert_eq!(both[0].members, ["a", "b", "c"]);
    assert_eq!(both[1].members, ["x", "y"]);
}

/// Every module's references to other modules of the crate rooted at `src/<root>`.
fn references(src: &Path, root: &str) -> Vec<Reference> {
    let mut modules = BTreeMap::new();
    load(&src.join(root), ModulePath::new(), &mut modules);
    let known: BTreeSet<ModulePath> = modules.keys().cloned().collect();
    let mut references = BTreeSet::new();
    for (module, found) in &modules {
        for written in &found.paths {
            let absolute = resolve(module, written, &found.aliases);
            let Some(to) = owner(&absolute, &known, &modules) else {
                continue;
            };
            if &to != module {
                references.insert(Reference {
                    from: module.clone(),
                    to,
                    written: written.join("::"),
                });
            }
        }
    }
    references.into_iter().collect()
}

/// What one module's items say: the paths they write and the names their `use` items bring in.
#[derive(Default)]
struct Found {
    paths: Vec<Vec<String>>,
    /// A name in scope → the path it was imported from.
    aliases: BTreeMap<String, Vec<String>>,
    /// A name a `pub use` re-exports → the path it stands for.
    exports: BTreeMap<String, Vec<String>>,
}

/// Reads the module in `file` and, following its `mod` items, its children.
fn load(file: &Path, module: ModulePath, modules: &mut BTreeMap<ModulePath, Found>) {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let parsed = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    // A child of `x/mod.rs` or `lib.rs` is beside it; a child of `x.rs` is in `x/`.
    let dir = match file.file_stem().and_then(|s| s.to_str()) {
        Some("mod" | "lib" | "main") => file.parent().unwrap().to_path_buf(),
        _ => file.with_extension(""),
    };
    module_items(&parsed.items, &dir, module, modules);
}

/// Reads one module's `items` (its children's files are in `dir`).
fn module_items(items: &[Item], dir: &Path, module: ModulePath, modules: &mut BTreeMap<ModulePath, Found>) {
    let mut found = Found::default();
    for item in items {
        if is_test_only(attributes(item)) {
            continue;
        }
        match item {
            Item::Mod(child) => {
                let mut path = module.clone();
                path.push(child.ident.to_string());
                match &child.content {
                    Some((_, inner)) => module_items(inner, &dir.join(child.ident.to_string()), path, modules),
                    None => load(&child_file(dir, &child.ident.to_string(), &child.attrs), path, modules),
                }
            }
            other => Collect(&mut found).visit_item(other),
        }
    }
    modules.insert(module, found);
}

/// The file of `mod name;` declared in `dir` (`name.rs` or `name/mod.rs`).
fn child_file(dir: &Path, name: &str, attrs: &[Attribute]) -> PathBuf {
    let moved = attrs.iter().any(|a| a.path().is_ident("path"));
    assert!(
        !moved,
        "{}: `#[path]` on `mod {name}` is not followed here",
        dir.display()
    );
    let flat = dir.join(format!("{name}.rs"));
    if flat.exists() {
        flat
    } else {
        dir.join(name).join("mod.rs")
    }
}

fn attributes(item: &Item) -> &[Attribute] {
    match item {
        Item::Const(i) => &i.attrs,
        Item::Enum(i) => &i.attrs,
        Item::Fn(i) => &i.attrs,
        Item::Impl(i) => &i.attrs,
        Item::Macro(i) => &i.attrs,
        Item::Mod(i) => &i.attrs,
        Item::Static(i) => &i.attrs,
        Item::Struct(i) => &i.attrs,
        Item::Trait(i) => &i.attrs,
        Item::Type(i) => &i.attrs,
        Item::Use(i) => &i.attrs,
        _ => &[],
    }
}

/// `#[cfg(test)]`: compiled for the crate's own tests only.
fn is_test_only(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.meta
                .require_list()
                .is_ok_and(|list| list.tokens.to_string() == "test")
    })
}

/// The paths a `use` tree imports, each with the name it brings into scope (none for a glob).
fn use_leaves(tree: &UseTree, prefix: Vec<String>, out: &mut Vec<(Option<String>, Vec<String>)>) {
    let with = |segment: String| {
        let mut path = prefix.clone();
        path.push(segment);
        path
    };
    match tree {
        UseTree::Path(p) => use_leaves(&p.tree, with(p.ident.to_string()), out),
        UseTree::Name(n) if n.ident == "self" => out.push((prefix.last().cloned(), prefix.clone())),
        UseTree::Name(n) => out.push((Some(n.ident.to_string()), with(n.ident.to_string()))),
        UseTree::Rename(r) if r.ident == "self" => out.push((Some(r.rename.to_string()), prefix.clone())),
        UseTree::Rename(r) => out.push((Some(r.rename.to_string()), with(r.ident.to_string()))),
        UseTree::Glob(_) => out.push((None, prefix.clone())),
        UseTree::Group(g) => g.items.iter().for_each(|t| use_leaves(t, prefix.clone(), out)),
    }
}

/// Collects what an item says: its `use` items, and every path of two or more segments it
/// writes, also inside macro calls.
struct Collect<'a>(&'a mut Found);

impl<'ast> Visit<'ast> for Collect<'_> {
    fn visit_item_use(&mut self, used: &'ast syn::ItemUse) {
        let public = !matches!(used.vis, syn::Visibility::Inherited);
        let mut leaves = Vec::new();
        use_leaves(&used.tree, Vec::new(), &mut leaves);
        for (name, path) in leaves {
            self.0.paths.push(path.clone());
            if let Some(name) = name {
                if public {
                    self.0.exports.insert(name.clone(), path.clone());
                }
                self.0.aliases.insert(name, path);
            }
        }
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        if path.leading_colon.is_none() && path.segments.len() > 1 {
            self.0
                .paths
                .push(path.segments.iter().map(|s| s.ident.to_string()).collect());
        }
        syn::visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.visit_path(&mac.path);
        macro_paths(mac.tokens.clone(), &mut self.0.paths);
    }

    fn visit_item(&mut self, item: &'ast Item) {
        if !is_test_only(attributes(item)) {
            syn::visit::visit_item(self, item);
        }
    }
}

/// `a::b::c` sequences in a macro's tokens (which `syn` leaves unparsed).
fn macro_paths(tokens: TokenStream, out: &mut Vec<Vec<String>>) {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut at = 0;
    while at < tokens.len() {
        match &tokens[at] {
            TokenTree::Group(group) => macro_paths(group.stream(), out),
            TokenTree::Ident(first) => {
                let mut path = vec![first.to_string()];
                while let [TokenTree::Punct(a), TokenTree::Punct(b), TokenTree::Ident(next), ..] = &tokens[at + 1..]
                    && a.as_char() == ':'
                    && b.as_char() == ':'
                {
                    path.push(next.to_string());
                    at += 3;
                }
                if path.len() > 1 {
                    out.push(path);
                }
            }
            TokenTree::Punct(_) | TokenTree::Literal(_) => {}
        }
        at += 1;
    }
}

/// `written` (in `module`) as a path from the crate's root: `crate::`, `super::` and `self::`
/// resolved, and a first segment that a `use` item imported replaced by where it came from.
/// Paths into other crates (and to names the module defines) come back as they are.
fn resolve(module: &ModulePath, written: &[String], aliases: &BTreeMap<String, Vec<String>>) -> Vec<String> {
    let mut base = module.clone();
    let mut rest = written;
    match written.first().map(String::as_str) {
        Some("crate") => {
            base.clear();
            rest = &written[1..];
        }
        Some("super" | "self") => {
            while let Some(first) = rest.first().map(String::as_str) {
                match first {
                    "super" => base.truncate(base.len().saturating_sub(1)),
                    "self" => {}
                    _ => break,
                }
                rest = &rest[1..];
            }
        }
        Some(first) => match aliases.get(first) {
            // An alias's own path resolves in the module (`use super::x as y;`).
            Some(imported) if imported.len() > 1 || imported[0] != *first => {
                let mut path = resolve(module, imported, &BTreeMap::new());
                path.extend(rest[1..].iter().cloned());
                return path;
            }
            // A child module's name, or a name defined here.
            _ => {}
        },
        None => return Vec::new(),
    }
    base.extend(rest.iter().cloned());
    base
}

/// The module `path` is in: its longest prefix that is a module of the crate, following the
/// re-exports (`pub use`) of that module to where the name is defined.
fn owner(path: &[String], known: &BTreeSet<ModulePath>, modules: &BTreeMap<ModulePath, Found>) -> Option<ModulePath> {
    let mut path = path.to_vec();
    for _ in 0..16 {
        let module = (0..=path.len())
            .rev()
            .map(|n| path[..n].to_vec())
            .find(|prefix| known.contains(prefix))?;
        let Some(next) = path.get(module.len()) else {
            return Some(module);
        };
        match modules[&module].exports.get(next) {
            Some(exported) => {
                let mut target = resolve(&module, exported, &modules[&module].aliases);
                target.extend(path[module.len() + 1..].iter().cloned());
                if target == path {
                    return Some(module);
                }
                path = target;
            }
            None => return Some(module),
        }
    }
    None
}

/// The circles among sibling modules: for every module with children (the root too), the
/// children that reach each other, each counted with its whole subtree.
fn circles(references: &[Reference]) -> Vec<Circle> {
    let parents: BTreeSet<ModulePath> = references
        .iter()
        .flat_map(|r| [&r.from, &r.to])
        .flat_map(|m| (0..m.len()).map(|n| m[..n].to_vec()))
        .collect();
    let mut circles = Vec::new();
    for parent in parents {
        let child =
            |m: &ModulePath| (m.len() > parent.len() && m.starts_with(&parent)).then(|| m[parent.len()].clone());
        let mut graph: BTreeMap<String, BTreeMap<String, &Reference>> = BTreeMap::new();
        for reference in references {
            if let (Some(a), Some(b)) = (child(&reference.from), child(&reference.to))
                && a != b
            {
                graph.entry(a).or_default().entry(b).or_insert(reference);
            }
        }
        for members in strongly_connected(&graph) {
            let steps = members
                .iter()
                .flat_map(|a| graph[a].iter().filter(|(b, _)| members.contains(b)).map(|(_, r)| *r))
                .map(|r| format!("{} -> {} ({})", r.from.join("::"), r.to.join("::"), r.written))
                .collect();
            circles.push(Circle {
                parent: parent.clone(),
                members,
                steps,
            });
        }
    }
    circles
}

/// The groups of two or more nodes that reach each other, each sorted.
fn strongly_connected(graph: &BTreeMap<String, BTreeMap<String, &Reference>>) -> Vec<Vec<String>> {
    let reach = |start: &String| {
        let mut seen = BTreeSet::new();
        let mut stack = vec![start.clone()];
        while let Some(node) = stack.pop() {
            for next in graph.get(&node).into_iter().flat_map(BTreeMap::keys) {
                if seen.insert(next.clone()) {
                    stack.push(next.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> = graph.keys().map(|n| (n, reach(n))).collect();
    let mut groups: Vec<Vec<String>> = Vec::new();
    for (node, reached) in &reaches {
        if !reached.contains(*node) || groups.iter().any(|g| g.contains(node)) {
            continue;
        }
        let group = reached
            .iter()
            .filter(|other| reaches.get(other).is_some_and(|r| r.contains(*node)))
            .cloned();
        groups.push(group.collect());
    }
    groups
}
