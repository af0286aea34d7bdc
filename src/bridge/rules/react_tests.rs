//! React, React Router, Next.js and Remix facts of the fixture projects, as the bridge puts
//! the code extractor's (design-system imports) and the rules' together.

use crate::bridge::extract::code::fixture::{endpoint_lines, extract_settings, files};
use crate::bridge::extract::{Settings, Source};
use crate::bridge::facts::Facts;

fn extract_with(name: &str, settings: &Settings) -> Facts {
    let files = files(name);
    let sources: Vec<Source<'_>> = files.iter().map(|(path, text)| Source { path, text }).collect();
    crate::bridge::merge::merge(vec![extract_settings(name, settings), super::extract(&sources)])
}

fn extract(name: &str) -> Facts {
    extract_with(name, &Settings::default())
}

fn react() -> Facts {
    extract_with(
        "frontend-react",
        &Settings {
            design_system: vec!["@acme/ui".into()],
            ..Settings::default()
        },
    )
}

/// `name (kind) file` of each component.
fn components(facts: &Facts) -> Vec<String> {
    facts
        .components
        .iter()
        .map(|c| format!("{} ({}) {}", c.name, c.kind, c.file))
        .collect()
}

/// `path → component (framework)` of each route.
fn routes(facts: &Facts) -> Vec<String> {
    facts
        .routes
        .iter()
        .map(|r| {
            format!(
                "{} → {} ({})",
                r.path,
                r.component.as_deref().unwrap_or("-"),
                r.framework
            )
        })
        .collect()
}

#[test]
fn components_of_every_export_form_and_index_re_exports() {
    assert_eq!(
        components(&react()),
        [
            "WizardStep (function) src/broken/Wizard.tsx",
            "Avatar (default) src/components/Avatar.tsx",
            "StatusBadge (function) src/components/Badge.tsx",
            "Button (function) src/components/Button.tsx",
            "Card (memo) src/components/Card.tsx",
            "Input (forwardRef) src/components/Input.tsx",
            "LegacyPanel (default) src/components/LegacyPanel.jsx",
            // Re-exports are resolved when the files are linked; the bridge lists facts by file.
            "Card (re-export) src/components/index.ts",
            "Input (re-export) src/components/index.ts",
            "Avatar (re-export) src/components/index.ts",
            "StatusBadge (re-export) src/components/index.ts",
            "Button (re-export) src/components/index.ts",
            "AuthProvider (function) src/context/AuthContext.tsx",
            "AdminRoutes (function) src/legacy/AdminRoutes.tsx",
            "HomePage (default) src/pages/HomePage.tsx",
            "LoginPage (function) src/pages/LoginPage.tsx",
            "ProjectDetail (function) src/pages/ProjectDetail.tsx",
            "ProjectsPage (function) src/pages/ProjectsPage.tsx",
            "RootLayout (arrow) src/pages/RootLayout.tsx",
        ]
    );
}

#[test]
fn a_broken_file_keeps_what_parsed_and_is_listed_as_unparsed() {
    let facts = react();
    assert!(
        facts
            .unparsed
            .iter()
            .any(|u| u.starts_with("src/broken/Wizard.tsx: syntax error at line")),
        "{:?}",
        facts.unparsed
    );
    assert!(
        !facts.components.iter().any(|c| c.name == "Wizard"),
        "the unclosed component is not reported"
    );
    assert!(
        facts
            .design_system
            .iter()
            .any(|d| d.file == "src/broken/Wizard.tsx" && d.names == ["Button"])
    );
}

#[test]
fn react_router_config_objects_and_jsx_routes_nest() {
    assert_eq!(
        routes(&react()),
        [
            "/admin → AdminLayout (react-router)",
            "/admin → AdminHome (react-router)",
            "/admin/users/:userId → AdminUser (react-router)",
            "/ → RootLayout (react-router)",
            "/ → HomePage (react-router)",
            "/projects → ProjectsPage (react-router)",
            "/projects/:projectId → ProjectDetail (react-router)",
            "/settings/* → - (react-router)",
            "/login → LoginPage (react-router)",
        ]
    );
}

