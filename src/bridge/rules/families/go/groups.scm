; Shared by the Go routers whose groups read `g := router.Group("/prefix", middleware…)`
; (gin, echo, fiber).

; v1 := router.Group("/v1")
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

; admin := router.Group("/admin", RequireAdmin())
(short_var_declaration
  left: (expression_list . (identifier) @guard.receiver)
  right: (expression_list
    .
    (call_expression
      function: (selector_expression field: (field_identifier) @_group)
      arguments: (argument_list . (interpreted_string_literal) (_) @guard.name)))
  (#eq? @_group "Group")
  (#auth-name? @guard.name))

; authed := router.Group("/").Use(authMiddleware(maker))
(short_var_declaration
  left: (expression_list . (identifier) @group.var)
  right: (expression_list
    .
    (call_expression
      function: (selector_expression
        operand: (call_expression
          function: (selector_expression
            operand: (_) @group.parent
            field: (field_identifier) @_group)
          arguments: (argument_list . (interpreted_string_literal) @group.path))
        field: (field_identifier) @_use)))
  (#eq? @_group "Group")
  (#eq? @_use "Use"))

(short_var_declaration
  left: (expression_list . (identifier) @guard.receiver)
  right: (expression_list
    .
    (call_expression
      function: (selector_expression
        operand: (call_expression function: (selector_expression field: (field_identifier) @_group))
        field: (field_identifier) @_use)
      arguments: (argument_list (_) @guard.name)))
  (#eq? @_group "Group")
  (#eq? @_use "Use")
  (#auth-name? @guard.name))
