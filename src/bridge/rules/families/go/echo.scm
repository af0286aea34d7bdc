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

; echo's own auth middleware, named by its constructor (`middleware.JWTWithConfig(…)`,
; `KeyAuth`, `BasicAuth`): its `…WithConfig` form reads as configuration to the name check
(short_var_declaration
  left: (expression_list . (identifier) @guard.receiver)
  right: (expression_list
    .
    (call_expression
      function: (selector_expression field: (field_identifier) @_group)
      arguments: (argument_list
        .
        (interpreted_string_literal)
        (call_expression function: (selector_expression field: (field_identifier) @guard.name)))))
  (#eq? @_group "Group")
  (#match? @guard.name "^(JWT|KeyAuth|BasicAuth)WithConfig$"))

(call_expression
  function: (selector_expression
    operand: (_) @guard.receiver
    field: (field_identifier) @_use)
  arguments: (argument_list (call_expression function: (selector_expression field: (field_identifier) @guard.name)))
  (#eq? @_use "Use")
  (#match? @guard.name "^(JWT|KeyAuth|BasicAuth)WithConfig$"))
