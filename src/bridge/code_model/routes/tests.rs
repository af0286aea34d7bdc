//! Endpoints extracted from the fixture projects, one test per framework.

use crate::bridge::extract::code::fixture::{endpoint_lines, extract};
use crate::bridge::facts::Endpoint;

fn endpoint<'f>(endpoints: &'f [Endpoint], method: &str, path: &str) -> &'f Endpoint {
    endpoints
        .iter()
        .find(|e| e.method == method && e.path == path)
        .unwrap_or_else(|| panic!("no {method} {path} in {:#?}", endpoints))
}

#[test]
fn express_routers_get_their_mount_prefixes_across_files() {
    let facts = extract("backend-express");
    assert_eq!(
        endpoint_lines(&facts),
        [
            "DELETE /admin/cache",
            "DELETE /api/v1/users/:id/avatar",
            "GET /admin/jobs",
            "GET /api/v1/orders",
            "GET /api/v1/orders/:orderId",
            "GET /api/v1/orders/:orderId/items",
            "GET /api/v1/users",
            "GET /api/v1/users/:id",
            "GET /health",
            "GET /legacy/ping",
            "GET /ready",
            "PATCH /api/v1/users/:id",
            "POST /api/v1/orders",
            "POST /api/v1/orders/:orderId/items",
            "POST /api/v1/users",
            "PUT /api/v1/users/:id/avatar",
        ]
    );
    let endpoints = &facts.endpoints;
    assert!(endpoints.iter().all(|e| e.framework == "express"), "{endpoints:#?}");
    let create = endpoint(endpoints, "POST", "/api/v1/users");
    assert_eq!(create.handler.as_deref(), Some("users.create"));
    assert_eq!(create.file, "src/routes/users.ts");
    assert_eq!(
        endpoint(endpoints, "GET", "/api/v1/orders").handler.as_deref(),
        Some("orders.list")
    );
    assert_eq!(
        endpoint(endpoints, "GET", "/api/v1/orders/:orderId").handler.as_deref(),
        Some("orders.show")
    );
    assert_eq!(endpoint(endpoints, "GET", "/admin/jobs").file, "src/routes/admin.js");
    assert_eq!(endpoint(endpoints, "GET", "/ready").file, "src/routes/health.ts");
    assert!(
        facts
            .unparsed
            .iter()
            .any(|u| u.starts_with("src/routes/legacy.ts: syntax error")),
        "{:?}",
        facts.unparsed
    );
}

#[test]
fn koa_router_prefixes_nest_through_routes_calls() {
    let facts = extract("backend-koa");
    assert_eq!(
        endpoint_lines(&facts),
        [
            "DELETE /api/products/:sku",
            "GET /api/categories",
            "GET /api/products",
            "GET /api/products/:sku",
            "GET /api/status",
            "POST /api/products",
            "PUT /api/categories/:slug",
        ]
    );
    assert!(
        facts.endpoints.iter().all(|e| e.framework == "koa"),
        "{:#?}",
        facts.endpoints
    );
    assert_eq!(
        endpoint(&facts.endpoints, "GET", "/api/products").handler.as_deref(),
        Some("handlers.list")
    );
}

#[test]
fn fastify_plugins_take_the_register_prefix() {
    let facts = extract("backend-fastify");
    assert_eq!(
        endpoint_lines(&facts),
        [
            "GET /healthz",
            "GET /v1/bookings",
            "GET /v1/rooms",
            "GET /v1/rooms/:roomId/availability",
            "PATCH /v1/bookings/:bookingId",
            "POST /hooks/stripe",
            "POST /v1/bookings",
            "PUT /v1/bookings/:bookingId",
        ]
    );
    assert!(
        facts.endpoints.iter().all(|e| e.framework == "fastify"),
        "{:#?}",
        facts.endpoints
    );
}

#[test]
fn nestjs_controllers_join_global_controller_and_method_paths() {
    let facts = extract("backend-nestjs");
    assert_eq!(
        endpoint_lines(&facts),
        [
            "DELETE /api/users/:id",
            "GET /api/health",
            "GET /api/users",
            "GET /api/users/:id",
            "PATCH /api/users/:id",
            "POST /api/auth/login",
            "POST /api/auth/logout",
            "POST /api/users",
        ]
    );
    let endpoints = &facts.endpoints;
    let create = endpoint(endpoints, "POST", "/api/users");
    assert_eq!(create.handler.as_deref(), Some("UsersController.create"));
    assert_eq!(create.request.as_deref(), Some("CreateUserDto"));
    assert_eq!(create.response.as_deref(), Some("UserResponseDto"));
    assert_eq!(
        endpoint(endpoints, "GET", "/api/users").response.as_deref(),
        Some("UserResponseDto[]")
    );
    assert_eq!(
        endpoint(endpoints, "PATCH", "/api/users/:id").request.as_deref(),
        Some("UpdateUserDto")
    );
    assert_eq!(endpoint(endpoints, "DELETE", "/api/users/:id").response, None);
    assert_eq!(
        endpoint(endpoints, "POST", "/api/auth/login").request.as_deref(),
        Some("LoginDto")
    );
    assert!(endpoints.iter().all(|e| e.framework == "nestjs"));
}

