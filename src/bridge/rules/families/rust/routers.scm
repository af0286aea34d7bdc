; Shared by the Rust routers that are values built by chained calls (Axum's `Router`, Actix Web's
; `App`/`Scope`/`Resource`, whose constructors `axum/routes` and `actix/routes` read): what
; names a router, the calls on one (routes whose methods a method router lists, mounts,
; layers, calls handing it on), and the signatures of handlers (`Json<T>` bodies, extractor
; parameters). Captures are read by `route_units` into the mount graph.
;
; A chain of calls nests each call inside the next: every pattern rooted at a call (and every
; branch of an alternation it reaches before the call's arguments) waits through the chain
; before it, and a query keeps only so many waiting matches. So the calls on a receiver are
; one pattern whose `#set! methods` says what each method name is (a name it does not list
; hands the router on), patterns that want a plain call's function anchor it (`.`), which
; ends them at once on a chained call, and arguments are read without a closing anchor (a
; match that must see an argument is the last waits through it).

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

; receiver.method(…): `.route("/users", get(list).post(create))` (one route per method router
; the argument holds: Axum's `get(h)`, `.post(h)`, Actix's `web::get().to(h)`, a resource's
; `.route(web::post().to(h))`), `.route_service("/x", svc)` and a resource's `.to(h)` (any
; method), `.nest("/api", api())`, `.merge(other())`, `.service(scope)`,
; `.configure(users::config)` (mounts), Axum's `.layer(…)`/`.route_layer(…)` (guarding what
; was added before), Actix's `.wrap(…)` (guarding every route of the app or scope), a method
; router chained on another (`get(a).post(b)`), and calls handing the router on
((call_expression
  function: (field_expression
    value: (_) @route.receiver
    field: (field_identifier) @route.name)
  arguments: [(arguments . (_) @route.path @include.path . (_) @route.verbs @include.target)
              (arguments . (_) @route.verbs @include.target @route.handler)
              (arguments)]) @route.call
  (#match? @route.name "^(route|route_service|to|nest|merge|service|configure|layer|route_layer|wrap|get|post|put|patch|delete|head|options|trace|any|get_service|post_service|put_service|patch_service|delete_service|any_service|with_state|fallback|fallback_service|method_not_allowed_fallback|into_make_service|into_make_service_with_connect_info|boxed|app_data|data|wrap_fn|default_service|guard)$")
  (#set! methods "route=route route_service=any to=any nest=mount merge=mount service=mount configure=mount layer=layer route_layer=layer wrap=wrap get=verb post=verb put=verb patch=verb delete=verb head=verb options=verb trace=verb any=verb get_service=verb post_service=verb put_service=verb patch_service=verb delete_service=verb any_service=verb"))

; a method router that is a plain call: `get(list)`, `routing::post(create)`
((call_expression
  .
  function: [(identifier) @verb.name (scoped_identifier name: (identifier) @verb.name)]
  arguments: (arguments . (_) @verb.handler))
  (#match? @verb.name "^(get|post|put|patch|delete|head|options|trace|any)(_service)?$"))

; the guard a layer's or wrap's argument names: `from_fn(require_auth)`,
; `from_fn_with_state(state, auth)`, `from_extractor::<AuthUser>()`,
; `RequireAuthorizationLayer::bearer(…)`, `HttpAuthentication::bearer(validator)`,
; `login_required!(Backend)`, a bare name (`.wrap(auth)`)
((call_expression
  .
  function: [(identifier) (scoped_identifier)] @_middleware
  arguments: (arguments [(identifier) @layer.guard (scoped_identifier name: (identifier) @layer.guard)] .))
  (#match? @_middleware "(^|::)(from_fn|from_fn_with_state|map_request|map_request_with_state)$"))

((call_expression
  .
  function: (generic_function
    function: (_) @_middleware
    type_arguments: (type_arguments . [(type_identifier) @layer.guard (scoped_type_identifier name: (type_identifier) @layer.guard)])))
  (#match? @_middleware "(^|::)(from_extractor|from_extractor_with_state)$"))

((call_expression
  .
  function: (scoped_identifier path: (_) @_type) @layer.guard)
  (#match? @_type "(Layer|HttpAuthentication)$"))

(macro_invocation
  macro: [(identifier) @layer.guard (scoped_identifier name: (identifier) @layer.guard)])

(arguments . (identifier) @layer.guard)

; a router another function returns (`users::router()`, `api::routes(state)`) that calls are
; chained on, or that a router function ends with
((field_expression
  value: (call_expression
    .
    function: [(identifier) (scoped_identifier)] @router.from) @router.new
  field: (field_identifier) @_then)
  (#match? @_then "^(route|nest|merge|layer|route_layer|with_state|fallback|service|configure|wrap|route_service|nest_service)$")
  (#not-match? @router.from "(^|::)(get|post|put|patch|delete|head|options|trace|any|on|to|scope|resource|new|default|Ok|Some)(_service)?$"))

((function_item
  return_type: (_) @_returns
  body: (block
    (call_expression
      .
      function: [(identifier) (scoped_identifier)] @router.from) @router.new .))
  (#match? @_returns "Router|Scope|Resource")
  (#not-match? @router.from "(^|::)(get|post|put|patch|delete|head|options|trace|any|on|to|scope|resource|new|default|Ok|Some)(_service)?$"))

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

; impl<S> FromRequestParts<S> for AuthUser { … }: an extractor, a guard on every handler that
; takes it when it is named for auth or rejects with an auth error (`type Rejection =
; AuthRedirect`, `StatusCode::UNAUTHORIZED`); one that never rejects (`MaybeUser`) is none
((impl_item
  trait: (_) @_trait
  type: [(type_identifier) @extractor.name (generic_type type: (type_identifier) @extractor.name)]
  body: (_) @extractor.scope)
  (#match? @_trait "(^|::)FromRequest(Parts)?(<|$)")
  (#not-match? @extractor.name "^(Maybe|Optional)"))

((type_item name: (type_identifier) @_rejection type: (_) @extractor.rejection)
  (#match? @_rejection "^Rejection$"))

((identifier) @extractor.rejects
  (#match? @extractor.rejects "^(UNAUTHORIZED|FORBIDDEN)$"))

; an auth-named function: where a middleware layered elsewhere may be defined (`require_auth`)
((source_file (function_item name: (identifier) @guard.candidate))
  (#auth-name? @guard.candidate))
