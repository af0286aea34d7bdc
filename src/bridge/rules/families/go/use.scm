; Shared by the Go routers where `router.Use(middleware)` guards every route of that router
; (gin, fiber).

; router.Use(AuthRequired())
(call_expression
  function: (selector_expression
    operand: (_) @guard.receiver
    field: (field_identifier) @_use)
  arguments: (argument_list (_) @guard.name)
  (#eq? @_use "Use")
  (#auth-name? @guard.name))
