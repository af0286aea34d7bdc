; framework: echo
; language: go
; needles: labstack/echo
; inherits: go/groups

; e.GET("/users/:id", handler, middleware…)
(call_expression
  function: (selector_expression
    operand: (_) @endpoint.receiver
    field: (field_identifier) @endpoint.method)
  arguments: (argument_list
    .
    (interpreted_string_literal) @endpoint.path
    .
    (_) @endpoint.handler
    (_)* @endpoint.guard)
  (#match? @endpoint.method "^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|Any)$")
  (#match? @endpoint.path "^\"(/|\"$)")
  (#set! trailing-slash "keep"))

; g.Use(middleware.JWT(secret))
(call_expression
  function: (selector_expression
    operand: (_) @guard.receiver
    field: (field_identifier) @_use)
  arguments: (argument_list (_) @guard.name)
  (#eq? @_use "Use")
  (#auth-name? @guard.name))
