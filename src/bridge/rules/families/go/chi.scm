; framework: chi
; language: go
; needles: go-chi/chi
; inherits: go/routes | go/use

; the file's routers (and the functions handed one) are chi's
((import_spec path: (interpreted_string_literal) @router.uses)
  (#match? @router.uses "go-chi/chi")
  (#set! own-units "true"))

; r.Route("/articles", func(r chi.Router) { … }): the closure's routes are under /articles;
; r.Group(func(r chi.Router) { … }): under the router's own prefix, with their own middleware
((call_expression
  function: (selector_expression
    operand: (_) @include.receiver
    field: (field_identifier) @_route)
  arguments: [(argument_list . (interpreted_string_literal) @include.path . (func_literal body: (block) @include.target) .)
              (argument_list . (func_literal body: (block) @include.target) .)]) @include.call
  (#any-of? @_route "Route" "Group")
  (#set! mounts "true"))

; r.With(auth).Get("/me", handler)
((call_expression
  function: (selector_expression
    operand: (call_expression
      function: (selector_expression
        operand: (_) @route.receiver
        field: (field_identifier) @_with)
      arguments: (argument_list (_) @route.guard))
    field: (field_identifier) @route.method)
  arguments: (argument_list
    .
    (interpreted_string_literal) @route.path
    .
    (_) @route.handler
    .)) @route.call
  (#eq? @_with "With")
  (#match? @route.method "^(Get|Post|Put|Patch|Delete|Head|Options)$")
  (#set! guard "called"))

; r.Mount("/v2", mux): the routes registered on mux are under /v2
((call_expression
  function: (selector_expression
    operand: (_) @include.receiver
    field: (field_identifier) @_mount)
  arguments: (argument_list
    .
    (interpreted_string_literal) @include.path
    .
    (identifier) @include.target
    .)) @include.call
  (#eq? @_mount "Mount"))
