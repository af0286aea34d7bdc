//! Rust module paths: a file's module, a path's segments and the module a path names.

/// `a::b::c` → `[a, b, c]` (generic arguments dropped).
pub fn segments(path: &str) -> Vec<String> {
    path.split("::")
        .map(|part| part.split('<').next().unwrap_or(part).trim().to_owned())
        .filter(|p| !p.is_empty())
        .collect()
}

/// The module path of a file: `src/api/users.rs` and `src/api/users/mod.rs` → `[api, users]`;
/// `src/main.rs` and `src/lib.rs` → `[]`. The part before the last `src/` is the crate's place.
pub fn module_of(path: &str) -> Vec<String> {
    let inside = path.rsplit_once("src/").map_or(path, |(_, rest)| rest);
    let inside = inside.strip_suffix(".rs").unwrap_or(inside);
    let mut parts: Vec<String> = inside.split('/').map(str::to_owned).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "main" | "lib")) {
        parts.pop();
    }
    parts
}

/// The module a path's item lives in, seen from the module `here`: `crate::a::f` → `[a]`,
/// `super::f` → parent of `here`, `self::x::f` and `x::f` → `here + [x]`.
pub fn target_module(here: &[String], path: &[String]) -> Option<Vec<String>> {
    let (_, modules) = path.split_last()?;
    let mut out = here.to_vec();
    let mut rest = modules;
    match modules.first().map(String::as_str) {
        Some("crate") => {
            out.clear();
            rest = &modules[1..];
        }
        Some("self") => rest = &modules[1..],
        Some("super") => {
            while rest.first().map(String::as_str) == Some("super") {
                out.pop()?;
                rest = &rest[1..];
            }
        }
        _ => {}
    }
    out.extend(rest.iter().cloned());
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(parts: &[&str]) -> Vec<String> {
        parts.iter().map(|part| part.to_string()).collect()
    }

    #[test]
    fn files_map_to_module_paths() {
        assert_eq!(module_of("server/src/api/users.rs"), strings(&["api", "users"]));
        assert_eq!(module_of("src/api/mod.rs"), strings(&["api"]));
        assert!(module_of("src/main.rs").is_empty());
    }

    #[test]
    fn paths_resolve_from_the_current_module() {
        let here = strings(&["api"]);
        assert_eq!(
            target_module(&here, &strings(&["users", "routes"])),
            Some(strings(&["api", "users"]))
        );
        assert_eq!(
            target_module(&here, &strings(&["crate", "health", "routes"])),
            Some(strings(&["health"]))
        );
        assert_eq!(target_module(&here, &strings(&["super", "routes"])), Some(vec![]));
    }
}
