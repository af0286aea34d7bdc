; framework: remix
; language: javascript
; paths: app/routes/
; needles: export
; inherits: next/pages | next/handler-body
; Remix / React Router flat routes (`app/routes/concerts.$city.tsx`): the default export is the
; page (see next/pages); the `action` is a POST endpoint at its path, the `loader` a GET one
; when the module has no page (a resource route; `file_routes`), with the checks and body
; parses inside them (see next/handler-body).

((export_statement
  declaration: [(function_declaration name: (identifier) @endpoint.action) @endpoint.body
                (lexical_declaration
                  (variable_declarator name: (identifier) @endpoint.action value: (_) @endpoint.body))])
  (#eq? @endpoint.action "loader")
  (#set! method "GET")
  (#set! path "file"))

((export_statement
  declaration: [(function_declaration name: (identifier) @endpoint.action) @endpoint.body
                (lexical_declaration
                  (variable_declarator name: (identifier) @endpoint.action value: (_) @endpoint.body))])
  (#eq? @endpoint.action "action")
  (#set! method "POST")
  (#set! path "file"))