#[test]
fn redux_zustand_and_context_state() {
    // State comes from the rule files.
    let facts = extract("frontend-react");
    let state: Vec<String> = facts
        .state
        .iter()
        .map(|s| {
            let mut line = format!("{} ({}): {}", s.name, s.kind, s.keys.join(", "));
            if let Some(provider) = &s.provider {
                line.push_str(&format!(" provider {provider}"));
            }
            if let Some(hook) = &s.hook {
                line.push_str(&format!(" hook {hook}"));
            }
            line
        })
        .collect();
    assert_eq!(
        state,
        [
            "AuthContext (react-context): user, login, logout provider AuthProvider hook useAuth",
            "api (rtk-query): getProjects, createProject",
            "store (redux-store): projects",
            "projects (redux-slice): projectAdded, projectRemoved, projectRenamed",
            "useUiStore (zustand): sidebarOpen, theme, toggleSidebar, setTheme",
        ]
    );
}

#[test]
fn design_system_imports_follow_the_configured_package() {
    let facts = react();
    let imports: Vec<String> = facts
        .design_system
        .iter()
        .map(|d| format!("{} {}: {}", d.file, d.package, d.names.join(", ")))
        .collect();
    assert_eq!(
        imports,
        [
            "src/broken/Wizard.tsx @acme/ui: Button",
            "src/pages/HomePage.tsx @acme/ui: Button, DataTable",
            "src/pages/HomePage.tsx @acme/ui/overlays: Modal",
            "src/pages/ProjectsPage.tsx @acme/ui: Button",
            "src/pages/RootLayout.tsx @acme/ui: AppShell, NavLink",
        ]
    );
    assert!(
        extract("frontend-react").design_system.is_empty(),
        "@acme/ui is not a default"
    );
}

#[test]
fn nextjs_app_and_pages_routes_and_route_handlers() {
    let facts = extract("frontend-nextjs");
    assert_eq!(
        routes(&facts),
        [
            "/pricing → PricingPage (nextjs)",
            "/blog/[...slug] → BlogPost (nextjs)",
            "/dashboard → AnalyticsSlot (nextjs)",
            "/dashboard/[teamId] → TeamDashboard (nextjs)",
            "/ → HomePage (nextjs)",
        ]
    );
    assert_eq!(
        endpoint_lines(&facts),
        [
            "ALL /api/health",
            "DELETE /api/projects/[id]",
            "GET /api/projects",
            "GET /api/projects/[id]",
            "PATCH /api/projects/[id]",
            "POST /api/projects",
        ]
    );
    assert!(components(&facts).contains(&"Button (forwardRef) components/ui/button.tsx".to_owned()));
    assert!(components(&facts).contains(&"Nav (function) app/_components/Nav.tsx".to_owned()));
    // shadcn/ui's folder and Radix are among the default design systems.
    let imports: Vec<String> = facts
        .design_system
        .iter()
        .map(|d| format!("{} {}", d.file, d.package))
        .collect();
    assert_eq!(
        imports,
        [
            "app/dashboard/[teamId]/page.tsx @/components/ui/button",
            "app/page.tsx @/components/ui/button",
            "components/ui/button.tsx @radix-ui/react-slot",
        ]
    );
}

#[test]
fn remix_flat_routes_and_resource_routes() {
    let facts = extract("frontend-remix");
    assert_eq!(
        routes(&facts),
        [
            "/:lang?/about → About (remix)",
            "/login → Login (remix)",
            "/ → Index (remix)",
            "/concerts/:city → City (remix)",
            "/concerts → ConcertsIndex (remix)",
            "/concerts/mine → MyConcerts (remix)",
            "/dashboard/projects/:projectId → ProjectRoute (remix)",
            "/files/* → Files (remix)",
        ]
    );
    assert_eq!(
        endpoint_lines(&facts),
        ["GET /sitemap.xml", "POST /api/webhooks/stripe", "POST /login"]
    );
}
