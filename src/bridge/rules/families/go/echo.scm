; framework: echo
; language: go
; needles: labstack/echo

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
  (#match? @endpoint.path "^\"/"))

; g := e.Group("/admin", middleware…)
(short_var_declaration
  left: (expression_list . (identifier) @group.var)
  right: (expression_list
    .
    (call_expression
      function: (selector_expression
        operand: (_) @group.parent
        field: (field_identifier) @_group)
      arguments: (argument_list . (interpreted_string_literal) @group.path)))
  (#eq? @_group "Group"))

(short_var_declaration
  left: (expression_list . (identifier) @guard.receiver)
  right: (expression_list
    .
    (call_expression
      function: (selector_expression field: (field_identifier) @_group)
      arguments: (argument_list . (interpreted_string_literal) (_) @guard.name)))
  (#eq? @_group "Group")
  (#auth-name? @guard.name))

; g.Use(middleware.JWT(secret))
(call_expression
  function: (selector_expression
    operand: (_) @guard.receiver
    field: (field_identifier) @_use)
  arguments: (argument_list (_) @guard.name)
  (#eq? @_use "Use")
  (#auth-name? @guard.name))
