; framework: axum
; language: rust
; needles: axum | Router
; inherits: rust/routers
; Axum: `Router::new().route("/x", get(h).post(h2)).nest("/api", api()).merge(other())`, the
; method routers of a route (`get(h)`, `.post(h)`, `any(h)`, `get_service(s)`), services at a
; path, and the auth layers a router puts on the routes added to it before (`.layer(…)`,
; `.route_layer(…)`).

; Router::new(), Router::default(), axum::Router::<State>::new()
((call_expression
  function: (scoped_identifier) @_new) @router.new
  (#match? @_new "(^|::)Router(::<.*>)?::(new|default)$"))

; get(list), routing::post(create), .delete(close) chained on another method router
((call_expression
  function: [(identifier) @verb.name
             (scoped_identifier name: (identifier) @verb.name)
             (field_expression field: (field_identifier) @verb.name)]
  arguments: (arguments . (_) @verb.handler))
  (#match? @verb.name "^(get|post|put|patch|delete|head|options|trace|any)(_service)?$"))

; .route_service("/favicon.ico", ServeDir::new("static")): any method
((call_expression
  function: (field_expression
    value: (_) @route.receiver
    field: (field_identifier) @_service)
  arguments: (arguments . (_) @route.path . (_) .)) @route.call
  (#eq? @_service "route_service")
  (#set! method "ANY"))

; .route_layer(middleware::from_fn(require_auth)), .layer(from_fn_with_state(state, auth)),
; .layer(from_extractor::<AuthUser>()), .layer(RequireAuthorizationLayer::bearer(…)),
; .layer(login_required!(Backend)): an auth layer guards the routes added before it
((call_expression
  function: (field_expression
    value: (_) @include.receiver
    field: (field_identifier) @_layer)
  arguments: (arguments
    .
    [(call_expression
       function: [(identifier) (scoped_identifier)] @_middleware
       arguments: (arguments
         [(identifier) @include.guard (scoped_identifier name: (identifier) @include.guard)] .))
     (call_expression
       function: (generic_function
         function: (_) @_middleware
         type_arguments: (type_arguments . [(type_identifier) @include.guard (scoped_type_identifier name: (type_identifier) @include.guard)])))
     (call_expression
       function: (scoped_identifier path: (_) @_layer_type) @include.guard)
     (macro_invocation
       macro: [(identifier) @include.guard (scoped_identifier name: (identifier) @include.guard)])]
    .)) @include.call
  (#any-of? @_layer "layer" "route_layer")
  (#match? @_layer_type "Layer$")
  (#match? @_middleware "(^|::)(from_fn|from_fn_with_state|from_extractor|from_extractor_with_state|map_request|map_request_with_state)$")
  (#set! wraps "before"))
