; framework: vite
; language: javascript
; paths: .vue | .svelte
; needles: import.meta.env | process.env
; Environment reads inside single-file components' scripts (the code extractor reads them in
; `.ts`/`.js` files, not in `.vue`/`.svelte`): `import.meta.env.VITE_X`, `process.env.X`.

((member_expression
  object: (member_expression
    object: (meta_property) @_meta
    property: (property_identifier) @_env)
  property: (property_identifier) @env.name)
  (#eq? @_meta "import.meta")
  (#eq? @_env "env")
  ; Vite's built-ins are no variables a deployment sets.
  (#not-any-of? @env.name "BASE_URL" "MODE" "DEV" "PROD" "SSR")
  (#set! source "import.meta.env"))

((member_expression
  object: (member_expression
    object: (identifier) @_process
    property: (property_identifier) @_env)
  property: (property_identifier) @env.name)
  (#eq? @_process "process")
  (#eq? @_env "env")
  (#set! source "process.env"))
