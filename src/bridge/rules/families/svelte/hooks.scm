; framework: sveltekit
; language: javascript
; paths: hooks.server.
; needles: locals.user | locals.session | session | cookies | jwt | auth | Auth | token
; `hooks.server.ts`'s `handle`, run before every request, where it reads the user or session:
; a guard the code defines.

((export_statement
  declaration: [(function_declaration name: (identifier) @guard.name)
                (lexical_declaration (variable_declarator name: (identifier) @guard.name))])
  (#eq? @guard.name "handle")
  (#set! kind "hook"))
