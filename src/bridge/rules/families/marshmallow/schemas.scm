; framework: marshmallow
; language: python
; needles: marshmallow
; marshmallow schemas, the request bodies webargs' `@use_kwargs(user_schema)` reads in Flask
; views: `class UserSchema(Schema)` with `email = fields.Email(required=True)` fields, optional
; unless `required=True` (and always when `dump_only=True`); a schema inheriting another of
; the run takes its fields (`pydantic/models.scm` names every class's bases).

((class_definition
  name: (identifier) @shape.name
  superclasses: (argument_list [(identifier) (attribute)] @_base)) @shape.scope
  (#match? @_base "Schema$")
  (#set! kind "marshmallow")
  (#set! validation "true"))

((class_definition
  body: (block
    (expression_statement
      (assignment
        left: (identifier) @field.name
        right: (call
          function: (attribute object: (identifier) @_fields attribute: (identifier) @field.type)
          arguments: (argument_list) @_args)))))
  (#eq? @_fields "fields")
  (#not-match? @_args "required\\s*=\\s*True")
  (#set! optional "true"))

((class_definition
  body: (block
    (expression_statement
      (assignment
        left: (identifier) @field.name
        right: (call
          function: (attribute object: (identifier) @_fields attribute: (identifier) @field.type)
          arguments: (argument_list) @_args)))))
  (#eq? @_fields "fields")
  (#match? @_args "required\\s*=\\s*True")
  (#not-match? @_args "dump_only\\s*=\\s*True"))

((class_definition
  body: (block
    (expression_statement
      (assignment
        left: (identifier) @field.name
        right: (call
          function: (attribute object: (identifier) @_fields)
          arguments: (argument_list) @_args)))))
  (#eq? @_fields "fields")
  (#match? @_args "dump_only\\s*=\\s*True")
  (#set! optional "true"))
