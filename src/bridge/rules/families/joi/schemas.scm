; framework: joi
; language: javascript
; needles: joi | Joi | celebrate
; Joi schemas: `const createUser = { body: Joi.object().keys({ … }) }` (what Express's
; `validate(createUser)` checks a request against: its `body` is the request shape) and
; `const user = Joi.object({ … })`, each field with its type, required with `.required()`.
; A schema that checks only the query, the path or the headers is a validation, no shape.

; const createUser = { body: Joi.object().keys({ … }) }
((variable_declarator
  name: (identifier) @shape.name
  value: (object
    (pair
      key: (property_identifier) @_part
      value: (call_expression) @shape.scope)))
  (#eq? @_part "body")
  (#match? @shape.scope "^Joi\\s*\\.\\s*object\\s*\\(")
  (#set! kind "joi")
  (#set! validation "true"))

; const user = Joi.object({ … })
((variable_declarator
  name: (identifier) @shape.name
  value: (call_expression) @shape.scope)
  (#match? @shape.scope "^Joi\\s*\\.\\s*object\\s*\\(")
  (#set! kind "joi")
  (#set! validation "true"))

; const listUsers = { query: Joi.object().keys({ … }) }: a validation, no request shape
((variable_declarator
  name: (identifier) @shape.name
  value: (object
    (pair
      key: (property_identifier) @_part
      value: (call_expression) @_schema)) @shape.scope)
  (#any-of? @_part "query" "params" "headers")
  (#match? @_schema "^Joi\\s*\\.\\s*object\\s*\\(")
  (#not-match? @shape.scope "\\bbody\\s*:")
  (#set! kind "validation")
  (#set! validation "true"))

; name: Joi.string().required()
((call_expression
  function: (member_expression property: (property_identifier) @_keys)
  arguments: (arguments . (object (pair key: (_) @field.name value: (_) @field.rule @field.type) @field.scope)))
  (#any-of? @_keys "object" "keys" "append")
  (#set! type "call")
  (#set! required-by "rules"))
