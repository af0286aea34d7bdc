; framework: nextjs
; language: javascript
; paths: app/ | pages/
; needles: export
; inherits: next/pages | next/handler-body
; Next.js file routes: `page` files and `pages/` files are pages (see next/pages); a `route`
; file's exported `GET`, `POST`… and a `pages/api` file's default export are endpoints at the
; path the file's place makes (`#set! path "file"`, see `file_routes`), with the checks and
; body parses inside them (see next/handler-body).

((export_statement
  declaration: (function_declaration name: (identifier) @endpoint.method) @endpoint.body)
  (#match? @endpoint.method "^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$")
  (#set! path "file"))

((export_statement
  declaration: (lexical_declaration
    (variable_declarator name: (identifier) @endpoint.method value: (_) @endpoint.body)))
  (#match? @endpoint.method "^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$")
  (#set! path "file"))

; export { handler as GET, handler as POST }
((export_statement
  (export_clause (export_specifier name: (identifier) @endpoint.handler alias: (identifier) @endpoint.method)))
  (#match? @endpoint.method "^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$")
  (#set! path "file"))

((export_statement
  (export_clause (export_specifier name: (identifier) @endpoint.method !alias)))
  (#match? @endpoint.method "^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$")
  (#set! path "file"))

; pages/api: export default function handler(req, res) {…}
((export_statement "default" (_) @endpoint.body @endpoint.action)
  (#set! method "ALL")
  (#set! path "file"))
