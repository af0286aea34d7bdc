//! File-system routes: SvelteKit's `src/routes/` (a folder holding a `+page` file is a client
//! route; its `+server` handlers and `+page.server` form actions are endpoints at its path,
//! their methods found by rules), the pages folders of Nuxt and file-routed Vue apps
//! (`pages_dirs`), and Nitro's handlers
//! (`server/api/users/[id].get.ts` → `GET /api/users/[id]`, no method in the name → `ALL`;
//! `server/routes/`; a standalone Nitro app's `routes/`) with `server/middleware` files that
//! check auth as guards. Segments keep their brackets as written, as Next.js routes do.
//! A Nuxt app's components take the names Nuxt registers them by (`nuxt_components`).
//! Next.js's `app/` (`page` files, `route` handler files; route groups, parallel slots and
//! private folders add nothing to the path) and `pages/` (`pages/api` handlers), Remix/React
//! Router flat routes under `app/routes/` (`.`-separated segments, `$param`, `_index`, pathless
//! `_layout`, `($optional)`, `[escaped]`) and TanStack Router's route ids: the rules find the
//! exports, the file's place makes the path.

mod pages_dirs;

use super::paths::HTTP_METHODS;
use crate::bridge::code_model::guards::names::is_auth_name;
use crate::bridge::code_model::wants::{is_generated_path, is_test_path};
use crate::bridge::facts::{Endpoint, Facts, Guard, Route};
use crate::bridge::source::Source;
use pages_dirs::Pages;

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
        let page = || pages.iter().find_map(|app| Some((app.root, app.page(source.path)?)));
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
    // A Remix page's loader is the page itself, not an endpoint of its own.
    let remix_pages: Vec<String> = facts
        .routes
        .iter()
        .filter(|route| route.framework == "remix")
        .map(|route| route.file.clone())
        .collect();
    facts
        .endpoints
        .retain(|e| !(e.framework == "remix" && e.method == "GET" && remix_pages.contains(&e.file)));
    let nuxt: Vec<&str> = pages
        .iter()
        .filter(|app| app.framework == "nuxt")
        .map(|app| app.root)
        .collect();
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
    let folders = under(dirs, "routes", |dirs, at| at > 0 && dirs[at - 1] == "src")?;
    file_name.starts_with('+').then(|| (folders.to_vec(), *file_name))
}

