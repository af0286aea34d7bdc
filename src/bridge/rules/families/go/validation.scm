; framework: go-playground/validator
; language: go
; needles: binding:" | validate:"

; type CreateUserRequest struct { Username string `json:"username" binding:"required,alphanum"` }
; (the tags of its fields say which are required)
((type_spec
  name: (type_identifier) @shape.name
  type: (struct_type
    (field_declaration_list
      (field_declaration tag: (raw_string_literal) @_tag)))) @shape.scope
  (#match? @_tag "(binding|validate):\"")
  (#set! kind "request"))

; type UserValidator struct { User struct { Email string `binding:"email"` } `json:"user"` }
((type_spec
  name: (type_identifier) @shape.name
  type: (struct_type
    (field_declaration_list
      (field_declaration
        type: (struct_type
          (field_declaration_list
            (field_declaration tag: (raw_string_literal) @_tag))))))) @shape.scope
  (#match? @_tag "(binding|validate):\"")
  (#set! kind "request"))

((field_declaration
  name: (field_identifier) @field.name
  type: (_) @field.type
  tag: (raw_string_literal)? @field.tag)
  (#set! required-by "rules"))
