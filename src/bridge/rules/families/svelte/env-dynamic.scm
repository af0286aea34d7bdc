; framework: sveltekit
; language: javascript
; needles: $env/dynamic/
; `import { env } from '$env/dynamic/private'` (or `/public`), then `env.SECRET`.

((member_expression
  object: (identifier) @_read
  property: (property_identifier) @env.name)
  (#eq? @_read "env")
  (#set! source "$env/dynamic"))
