; framework: express
; language: javascript
; needles: next | equire | nsure | ssert | heck | erify | rotect | uard | must
; auth middleware the file defines (an auth-named function taking `next`, or returning one):
; where a guard another file uses is defined
((function_declaration
  name: (identifier) @guard.candidate
  parameters: (formal_parameters (_) @_next))
  (#match? @_next "^next\\b")
  (#auth-name? @guard.candidate))

((variable_declarator
  name: (identifier) @guard.candidate
  value: [(arrow_function parameters: (formal_parameters (_) @_next))
          (function_expression parameters: (formal_parameters (_) @_next))
          (arrow_function body: [(arrow_function parameters: (formal_parameters (_) @_next))
                                 (function_expression parameters: (formal_parameters (_) @_next))])])
  (#match? @_next "^next\\b")
  (#auth-name? @guard.candidate))

; an auth check the file defines (`requireAdmin`, `isAuthenticated`), named so
((function_declaration name: (identifier) @guard.candidate)
  (#check-name? @guard.candidate)
  (#set! kind "check"))

((variable_declarator
  name: (identifier) @guard.candidate
  value: [(arrow_function) (function_expression)])
  (#check-name? @guard.candidate)
  (#set! kind "check"))

