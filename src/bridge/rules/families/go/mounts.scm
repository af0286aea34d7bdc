; framework: go
; language: go
; needles: .Group( | RouterGroup | gin.Engine | echo.Group | echo.Echo | fiber.Router | fiber.App | chi.Router
; inherits: go/groups
; Go routers: a function given a router registers routes where it is called (the groups at
; the call give the prefix and guards), and middleware kept in a variable is named by what it
; calls.

; func UsersRegister(router *gin.RouterGroup) { router.POST("/", …) }: routes placed where the
; function is called
; (a function or a method: whatever declares a name, parameters and a body)
(_
  name: (_) @mount.function
  parameters: (parameter_list
    (parameter_declaration
      name: (identifier) @mount.param
      type: [(pointer_type (qualified_type) @_type) (qualified_type) @_type]))
  body: (block) @mount.scope
  (#match? @_type "^(gin\\.(RouterGroup|Engine|IRouter|IRoutes)|echo\\.(Group|Echo)|fiber\\.(Router|App)|chi\\.Router)$"))

; users.UsersRegister(v1.Group("/users")), h.Register(api)
(call_expression
  function: [(identifier) @mount.call (selector_expression field: (field_identifier) @mount.call)]
  arguments: (argument_list
    (call_expression
      function: (selector_expression
        operand: (_) @mount.parent
        field: (field_identifier) @_group)
      arguments: (argument_list . (interpreted_string_literal) @mount.path)))
  (#eq? @_group "Group"))

(call_expression
  function: [(identifier) @mount.call (selector_expression field: (field_identifier) @mount.call)]
  arguments: (argument_list (identifier) @mount.var)
  (#match? @mount.call "^[A-Z]|Register|Routes|Mount"))

; jwtMiddleware := middleware.JWT(secret): the guard is named by what it calls
((short_var_declaration
  left: (expression_list . (identifier) @alias.var)
  right: (expression_list . (call_expression function: (_) @alias.value)))
  (#auth-name? @alias.var))
