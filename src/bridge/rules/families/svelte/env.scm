; framework: sveltekit
; language: javascript
; needles: $env/static
; SvelteKit's environment modules: `import { DATABASE_URL } from '$env/static/private'`,
; `$env/static/public` (`env-dynamic` reads `$env/dynamic`).

((import_statement
  (import_clause (named_imports (import_specifier name: (identifier) @env.name)))
  source: (string (string_fragment) @_from))
  (#eq? @_from "$env/static/private")
  (#set! source "$env/static/private"))

((import_statement
  (import_clause (named_imports (import_specifier name: (identifier) @env.name)))
  source: (string (string_fragment) @_from))
  (#eq? @_from "$env/static/public")
  (#set! source "$env/static/public"))
