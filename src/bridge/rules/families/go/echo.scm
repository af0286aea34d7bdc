; framework: echo
; language: go
; needles: labstack/echo
; inherits: go/groups | go/use

; the file's routers (and the functions handed one) are echo's
((import_spec path: (interpreted_string_literal) @router.uses)
  (#match? @router.uses "labstack/echo")
  (#set! own-units "true"))

; e.GET("/users/:id", handler, middleware…); `Any` is a route of every method
((call_expression
  function: (selector_expression
    operand: (_) @route.receiver
    field: [(field_identifier) @route.method (field_identifier) @_any])
  arguments: (argument_list
    .
    (interpreted_string_literal) @route.path
    .
    (_) @route.handler
    (_)* @route.guard)) @route.call
  (#match? @route.method "^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$")
  (#eq? @_any "Any")
  (#match? @route.path "^\"(/|\"$)")
  (#set! @_any method "ALL")
  (#set! guard "called"))

; echo's own auth middleware, named by its constructor (`middleware.JWTWithConfig(…)`,
; `KeyAuth`, `BasicAuth`): its `…WithConfig` form reads as configuration to the name check;
; it guards every route of the group it makes or is used on
((short_var_declaration
  left: (expression_list . (identifier) @router.receiver)
  right: (expression_list
    .
    (call_expression
      function: (selector_expression field: (field_identifier) @_group)
      arguments: (argument_list
        .
        (interpreted_string_literal)
        (call_expression function: (selector_expression field: (field_identifier) @router.guard))))))
  (#eq? @_group "Group")
  (#match? @router.guard "^(JWT|KeyAuth|BasicAuth)WithConfig$")
  (#set! guard "written")
  (#set! guard-kind "middleware"))

((call_expression
  function: (selector_expression
    operand: (_) @router.receiver
    field: (field_identifier) @_use)
  arguments: (argument_list (call_expression function: (selector_expression field: (field_identifier) @router.guard))))
  (#eq? @_use "Use")
  (#match? @router.guard "^(JWT|KeyAuth|BasicAuth)WithConfig$")
  (#set! guard "written")
  (#set! guard-kind "middleware"))
