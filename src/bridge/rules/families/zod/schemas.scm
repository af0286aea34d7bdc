; framework: zod
; language: javascript
; needles: zod
; zod schemas: `const createUser = z.object({ … })` with each field's type and whether it is
; optional, and schemas made from others (`base.extend({ … })`, `.merge(other)`,
; `.partial()`, `.required()`, `.pick({ a: true })`, `.omit({ a: true })`), which take the
; fields of their base wherever it is written (`rules/shapes.rs`).

; const createUser = z.object({ … }).strict()
((variable_declarator
  name: (identifier) @shape.name
  value: (call_expression) @shape.scope)
  (#match? @shape.scope "^(z|zod)\\s*\\.\\s*(object|strictObject|looseObject)\\s*\\(")
  (#set! kind "zod")
  (#set! validation "true"))

; const updateUser = createUser.partial(), base.extend({ … }), a.merge(b), base.pick({ a: true })
((variable_declarator
  name: (identifier) @shape.name
  value: (call_expression
    function: (member_expression
      object: (identifier) @shape.base
      property: (property_identifier) @base.mode)
    arguments: (arguments . [(object) @base.keys (identifier) @shape.base]?)) @shape.scope)
  (#not-any-of? @shape.base "z" "zod")
  (#any-of? @base.mode "extend" "merge" "partial" "deepPartial" "required" "pick" "omit" "strict" "passthrough" "strip")
  (#set! kind "inherit")
  (#set! validation "true"))

; name: z.string().email(), role: z.enum(['admin', 'member']).default('member') (optional)
((call_expression
  function: (member_expression property: (property_identifier) @_object)
  arguments: (arguments . (object (pair key: (_) @field.name value: (_) @field.type) @field.scope)))
  (#any-of? @_object "object" "strictObject" "looseObject" "extend")
  (#match? @field.type "\\.(optional|nullish|default|catch)\\([^()]*\\)(\\s*\\.\\s*[A-Za-z]+\\([^()]*\\))*$")
  (#set! type "call")
  (#set! optional "true"))

((call_expression
  function: (member_expression property: (property_identifier) @_object)
  arguments: (arguments . (object (pair key: (_) @field.name value: (_) @field.type) @field.scope)))
  (#any-of? @_object "object" "strictObject" "looseObject" "extend")
  (#not-match? @field.type "\\.(optional|nullish|default|catch)\\([^()]*\\)(\\s*\\.\\s*[A-Za-z]+\\([^()]*\\))*$")
  (#set! type "call"))