#[test]
fn fastapi_routers_take_router_and_include_prefixes_across_modules() {
    let facts = extract("backend-fastapi");
    assert_eq!(
        endpoint_lines(&facts),
        [
            "DELETE /api/v1/users/{user_id}",
            "GET /api/v1/items/",
            "GET /api/v1/users/",
            "GET /api/v1/users/{user_id}",
            "GET /healthz",
            "PATCH /api/v1/items/{item_id}",
            "PATCH /api/v1/users/{user_id}",
            "POST /api/v1/items/",
            "POST /api/v1/users/",
            "PUT /api/v1/items/{item_id}",
        ]
    );
    let endpoints = &facts.endpoints;
    assert!(endpoints.iter().all(|e| e.framework == "fastapi"));
    let list = endpoint(endpoints, "GET", "/api/v1/users/");
    assert_eq!(
        (list.handler.as_deref(), list.response.as_deref()),
        (Some("list_users"), Some("list[UserOut]"))
    );
    assert_eq!(list.file, "app/api/routes/users.py");
    assert_eq!(list.request, None);
}

#[test]
fn flask_blueprints_nest_and_register_prefixes_replace_their_own() {
    let facts = extract("backend-flask");
    assert_eq!(
        endpoint_lines(&facts),
        [
            "GET /api/v1/stats",
            "GET /auth/login",
            "GET /auth/logout",
            "GET /auth/register",
            "GET /hello",
            "GET /posts/",
            "GET /posts/<int:id>/update",
            "POST /api/tokens",
            "POST /auth/login",
            "POST /auth/register",
            "POST /posts/<int:id>/delete",
            "POST /posts/<int:id>/update",
        ]
    );
    assert!(
        facts.endpoints.iter().all(|e| e.framework == "flask"),
        "{:#?}",
        facts.endpoints
    );
    assert_eq!(
        endpoint(&facts.endpoints, "POST", "/api/tokens").file,
        "app/api/tokens.py"
    );
    assert_eq!(
        endpoint(&facts.endpoints, "POST", "/posts/<int:id>/delete")
            .handler
            .as_deref(),
        Some("delete")
    );
}

#[test]
fn axum_nests_and_merges_router_functions_from_other_modules() {
    let facts = extract("backend-axum");
    assert_eq!(
        endpoint_lines(&facts),
        [
            "DELETE /api/accounts/:account_id",
            "GET /",
            "GET /api/accounts",
            "GET /api/accounts/:account_id",
            "GET /api/health",
            "GET /api/transfers",
            "GET /api/transfers/:transfer_id",
            "POST /api/accounts",
            "POST /api/transfers",
        ]
    );
    let endpoints = &facts.endpoints;
    assert!(endpoints.iter().all(|e| e.framework == "axum"));
    let open = endpoint(endpoints, "POST", "/api/accounts");
    assert_eq!(open.handler.as_deref(), Some("accounts::open"));
    assert_eq!(
        (open.request.as_deref(), open.response.as_deref()),
        (Some("OpenAccount"), Some("Account"))
    );
    assert_eq!(
        endpoint(endpoints, "GET", "/api/accounts").response.as_deref(),
        Some("Vec<Account>")
    );
    assert_eq!(
        endpoint(endpoints, "GET", "/api/transfers/:transfer_id")
            .handler
            .as_deref(),
        Some("get_transfer")
    );
}

#[test]
fn actix_scopes_config_functions_and_attribute_handlers_join() {
    let facts = extract("backend-actix");
    assert_eq!(
        endpoint_lines(&facts),
        [
            "ANY /api/v1/orders/{id}",
            "GET /api/v1/orders",
            "GET /api/v1/users",
            "GET /api/v1/users/{id}",
            "GET /health",
            "GET /metrics",
            "POST /api/v1/orders",
            "POST /api/v1/users",
        ]
    );
    let endpoints = &facts.endpoints;
    assert!(endpoints.iter().all(|e| e.framework == "actix"));
    let create = endpoint(endpoints, "POST", "/api/v1/users");
    assert_eq!(
        (create.request.as_deref(), create.response.as_deref()),
        (Some("NewUser"), Some("User"))
    );
    assert_eq!(create.handler.as_deref(), Some("create_user"));
    assert_eq!(endpoint(endpoints, "GET", "/api/v1/orders").file, "src/orders.rs");
}