/// The folders after the first `dir` of `dirs`, if `at_top` takes its place (`src/routes`).
fn under<'d, 's>(dirs: &'d [&'s str], dir: &str, at_top: fn(&[&str], usize) -> bool) -> Option<&'d [&'s str]> {
    let at = dirs
        .iter()
        .position(|have| *have == dir)
        .filter(|at| at_top(dirs, *at))?;
    dirs.get(at + 1..)
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

/// The path of an endpoint a rule of `framework` finds in a file: a SvelteKit `+server` or
/// `+page.server` file's folder (a named form action's at `?/name`, `default` is the page's
/// own), a Next.js `route` file's or `pages/api` file's, a Remix route module's.
pub fn endpoint_path(file: &str, framework: &str, action: Option<&str>) -> Option<String> {
    if framework != "sveltekit" {
        return match (react_route(file)?, framework) {
            ((url, "route" | "api"), "nextjs") | ((url, "remix"), "remix") => Some(url),
            _ => None,
        };
    }
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

/// The path of a page a rule of `framework` finds by its default export: a Next.js `page`
/// file or `pages/` file, a Remix route module.
pub fn page_path(file: &str, framework: &str) -> Option<String> {
    match (react_route(file)?, framework) {
        ((url, "page"), "nextjs") | ((url, "remix"), "remix") => Some(url),
        _ => None,
    }
}

/// Files of Next.js's pages router that are no routes.
const SPECIAL_PAGES: &[&str] = &["_app", "_document", "_error", "_middleware"];

/// Where a Next.js or Remix file routes: its URL, and what it is there (a `page`, a `route`
/// handler file, an `api` handler of the pages router, a `remix` route module).
fn react_route(file: &str) -> Option<(String, &'static str)> {
    let parts: Vec<&str> = file.split('/').collect();
    let (name, dirs) = parts.split_last()?;
    // Only the extension goes: `[...nextauth].ts` is the route `[...nextauth]`; a Vue or
    // Svelte file under `pages/` is none of theirs.
    let (stem, ext) = name.rsplit_once('.')?;
    if !matches!(ext, "js" | "jsx" | "ts" | "tsx" | "mjs" | "mts") {
        return None;
    }
    if let Some(folders) = under(dirs, "routes", |dirs, at| at > 0 && dirs[at - 1] == "app") {
        // A folder route (`app/routes/concerts.$city/route.tsx`) is named by its folder.
        let name = match (folders, stem) {
            ([folder], "route" | "index") => *folder,
            ([], _) => stem,
            _ => return None,
        };
        let url = remix_path(name);
        // A pathless layout (`_auth.tsx`) only wraps the routes under it.
        let index = split_unescaped(name).any(|s| s == "_index" || s == "index");
        return (url != "/" || index).then_some((url, "remix"));
    }
    if let Some(folders) = under(dirs, "app", |dirs, at| at == 0 || dirs[at - 1] == "src" || at >= 2) {
        // Private folders (`_components`) are no routes.
        if folders.iter().any(|s| s.starts_with('_')) {
            return None;
        }
        let kind = match stem {
            "page" => "page",
            "route" => "route",
            _ => return None,
        };
        return Some((folder_path(folders, |s| s.starts_with('@') || is_group(s)), kind));
    }
    let folders = under(dirs, "pages", |dirs, at| at == 0 || dirs[at - 1] == "src")?;
    let next_like = stem == "index" || stem.starts_with('[') || stem.starts_with(char::is_lowercase);
    if SPECIAL_PAGES.contains(&stem) || !next_like {
        return None;
    }
    let mut segments = folders.to_vec();
    if stem != "index" {
        segments.push(stem);
    }
    let kind = if folders.first() == Some(&"api") { "api" } else { "page" };
    Some((folder_path(&segments, is_group), kind))
}

/// A flat route file name as a URL path: `concerts.$city` → `/concerts/:city`, `_index` → `/`,
/// `_auth.login` → `/login`, `concerts_.mine` → `/concerts/mine`, `$` → `/*`,
/// `($lang).about` → `/:lang?/about`, `[sitemap.xml]` → `/sitemap.xml`.
fn remix_path(name: &str) -> String {
    let mut segments = Vec::new();
    for segment in split_unescaped(name) {
        if segment == "_index" || segment == "index" || (segment.starts_with('_') && !segment.starts_with("_[")) {
            continue;
        }
        let segment = segment.strip_suffix('_').unwrap_or(segment);
        segments.push(if segment == "$" {
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
        });
    }
    format!("/{}", segments.join("/"))
}

/// Splits at `.` except inside `[…]` escapes.
fn split_unescaped(name: &str) -> impl Iterator<Item = &str> {
    let mut escaped = false;
    name.split(move |c| {
        escaped = match c {
            '[' => true,
            ']' => false,
            _ => escaped,
        };
        c == '.' && !escaped
    })
}

/// A TanStack Router route id as the URL it serves (`/_auth/invoices/$invoiceId` →
/// `/invoices/$invoiceId`, `/posts_/$postId/edit` → `/posts/$postId/edit`, `/(app)/settings/`
/// → `/settings`); `None` for a pathless layout (`/_auth`), which only wraps the routes under it.
pub fn tanstack_url(id: &str) -> Option<String> {
    if !id.ends_with('/') && id.rsplit('/').next().is_some_and(|last| last.starts_with('_')) {
        return None;
    }
    let segments: Vec<&str> = id
        .split('/')
        .filter(|segment| !(segment.is_empty() || segment.starts_with('_') || is_group(segment)))
        .map(|segment| segment.strip_suffix('_').unwrap_or(segment))
        .collect();
    Some(format!("/{}", segments.join("/")))
}

/// The URL path of a file router's folders, brackets kept as written (`[id]`, `[...slug]`),
/// the segments `left_out` says add nothing to the URL dropped.
pub fn folder_path(segments: &[&str], left_out: fn(&str) -> bool) -> String {
    let kept: Vec<&str> = segments.iter().copied().filter(|segment| !left_out(segment)).collect();
    format!("/{}", kept.join("/"))
}

/// A `(group)` folder: it groups routes and adds nothing to the URL (Next.js, SvelteKit, Nuxt).
pub fn is_group(segment: &str) -> bool {
    segment.starts_with('(') && segment.ends_with(')')
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
        let at = |file, action| endpoint_path(file, "sveltekit", action);
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
    fn next_and_remix_files_route_by_their_place() {
        let remix = |name: &str| remix_path(name);
        assert_eq!(remix("_index"), "/");
        assert_eq!(remix("concerts.$city"), "/concerts/:city");
        assert_eq!(remix("concerts._index"), "/concerts");
        assert_eq!(remix("_auth.login"), "/login");
        assert_eq!(remix("concerts_.mine"), "/concerts/mine");
        assert_eq!(remix("files.$"), "/files/*");
        assert_eq!(remix("($lang).about"), "/:lang?/about");
        assert_eq!(remix("[sitemap.xml]"), "/sitemap.xml");
        let page = |file| page_path(file, "nextjs");
        assert_eq!(page("app/(marketing)/pricing/page.tsx").as_deref(), Some("/pricing"));
        assert_eq!(
            page("app/dashboard/@analytics/[team]/page.tsx").as_deref(),
            Some("/dashboard/[team]")
        );
        assert_eq!(page("src/app/page.tsx").as_deref(), Some("/"));
        assert_eq!(page("app/_components/page.tsx"), None);
        assert_eq!(page("pages/_app.tsx"), None);
        assert_eq!(page("src/pages/HomePage.tsx"), None);
        assert_eq!(page("pages/index.vue"), None);
        assert_eq!(page("app/routes/_auth.tsx"), None);
        assert_eq!(page_path("app/routes/_auth.tsx", "remix"), None);
        assert_eq!(
            page_path("app/routes/d.$id/route.tsx", "remix").as_deref(),
            Some("/d/:id")
        );
        let handler = |file| endpoint_path(file, "nextjs", None);
        assert_eq!(
            handler("pages/api/auth/[...nextauth].ts").as_deref(),
            Some("/api/auth/[...nextauth]")
        );
        assert_eq!(handler("app/api/projects/route.ts").as_deref(), Some("/api/projects"));
        assert_eq!(handler("app/page.tsx"), None);
    }

    #[test]
    fn tanstack_route_ids_become_urls() {
        let url = |id| tanstack_url(id);
        assert_eq!(
            url("/_auth/invoices/$invoiceId").as_deref(),
            Some("/invoices/$invoiceId")
        );
        assert_eq!(url("/_auth/invoices/").as_deref(), Some("/invoices"));
        assert_eq!(url("/posts_/$postId/edit").as_deref(), Some("/posts/$postId/edit"));
        assert_eq!(url("/(app)/settings").as_deref(), Some("/settings"));
        assert_eq!(url("/").as_deref(), Some("/"));
        assert_eq!(url("/files/$").as_deref(), Some("/files/$"));
        assert_eq!(url("/_auth"), None);
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
