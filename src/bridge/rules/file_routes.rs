//! File-system routes: SvelteKit's `src/routes/` (a folder holding a `+page` file is a client
//! route; its `+server` handlers and `+page.server` form actions are endpoints at its path,
//! their methods found by rules), the pages folders of Nuxt and file-routed Vue apps
//! (`pages_dirs`), and Nitro's handlers
//! (`server/api/users/[id].get.ts` → `GET /api/users/[id]`, no method in the name → `ALL`;
//! `server/routes/`; a standalone Nitro app's `routes/`) with `server/middleware` files that
//! check auth as guards. Segments keep their brackets as written, as Next.js routes do.
//! A Nuxt app's components take the names Nuxt registers them by (`nuxt_components`).

use super::pages_dirs::Pages;
use super::paths::HTTP_METHODS;
use crate::bridge::extract::Source;
use crate::bridge::extract::code::guards::names::is_auth_name;
use crate::bridge::extract::code::ui::fs_routes::{folder_path, is_group};
use crate::bridge::extract::code::wants::{is_generated_path, is_test_path};
use crate::bridge::facts::{Endpoint, Facts, Guard, Route};

/// Adds the routes, endpoints and guards the sources' places make to `facts` (a test's or
/// build output's files make none).
pub fn extract(sources: &[Source<'_>], facts: &mut Facts) {
    let pages = Pages::of(sources);
    let nitro = roots(sources, "nitro.config");
    let written = sources
        .iter()
        .filter(|source| !is_test_path(source.path) && !is_generated_path(source.path));
    // Where each app's routes start: one path is one route per app (a folder with
    // `+page.svelte` and `+page.ts`, Nuxt's `users.vue` and `users/index.vue`).
    let mut seen: Vec<(&str, String)> = Vec::new();
    for source in written {
        let page = || pages.iter().find_map(|app| Some((app.root(), app.page(source.path)?)));
        let app_route = sveltekit_page(source.path)
            .map(|route| (source.path.split("src/routes/").next().unwrap_or(""), route))
            .or_else(page);
        if let Some((app, route)) = app_route
            && !seen
                .iter()
                .any(|(have_app, path)| *have_app == app && *path == route.path)
        {
            seen.push((app, route.path.clone()));
            facts.routes.push(route);
        }
        nitro_handler(source, &nitro, facts);
    }
    // Pages and layouts are no components; a Nuxt app's take the names Nuxt registers.
    facts.components.retain(|component| {
        !pages
            .iter()
            .any(|app| app.page(&component.file).is_some() || app.is_layout(&component.file))
    });
    let nuxt: Vec<&str> = pages.iter().filter(|app| app.is_nuxt()).map(|app| app.root()).collect();
    super::nuxt_components::apply(facts, &nuxt);
}

/// The folders holding a config file named `name` (`nuxt.config.ts` → `""` at the top).
fn roots<'s>(sources: &[Source<'s>], name: &str) -> Vec<&'s str> {
    sources
        .iter()
        .filter(|source| {
            source
                .file_name()
                .strip_prefix(name)
                .is_some_and(|ext| matches!(ext, ".ts" | ".js" | ".mjs" | ".mts"))
        })
        .map(|source| source.path.rsplit_once('/').map_or("", |(dir, _)| dir))
        .collect()
}

/// The folders under `src/routes/` a SvelteKit route file is in, and its file name.
fn sveltekit_parts(path: &str) -> Option<(Vec<&str>, &str)> {
    let parts: Vec<&str> = path.split('/').collect();
    let (file_name, dirs) = parts.split_last()?;
    let at = dirs
        .iter()
        .position(|dir| *dir == "routes")
        .filter(|at| *at > 0 && dirs[at - 1] == "src")?;
    file_name
        .starts_with('+')
        .then(|| (dirs[at + 1..].to_vec(), *file_name))
}

/// A SvelteKit page: a folder holding `+page.svelte` (or a universal `+page.ts`/`+page.js`).
fn sveltekit_page(path: &str) -> Option<Route> {
    let (segments, file_name) = sveltekit_parts(path)?;
    matches!(file_name, "+page.svelte" | "+page.ts" | "+page.js").then(|| Route {
        path: folder_path(&segments, is_group),
        component: None,
        framework: "sveltekit".to_owned(),
        file: path.to_owned(),
    })
}

/// The path of an endpoint a rule finds in a SvelteKit `+server` or `+page.server` file:
/// its folder's path, a named form action's at `?/name` (`default` is the page's own).
pub fn endpoint_path(file: &str, action: Option<&str>) -> Option<String> {
    let (segments, file_name) = sveltekit_parts(file)?;
    if !(file_name.starts_with("+server.") || file_name.starts_with("+page.server.")) {
        return None;
    }
    let base = folder_path(&segments, is_group);
    Some(match action {
        None | Some("default") => base,
        Some(name) => format!("{base}?/{name}"),
    })
}

