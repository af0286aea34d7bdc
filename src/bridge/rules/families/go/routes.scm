; Shared by the Go routers whose route calls read `router.METHOD("/path", middleware…, handler)`
; (gin, fiber, chi).

; router.GET("/users/:id", auth, handler)
(call_expression
  function: (selector_expression
    operand: [(identifier) (selector_expression)] @endpoint.receiver
    field: (field_identifier) @endpoint.method)
  arguments: (argument_list
    .
    (interpreted_string_literal) @endpoint.path
    (_)* @endpoint.guard
    .
    (_) @endpoint.handler
    .)
  (#match? @endpoint.method "^(?i:get|post|put|patch|delete|head|options|any|all)$")
  (#match? @endpoint.path "^\"(/|\"$)")
  (#set! trailing-slash "keep"))
