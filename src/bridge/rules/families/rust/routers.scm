; Shared by the Rust routers whose routers are values built by chained calls (Axum's
; `Router`, Actix Web's `App`/`Scope`/`Resource`): what names a router, the routers other
; functions return, routes whose methods a method router lists, mounts, and the signatures
; of handlers (`Json<T>` bodies, extractor parameters). Captures are read by `route_units`
; into the mount graph.

; what a router is named by: `let app = …`, or the function whose tail it is
(let_declaration
  pattern: (identifier) @router.bind
  value: (_) @router.value)

(function_item
  name: (identifier) @router.bind
  body: (block (_) @router.value .))

; fn api() -> Router { let router = Router::new()…; router }: the function stands for it
(function_item
  name: (identifier) @router.function
  body: (block (identifier) @router.returns .) @router.scope)

; a router another function returns (`users::router()`, `api::routes(state)`) that calls are
; chained on, that is mounted, or that a router function ends with
((field_expression
  value: (call_expression
    function: [(identifier) (scoped_identifier)] @router.from) @router.new
  field: (field_identifier) @_then)
  (#any-of? @_then "route" "nest" "merge" "layer" "route_layer" "with_state" "fallback" "service" "configure" "wrap" "route_service" "nest_service")
  (#not-match? @router.from "(^|::)(get|post|put|patch|delete|head|options|trace|any|on|to|scope|resource|new|default)(_service)?$"))

((call_expression
  function: (field_expression field: (field_identifier) @_mount)
  arguments: (arguments
    (call_expression
      function: [(identifier) (scoped_identifier)] @router.from) @router.new .))
  (#any-of? @_mount "nest" "merge" "service" "nest_service")
  (#not-match? @router.from "(^|::)(get|post|put|patch|delete|head|options|trace|any|on|to|scope|resource|new|default)(_service)?$"))

((function_item
  return_type: (_) @_returns
  body: (block
    (call_expression
      function: [(identifier) (scoped_identifier)] @router.from) @router.new .))
  (#match? @_returns "Router|Scope|Resource")
  (#not-match? @router.from "(^|::)(get|post|put|patch|delete|head|options|trace|any|on|to|scope|resource|new|default)(_service)?$"))

; .route("/users", get(list).post(create)), Actix's .route("/x", web::get().to(h)) and a
; resource's .route(web::post().to(h)): one route per method router the argument holds
((call_expression
  function: (field_expression
    value: (_) @route.receiver
    field: (field_identifier) @_route)
  arguments: [(arguments . (_) @route.path . (_) @route.verbs .)
              (arguments . (_) @route.verbs .)]) @route.call
  (#eq? @_route "route"))

; .nest("/api", api()), .merge(other()), Actix's .service(scope), .configure(users::config)
((call_expression
  function: (field_expression
    value: (_) @include.receiver
    field: (field_identifier) @_mount)
  arguments: [(arguments . (_) @include.path . (_) @include.target .)
              (arguments . (_) @include.target .)]) @include.call
  (#any-of? @_mount "nest" "merge" "service" "configure")
  (#set! mounts "true"))

; a handler's signature: the `Json<T>` it takes and returns, the extractors it takes
(function_item
  name: (identifier) @handler.name
  parameters: (parameters) @handler.params
  return_type: (_)? @handler.returns)

(parameter
  type: [(type_identifier) (scoped_type_identifier)] @handler.extractor)

((generic_type
  type: [(type_identifier) (scoped_type_identifier)] @_json
  type_arguments: (type_arguments . (_) @handler.json .))
  (#match? @_json "(^|::)Json$"))
