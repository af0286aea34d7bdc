; framework: actix
; language: rust
; needles: actix | web:: | HttpServer | ServiceConfig
; inherits: rust/routers
; Actix Web: `#[get("/x")]` handlers, the app `App::new()` makes, `web::scope("/api")` and
; `web::resource("/x")`, the method guards of `web::get().to(h)`, and functions given a
; `&mut web::ServiceConfig`; what is called on a router (`.service(…)`, `.route(…)`,
; `.configure(…)`, `.wrap(…)`) is read by `rust/routers`.

; #[get("/users/{id}")] async fn get_user(…): a handler that is its own unit of routes
((attribute_item
  (attribute
    [(identifier) @route.method (scoped_identifier name: (identifier) @route.method)]
    arguments: (token_tree . (string_literal) @route.path))) @route.call
  .
  [(attribute_item) (line_comment) (block_comment)]*
  .
  (function_item
    name: (identifier) @route.handler @router.bind) @route.receiver @router.new @router.value
  (#match? @route.method "^(get|post|put|patch|delete|head|options|trace|connect)$"))

; App::new(): the application
((call_expression
  .
  function: (scoped_identifier) @_app) @router.new
  (#match? @_app "(^|::)App::new$")
  (#set! app "true"))

; web::scope("/api"), web::resource("/orders/{id}"): routers under a prefix
((call_expression
  .
  function: (scoped_identifier) @_scope
  arguments: (arguments . (_) @router.prefix)) @router.new
  (#match? @_scope "^(web::)?(scope|resource)$"))

; web::get().to(list), web::route().to(h) (any method)
((call_expression
  function: (field_expression
    value: (call_expression
      .
      function: [(identifier) @verb.name (scoped_identifier name: (identifier) @verb.name)])
    field: (field_identifier) @_to)
  arguments: (arguments . (_) @verb.handler))
  (#match? @_to "^to$")
  (#match? @verb.name "^(get|post|put|patch|delete|head|trace|route)$"))

; fn config(cfg: &mut web::ServiceConfig) { cfg.service(…) }: mounted where `.configure`d
((function_item
  name: (identifier) @router.function
  parameters: (parameters
    (parameter
      pattern: (identifier) @router.param
      type: (_) @_config))
  body: (block) @router.scope)
  (#match? @_config "ServiceConfig"))

; use actix_web::…: the framework of the guards the file's routers put
((use_declaration argument: (_) @router.uses)
  (#match? @router.uses "^actix_web"))
