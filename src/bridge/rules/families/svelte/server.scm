; framework: sveltekit
; language: javascript
; paths: +server.
; needles: export
; A `+server.ts`/`+server.js` route's exported handlers (`GET`, `POST`, …, `fallback`): endpoints
; at the path its folder makes (`#set! path "file"`, see `file_routes`).

((export_statement
  declaration: (function_declaration name: (identifier) @endpoint.method))
  (#match? @endpoint.method "^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|fallback)$")
  (#set! path "file"))

((export_statement
  declaration: (lexical_declaration
    (variable_declarator name: (identifier) @endpoint.method)))
  (#match? @endpoint.method "^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|fallback)$")
  (#set! path "file"))
