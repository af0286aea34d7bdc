; framework: axum
; language: rust
; needles: axum | Router
; inherits: rust/routers
; Axum: the routers `Router::new()` makes; what is called on them (routes and their method
; routers, `nest`, `merge`, auth layers) is read by `rust/routers`.

; Router::new(), Router::default(), axum::Router::<State>::new()
((call_expression
  .
  function: (scoped_identifier) @_new) @router.new
  (#match? @_new "(^|::)Router(::<.*>)?::(new|default)$"))

; use axum::…: the framework of the guards the file's routers put
((use_declaration argument: (_) @router.uses)
  (#match? @router.uses "^axum"))
