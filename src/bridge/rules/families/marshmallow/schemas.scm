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
          arguments: (argument_list) @field.value)))))
  (#eq? @_fields "fields")
  (#set! required-when "required=True")
  (#set! optional-when "dump_only=True"))
