; framework: chi
; language: go
; needles: go-chi/chi
; inherits: go/routes

; r.Route("/articles", func(r chi.Router) { … })
(call_expression
  function: (selector_expression field: (field_identifier) @_route)
  arguments: (argument_list
    .
    (interpreted_string_literal) @prefix.path
    .
    (func_literal) @prefix.scope)
  (#eq? @_route "Route"))

; r.Use(jwtauth.Authenticator) guards the routes the same function (or closure, as in
; r.Group(func(r chi.Router) { r.Use(…); … })) registers after it
; (a function, a method or a closure: whatever has a body)
(_
  body: (block
    (statement_list
      (expression_statement
        (call_expression
          function: (selector_expression field: (field_identifier) @_use)
          arguments: (argument_list (_) @guard.name)))))
  (#eq? @_use "Use")
  (#auth-name? @guard.name)) @guard.scope

; r.With(auth).Get("/me", handler)
(call_expression
  function: (selector_expression
    operand: (call_expression
      function: (selector_expression
        operand: (_) @endpoint.receiver
        field: (field_identifier) @_with)
      arguments: (argument_list (_) @endpoint.guard))
    field: (field_identifier) @endpoint.method)
  arguments: (argument_list
    .
    (interpreted_string_literal) @endpoint.path
    .
    (_) @endpoint.handler
    .)
  (#eq? @_with "With")
  (#match? @endpoint.method "^(Get|Post|Put|Patch|Delete|Head|Options)$"))

; r.Mount("/v2", mux): the routes registered on mux are under /v2
(call_expression
  function: (selector_expression
    operand: (_) @group.parent
    field: (field_identifier) @_mount)
  arguments: (argument_list
    .
    (interpreted_string_literal) @group.path
    .
    (identifier) @group.var
    .)
  (#eq? @_mount "Mount"))
