; framework: go
; language: go
; needles: .Group( | RouterGroup | gin.Engine | echo.Group | echo.Echo | fiber.Router | fiber.App | chi.Router
; inherits: go/groups
; Go routers: a function given a router registers routes on it, mounted where it is called
; (the groups at the call give the prefix and guards), and middleware kept in a variable is
; named by what it calls. Captures are read by `route_units` into the mount graph.

; func UsersRegister(router *gin.RouterGroup) { router.POST("/", …) }
; (a function or a method: whatever declares a name, parameters and a body)
(_
  name: (_) @router.function
  parameters: (parameter_list
    (parameter_declaration
      name: (identifier) @router.param
      type: [(pointer_type (qualified_type) @_type) (qualified_type) @_type]))
  body: (block) @router.scope
  (#match? @_type "^(gin\\.(RouterGroup|Engine|IRouter|IRoutes)|echo\\.(Group|Echo)|fiber\\.(Router|App)|chi\\.Router)$"))

; func(r chi.Router) { … }: a closure handed a router, named by its place
((func_literal
  parameters: (parameter_list
    (parameter_declaration
      name: (identifier) @router.param
      type: [(pointer_type (qualified_type) @_type) (qualified_type) @_type]))
  body: (block) @router.scope)
  (#match? @_type "^(gin\\.(RouterGroup|Engine|IRouter|IRoutes)|echo\\.(Group|Echo)|fiber\\.(Router|App)|chi\\.Router)$")
  (#set! function "closure"))

; users.UsersRegister(v1.Group("/users")): the function's routes under the group
((call_expression
  function: [(identifier) @include.target (selector_expression field: (field_identifier) @include.target)]
  arguments: (argument_list
    (call_expression
      function: (selector_expression
        operand: (_) @include.receiver
        field: (field_identifier) @_group)
      arguments: (argument_list . (interpreted_string_literal) @include.path)))) @include.call
  (#eq? @_group "Group"))

; h.Register(api)
((call_expression
  function: [(identifier) @include.target (selector_expression field: (field_identifier) @include.target)]
  arguments: (argument_list (identifier) @include.receiver)) @include.call
  (#match? @include.target "^[A-Z]|Register|Routes|Mount")
  (#set! pass "true"))

; jwtMiddleware := middleware.JWT(secret): the guard is named by what it calls
((short_var_declaration
  left: (expression_list . (identifier) @alias.var)
  right: (expression_list . (call_expression function: (_) @alias.value)))
  (#auth-name? @alias.var))
