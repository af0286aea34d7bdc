; Shared by the Go routers where `router.Use(middleware…)` guards the routes and groups
; registered on that router after it (gin, echo, fiber, chi).

; router.Use(AuthRequired())
((call_expression
  function: (selector_expression
    operand: (_) @include.receiver
    field: (field_identifier) @_use)
  arguments: (argument_list (_)* @include.guard . (_) @include.target .)) @include.call
  (#eq? @_use "Use")
  (#set! guard "called"))
