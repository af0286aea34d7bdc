; framework: typebox
; language: javascript
; needles: typebox | properties
; The schemas Fastify routes validate bodies with: TypeBox's
; `const CreateTask = Type.Object({ name: Type.String(), due: Type.Optional(Type.String()) })`
; and plain JSON schemas, `{ type: 'object', required: ['name'], properties: { … } }`.

((variable_declarator
  name: (identifier) @shape.name
  value: (call_expression
    function: (member_expression
      object: (identifier) @_type
      property: (property_identifier) @_object)) @shape.scope)
  (#eq? @_type "Type")
  (#eq? @_object "Object")
  (#set! kind "typebox")
  (#set! validation "true"))

; name: Type.String(), floor: Type.Optional(Type.Integer())
((call_expression
  function: (member_expression object: (identifier) @_type property: (property_identifier) @_object)
  arguments: (arguments . (object (pair key: (_) @field.name value: (_) @field.type) @field.scope)))
  (#eq? @_type "Type")
  (#eq? @_object "Object")
  (#not-match? @field.type "^Type\\s*\\.\\s*Optional\\s*\\(")
  (#set! type "call-lower"))

((call_expression
  function: (member_expression object: (identifier) @_type property: (property_identifier) @_object)
  arguments: (arguments
    . (object
      (pair
        key: (_) @field.name
        value: (call_expression
          function: (member_expression property: (property_identifier) @_optional)
          arguments: (arguments . (_) @field.type))) @field.scope)))
  (#eq? @_type "Type")
  (#eq? @_object "Object")
  (#eq? @_optional "Optional")
  (#set! type "call-lower")
  (#set! optional "true"))

; const createTask = { type: 'object', required: ['name'], properties: { name: { type: 'string' } } }
((variable_declarator
  name: (identifier) @shape.name
  value: (object
    (pair key: (property_identifier) @_type value: (string (string_fragment) @_object))
    (pair key: (property_identifier) @_properties value: (object))) @shape.scope)
  (#eq? @_type "type")
  (#eq? @_object "object")
  (#eq? @_properties "properties")
  (#set! kind "json-schema")
  (#set! framework "json-schema")
  (#set! validation "true"))

((pair
  key: (property_identifier) @_required
  value: (array) @shape.required)
  (#eq? @_required "required"))

((pair
  key: (property_identifier) @_properties
  value: (object (pair key: (_) @field.name) @field.scope))
  (#eq? @_properties "properties")
  (#set! optional "true"))

((pair
  key: (property_identifier) @_properties
  value: (object
    (pair
      key: (_) @field.name
      value: (object (pair key: (property_identifier) @_type value: (string (string_fragment) @field.type))))))
  (#eq? @_properties "properties")
  (#eq? @_type "type"))
