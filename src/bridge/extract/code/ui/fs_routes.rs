//! File-system routes: Next.js `app/` (`page` files as routes, `route` files' exported
//! `GET`/`POST`… as endpoints; route groups, parallel slots and private folders left out of the
//! path) and `pages/` (`pages/api` as endpoints), and Remix/React Router flat routes under
//! `app/routes/` (`.`-separated segments, `$param`, `_index`, pathless `_layout`, `($optional)`,
//! `[escaped]`; a file without a default export is a resource route: an endpoint).

use crate::bridge::extract::code::modules::script::{Export, ScriptModule};
use crate::bridge::facts::{Endpoint, Route};

/// HTTP methods a Next.js route handler file exports.
const METHODS: &[&str] = &["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

/// Files of the pages router that are no routes.
const SPECIAL_PAGES: &[&str] = &["_app", "_document", "_error", "_middleware"];

/// What one file is in a file-system router.
#[derive(Debug, Default)]
pub struct FsRoutes {
    pub routes: Vec<Route>,
    pub endpoints: Vec<Endpoint>,
}

/// The route or endpoints a file's path makes it, by its framework's conventions. `module`
/// tells its exports; `default_name` is its default export's name.
pub fn scan(path: &str, module: &ScriptModule, default_name: Option<String>, imports_next: bool) -> FsRoutes {
    let mut out = FsRoutes::default();
    let parts: Vec<&str> = path.split('/').collect();
    let Some((file_name, dirs)) = parts.split_last() else {
        return out;
    };
    // Only the extension goes: `[...nextauth].ts` is the route `[...nextauth]`.
    let stem = file_name.rsplit_once('.').map_or(*file_name, |(stem, _)| stem);
    let exports: Vec<&str> = module
        .exports
        .iter()
        .filter_map(|export| match export {
            Export::Local { exported, .. } | Export::From { exported, .. } => Some(exported.as_str()),
            Export::Star { .. } => None,
        })
        .collect();
    let has_default = exports.contains(&"default");
    if let Some(at) = dirs
        .iter()
        .position(|dir| *dir == "routes")
        .filter(|at| *at > 0 && dirs[at - 1] == "app")
    {
        remix(
            path,
            &dirs[at + 1..],
            file_name,
            has_default,
            &exports,
            default_name,
            &mut out,
        );
    } else if let Some(at) = app_dir(dirs) {
        let segments = &dirs[at + 1..];
        if segments.iter().any(|s| s.starts_with('_')) {
            return out;
        }
        let url = next_path(segments);
        match stem {
            "page" => out.routes.push(route(&url, default_name, "nextjs", path)),
            "route" => {
                for method in METHODS.iter().filter(|m| exports.contains(m)) {
                    out.endpoints.push(endpoint(method, &url, "nextjs", path));
                }
            }
            _ => {}
        }
    } else if let Some(at) = dirs
        .iter()
        .position(|dir| *dir == "pages")
        .filter(|at| *at == 0 || dirs[at - 1] == "src")
    {
        let segments = &dirs[at + 1..];
        let next_like =
            imports_next || stem == "index" || stem.starts_with('[') || stem.starts_with(char::is_lowercase);
        if SPECIAL_PAGES.contains(&stem) || !next_like || !has_default {
            return out;
        }
        let mut all: Vec<&str> = segments.to_vec();
        if stem != "index" {
            all.push(stem);
        }
        let url = next_path(&all);
        if segments.first() == Some(&"api") {
            out.endpoints.push(endpoint("ALL", &url, "nextjs", path));
        } else {
            out.routes.push(route(&url, default_name, "nextjs", path));
        }
    }
    out
}

/// Where a Next.js `app` directory starts: `app/…` at the top, under `src/`, or in a workspace package.
fn app_dir(dirs: &[&str]) -> Option<usize> {
    dirs.iter()
        .position(|dir| *dir == "app")
        .filter(|at| *at == 0 || dirs[at - 1] == "src" || *at >= 2)
}

/// `["(shop)", "products", "[id]", "@modal"]` → `/products/[id]`.
fn next_path(segments: &[&str]) -> String {
    folder_path(segments, is_group_or_slot)
}

/// The URL path of a file router's folders, brackets kept as written (`[id]`, `[...slug]`),
/// the segments `left_out` says add nothing to the URL dropped.
pub fn folder_path(segments: &[&str], left_out: fn(&str) -> bool) -> String {
    let kept: Vec<&str> = segments.iter().copied().filter(|segment| !left_out(segment)).collect();
    format!("/{}", kept.join("/"))
}

fn remix(
    path: &str,
    dirs: &[&str],
    file_name: &str,
    has_default: bool,
    exports: &[&str],
    default_name: Option<String>,
    out: &mut FsRoutes,
) {
    let stem = file_name.rsplit_once('.').map_or(file_name, |(stem, _)| stem);
    // A folder route (`app/routes/concerts.$city/route.tsx`) is named by its folder.
    let name = match (dirs, stem) {
        ([folder], "route" | "index") => folder.to_string(),
        ([], _) => stem.to_owned(),
        _ => return,
    };
    let url = remix_path(&name);
    // A pathless layout (`_auth.tsx`) only wraps the routes under it.
    if url == "/"
        && !split_unescaped(&name)
            .iter()
            .any(|segment| segment == "_index" || segment == "index")
    {
        return;
    }
    // A page's loader is the page itself; its action, and a resource route's loader and
    // action, are endpoints.
    if has_default {
        out.routes.push(route(&url, default_name, "remix", path));
    }
    for (export, method) in [("loader", "GET"), ("action", "POST")] {
        if exports.contains(&export) && (method == "POST" || !has_default) {
            out.endpoints.push(endpoint(method, &url, "remix", path));
        }
    }
}

/// A flat route file name as a URL path: `concerts.$city` → `/concerts/:city`, `_index` → `/`,
/// `_auth.login` → `/login`, `concerts_.mine` → `/concerts/mine`, `$` → `/*`,
/// `($lang).about` → `/:lang?/about`, `[sitemap.xml]` → `/sitemap.xml`.
pub fn remix_path(name: &str) -> String {
    let mut segments = Vec::new();
    for segment in split_unescaped(name) {
        let segment = segment.as_str();
        if segment == "_index" || segment == "index" || (segment.starts_with('_') && !segment.starts_with("_[")) {
            continue;
        }
        let segment = segment.strip_suffix('_').unwrap_or(segment);
        let converted = if segment == "$" {
            "*".to_owned()
        } else if let Some(optional) = segment.strip_prefix('(').and_then(|s| s.strip_suffix(')')) {
            match optional.strip_prefix('$') {
                Some(param) => format!(":{param}?"),
                None => format!("{optional}?"),
            }
        } else if let Some(param) = segment.strip_prefix('$') {
            format!(":{param}")
        } else {
            segment.replace(['[', ']'], "")
        };
        segments.push(converted);
    }
    format!("/{}", segments.join("/"))
}

/// Splits at `.` except inside `[…]` escapes.
fn split_unescaped(name: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut escaped = false;
    for c in name.chars() {
        match c {
            '[' => escaped = true,
            ']' => escaped = false,
            '.' if !escaped => {
                out.push(String::new());
                continue;
            }
            _ => {}
        }
        if let Some(last) = out.last_mut() {
            last.push(c);
        }
    }
    out
}

fn route(url: &str, component: Option<String>, framework: &str, file: &str) -> Route {
    Route {
        path: url.to_owned(),
        component,
        framework: framework.to_owned(),
        file: file.to_owned(),
    }
}

fn endpoint(method: &str, url: &str, framework: &str, file: &str) -> Endpoint {
    Endpoint {
        method: method.to_owned(),
        path: url.to_owned(),
        framework: framework.to_owned(),
        file: file.to_owned(),
        ..Endpoint::default()
    }
}

/// `(marketing)` route groups and `@analytics` parallel slots add nothing to the URL.
fn is_group_or_slot(segment: &str) -> bool {
    segment.starts_with('@') || is_group(segment)
}

/// A `(group)` folder: it groups routes and adds nothing to the URL (Next.js, SvelteKit, Nuxt).
pub fn is_group(segment: &str) -> bool {
    segment.starts_with('(') && segment.ends_with(')')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remix_flat_route_names_become_paths() {
        assert_eq!(remix_path("_index"), "/");
        assert_eq!(remix_path("concerts.$city"), "/concerts/:city");
        assert_eq!(remix_path("concerts._index"), "/concerts");
        assert_eq!(remix_path("_auth.login"), "/login");
        assert_eq!(remix_path("concerts_.mine"), "/concerts/mine");
        assert_eq!(remix_path("files.$"), "/files/*");
        assert_eq!(remix_path("($lang).about"), "/:lang?/about");
        assert_eq!(remix_path("[sitemap.xml]"), "/sitemap.xml");
    }

    #[test]
    fn next_groups_and_slots_stay_out_of_the_path() {
        assert_eq!(next_path(&["(marketing)", "pricing"]), "/pricing");
        assert_eq!(next_path(&["dashboard", "@analytics", "[team]"]), "/dashboard/[team]");
        assert_eq!(next_path(&[]), "/");
    }
}
