; Shared by the Go routers whose groups read `g := router.Group("/prefix", middleware…)`
; (gin, echo, fiber): a router the variable names, mounted on its parent at the prefix with
; the middleware as guards.

; v1 := router.Group("/v1"), admin := router.Group("/admin", RequireAdmin()) (`v := v.Group(…)`,
; a group of itself, is none)
((short_var_declaration
  left: (expression_list . (identifier) @router.bind @include.target)
  right: (expression_list
    .
    (call_expression
      function: (selector_expression
        operand: (_) @include.receiver
        field: (field_identifier) @_group)
      arguments: (argument_list . (interpreted_string_literal) @include.path (_)* @include.guard)) @router.new @router.value @include.call))
  (#eq? @_group "Group")
  (#not-eq? @include.target @include.receiver)
  (#set! guard "called"))

; authed := router.Group("/").Use(authMiddleware(maker))
((short_var_declaration
  left: (expression_list . (identifier) @router.bind @include.target)
  right: (expression_list
    .
    (call_expression
      function: (selector_expression
        operand: (call_expression
          function: (selector_expression
            operand: (_) @include.receiver
            field: (field_identifier) @_group)
          arguments: (argument_list . (interpreted_string_literal) @include.path))
        field: (field_identifier) @_use)
      arguments: (argument_list (_) @include.guard)) @router.new @router.value @include.call))
  (#eq? @_group "Group")
  (#eq? @_use "Use")
  (#set! guard "called"))
