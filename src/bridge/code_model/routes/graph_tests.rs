//! The mount graph's joins and flattening.

use super::*;

fn route(method: &str, path: &str) -> Item {
    Item::Route(LocalRoute {
        method: method.into(),
        path: path.into(),
        ..LocalRoute::default()
    })
}

fn unit(name: &str, framework: &'static str, prefix: &str, items: Vec<Item>) -> Unit {
    Unit {
        key: ("f".into(), name.into()),
        framework,
        prefix: prefix.into(),
        items,
        ..Unit::default()
    }
}

fn mount(prefix: &str, name: &str, replace: bool) -> Item {
    Item::Mount(Mount {
        prefix: prefix.into(),
        replace,
        target: Target::Unit(("f".into(), name.into())),
        ..Mount::default()
    })
}

fn paths(units: &[Unit]) -> Vec<String> {
    flatten(units)
        .into_iter()
        .map(|endpoint| format!("{} {}", endpoint.method, endpoint.path))
        .collect()
}

#[test]
fn joins_follow_the_framework() {
    assert_eq!(join("/api", "/", Join::Normalize), "/api");
    assert_eq!(join("/users", "/", Join::Append), "/users/");
    assert_eq!(join("/api/", "users", Join::Normalize), "/api/users");
    assert_eq!(join("", "", Join::Normalize), "/");
    assert_eq!(join("", "health", Join::Append), "/health");
    assert_eq!(join("/users", "", Join::Append), "/users");
    assert_eq!(join("", "api/", Join::Concat), "/api/");
    assert_eq!(join("/api/", "articles", Join::Concat), "/api/articles");
    assert_eq!(join("/api/articles", "/<slug>/", Join::Concat), "/api/articles/<slug>/");
    assert_eq!(join("/api/", "", Join::Concat), "/api/");
}

#[test]
fn mounts_prefix_their_routers_and_unmounted_routers_stand_alone() {
    let units = vec![
        unit("app", "express", "", vec![mount("/api", "api", false)]),
        unit(
            "api",
            "express",
            "",
            vec![mount("/users", "users", false), route("GET", "/health")],
        ),
        unit("users", "express", "", vec![route("GET", "/"), route("POST", "/:id")]),
        unit("orphan", "express", "", vec![route("GET", "/lonely")]),
    ];
    assert_eq!(
        paths(&units),
        [
            "GET /api/users",
            "POST /api/users/:id",
            "GET /api/health",
            "GET /lonely"
        ]
    );
}

#[test]
fn own_prefixes_add_unless_the_mount_replaces_them() {
    let units = vec![
        unit(
            "app",
            "flask",
            "",
            vec![mount("/api", "bp", true), mount("/v2", "router", false)],
        ),
        unit("bp", "flask", "/ignored", vec![route("GET", "/")]),
        unit("router", "fastapi", "/items", vec![route("GET", "/")]),
    ];
    assert_eq!(paths(&units), ["GET /api/", "GET /v2/items/"]);
}

#[test]
fn a_mount_cycle_ends() {
    let units = vec![
        unit("a", "express", "", vec![mount("/b", "b", false), route("GET", "/a")]),
        unit("b", "express", "", vec![mount("/a", "a", false), route("GET", "/b")]),
        Unit {
            app: true,
            ..unit("app", "express", "", vec![mount("", "a", false)])
        },
    ];
    assert_eq!(paths(&units), ["GET /b/b", "GET /a"]);
}