/// A Nitro (Nuxt server) handler: `server/api/…` at `/api/…`, `server/routes/…` at `/…` (a
/// standalone Nitro app's `api/` and `routes/` beside its `nitro.config`), the method from the
/// file name; a `server/middleware` file that checks auth is a guard.
fn nitro_handler(source: &Source<'_>, nitro: &[&str], facts: &mut Facts) {
    let text = source.text;
    if !(text.contains("EventHandler(") || text.contains("eventHandler(")) {
        return;
    }
    let Some((stem, ext)) = source.path.rsplit_once('.') else {
        return;
    };
    if !matches!(ext, "ts" | "js" | "mjs" | "mts") {
        return;
    }
    let parts: Vec<&str> = stem.split('/').collect();
    let under_server = parts
        .iter()
        .position(|dir| *dir == "server")
        .map(|at| at + 1)
        .filter(|at| parts.len() > at + 1);
    let under_nitro = || {
        nitro.iter().find_map(|root| {
            let root: Vec<&str> = root.split('/').filter(|dir| !dir.is_empty()).collect();
            (parts.starts_with(&root) && parts.len() > root.len() + 1).then_some(root.len())
        })
    };
    let Some(at) = under_server.or_else(under_nitro) else {
        return;
    };
    let (folder, rest) = (parts[at], &parts[at + 1..]);
    let Some((name, dirs)) = rest.split_last() else { return };
    let (name, method) = match name.rsplit_once('.') {
        // Nitro writes the method in lower case: `[id].get.ts`.
        Some((name, method))
            if method.bytes().all(|b| b.is_ascii_lowercase())
                && HTTP_METHODS.contains(&method.to_ascii_uppercase().as_str()) =>
        {
            (name, method.to_ascii_uppercase())
        }
        _ => (*name, "ALL".to_owned()),
    };
    if folder == "middleware" {
        if is_auth_name(name) || text.contains("401") || text.contains("nauthorized") {
            facts.guards.push(Guard {
                name: name.to_owned(),
                kind: "middleware".to_owned(),
                framework: Some("nitro".to_owned()),
                file: source.path.to_owned(),
                ..Guard::default()
            });
        }
        return;
    }
    let mut segments: Vec<&str> = match folder {
        "api" => vec!["api"],
        "routes" => Vec::new(),
        _ => return,
    };
    segments.extend(dirs.iter().copied());
    if name != "index" {
        segments.push(name);
    }
    facts.endpoints.push(Endpoint {
        method,
        path: folder_path(&segments, is_group),
        framework: "nitro".to_owned(),
        file: source.path.to_owned(),
        ..Endpoint::default()
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source<'a>(path: &'a str, text: &'a str) -> Source<'a> {
        Source { path, text }
    }

    #[test]
    fn sveltekit_folders_make_pages_and_endpoint_paths() {
        let page = |path| sveltekit_page(path).map(|route| route.path);
        assert_eq!(page("src/routes/+page.svelte").as_deref(), Some("/"));
        assert_eq!(
            page("src/routes/(app)/profile/@[user]/+page.svelte").as_deref(),
            Some("/profile/@[user]")
        );
        assert_eq!(
            page("src/routes/blog/[...rest]/+page.ts").as_deref(),
            Some("/blog/[...rest]")
        );
        assert_eq!(page("src/routes/login/+page.server.ts"), None);
        assert_eq!(page("src/lib/Nav.svelte"), None);
        let at = |file, action| endpoint_path(file, action);
        assert_eq!(
            at("src/routes/api/items/[id]/+server.ts", None).as_deref(),
            Some("/api/items/[id]")
        );
        assert_eq!(
            at("src/routes/settings/+page.server.js", Some("logout")).as_deref(),
            Some("/settings?/logout")
        );
        assert_eq!(
            at("src/routes/login/+page.server.js", Some("default")).as_deref(),
            Some("/login")
        );
        assert_eq!(at("src/routes/login/+page.svelte", None), None);
    }

    #[test]
    fn each_app_has_its_own_routes_and_one_folder_is_one_route() {
        let mut facts = Facts::default();
        let sources = [
            source("apps/docs/src/routes/+page.svelte", ""),
            source("apps/docs/src/routes/+page.ts", ""),
            source("apps/web/src/routes/+page.svelte", ""),
        ];
        extract(&sources, &mut facts);
        let files: Vec<&str> = facts.routes.iter().map(|route| route.file.as_str()).collect();
        assert_eq!(
            files,
            ["apps/docs/src/routes/+page.svelte", "apps/web/src/routes/+page.svelte"]
        );
    }

    #[test]
    fn nitro_handlers_take_their_method_from_the_file_name() {
        let handler = "export default defineEventHandler(() => 1)";
        let mut facts = Facts::default();
        for path in [
            "server/api/users/[id].get.ts",
            "server/api/index.ts",
            "server/routes/sitemap.xml.ts",
            "proxy/routes/tmdb/[...path].ts",
            "server/utils/db.ts",
        ] {
            nitro_handler(&source(path, handler), &["proxy"], &mut facts);
        }
        nitro_handler(&source("server/middleware/auth.ts", handler), &[], &mut facts);
        nitro_handler(&source("server/middleware/log.ts", handler), &[], &mut facts);
        let found: Vec<String> = facts
            .endpoints
            .iter()
            .map(|e| format!("{} {}", e.method, e.path))
            .collect();
        assert_eq!(
            found,
            [
                "GET /api/users/[id]",
                "ALL /api",
                "ALL /sitemap.xml",
                "ALL /tmdb/[...path]"
            ]
        );
        let guards: Vec<&str> = facts.guards.iter().map(|g| g.name.as_str()).collect();
        assert_eq!(guards, ["auth"]);
    }
}
