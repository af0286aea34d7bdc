; framework: node
; language: javascript
; needles: process.env | import.meta.env
; Environment variables a script reads (JavaScript rules also read TypeScript and TSX, and
; the scripts of Vue and Svelte components).

; process.env.DATABASE_URL
((member_expression
  object: (_) @env.source
  property: (property_identifier) @env.name)
  (#eq? @env.source "process.env")
  (#match? @env.name "^[A-Za-z_][A-Za-z0-9_]*$"))

; import.meta.env.VITE_API_URL (Vite's built-ins are no variable a deployment sets)
((member_expression
  object: (_) @env.source
  property: (property_identifier) @env.name)
  (#eq? @env.source "import.meta.env")
  (#match? @env.name "^[A-Za-z_][A-Za-z0-9_]*$")
  (#not-any-of? @env.name "BASE_URL" "MODE" "DEV" "PROD" "SSR"))

; process.env['DATABASE_URL']
((subscript_expression
  object: (_) @env.source
  index: [(string) (template_string)] @env.name)
  (#any-of? @env.source "process.env" "import.meta.env")
  (#match? @env.name "^.[A-Za-z_][A-Za-z0-9_]*.$"))

; const { PORT, DB_URL: url, LOG = "info" } = process.env
((variable_declarator
  name: (object_pattern
    [(shorthand_property_identifier_pattern) @env.name
     (pair_pattern key: (_) @env.name)
     (object_assignment_pattern left: (_) @env.name)])
  value: (_) @env.source)
  (#any-of? @env.source "process.env" "import.meta.env"))
