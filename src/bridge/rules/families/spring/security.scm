; framework: spring-security
; language: java
; needles: PreAuthorize | Secured | RolesAllowed | OncePerRequestFilter | GenericFilterBean
; Method security: `@PreAuthorize("hasRole('ADMIN')")`, `@Secured("ROLE_ADMIN")`,
; `@RolesAllowed("ADMIN")` on a method guard its routes, on a class every route of the class.
; Servlet filters (`extends OncePerRequestFilter`) are guards the code defines.

; (a method's or a class's modifiers)
((_
  (modifiers
    (annotation
      name: (identifier) @_guard
      arguments: (annotation_argument_list
        [(string_literal) @guard.name
         (element_value_array_initializer (string_literal) @guard.name)
         (element_value_pair
           key: (identifier) @_key
           value: [(string_literal) @guard.name
                   (element_value_array_initializer (string_literal) @guard.name)])])))) @guard.scope
  (#any-of? @_guard "PreAuthorize" "Secured" "RolesAllowed")
  (#eq? @_key "value")
  (#set! kind "annotation"))

; class JwtAuthenticationFilter extends OncePerRequestFilter
(class_declaration
  name: (identifier) @guard.name
  superclass: (superclass [(type_identifier) (scoped_type_identifier)] @_base)
  (#match? @_base "(^|\\.)(OncePerRequestFilter|GenericFilterBean)$")
  (#set! kind "filter"))
