; Shared by the Go routers whose route calls read `router.METHOD("/path", middleware…, handler)`
; (gin, fiber, chi). Captures are read by `route_units` into the mount graph; a guard is named
; by what it calls (`#set! guard "called"`).

; router.GET("/users/:id", auth, handler); `Any` is a route of every method
((call_expression
  function: (selector_expression
    operand: [(identifier) (selector_expression)] @route.receiver
    field: [(field_identifier) @route.method (field_identifier) @_any])
  arguments: (argument_list
    .
    (interpreted_string_literal) @route.path
    (_)* @route.guard
    .
    (_) @route.handler
    .)) @route.call
  (#match? @route.method "^(?i:get|post|put|patch|delete|head|options)$")
  (#match? @_any "^(?i:any|all)$")
  (#match? @route.path "^\"(/|\"$)")
  (#set! @_any method "ALL")
  (#set! guard "called"))
