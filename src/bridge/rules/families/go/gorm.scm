; framework: gorm
; language: go
; needles: gorm.io/gorm | jinzhu/gorm

; type User struct { gorm.Model; Email string `gorm:"uniqueIndex"` }: a table named by
; GORM's default naming strategy (snake case, plural)
((type_spec
  name: (type_identifier) @table.model
  type: (struct_type
    (field_declaration_list
      (field_declaration type: (qualified_type) @_model)))) @table.scope
  (#eq? @_model "gorm.Model")
  (#set! naming "snake_plural"))

((type_spec
  name: (type_identifier) @table.model
  type: (struct_type
    (field_declaration_list
      (field_declaration tag: (raw_string_literal) @_tag)))) @table.scope
  (#match? @_tag "gorm:\"")
  (#set! naming "snake_plural"))

; the columns: exported fields (a field whose type is a model is a relation, not a column; a
; slice is a has-many); `gorm:"column:user_name"` names one, `gorm:"-"` leaves one out,
; `gorm:"primaryKey"` marks the key
((field_declaration
  name: (field_identifier) @column.field
  type: [(type_identifier) (qualified_type) (pointer_type)] @column.type
  tag: (raw_string_literal)? @column.tag)
  (#match? @column.field "^[A-Z]")
  (#set! naming "snake"))

; `gorm.Model` brings id, created_at, updated_at, deleted_at
((field_declaration type: (qualified_type) @column.embedded)
  (#eq? @column.embedded "gorm.Model")
  (#set! columns "id created_at updated_at deleted_at")
  (#set! primary "id"))

; func (User) TableName() string { return "app_users" }
((method_declaration
  receiver: (parameter_list (parameter_declaration type: [(type_identifier) (pointer_type (type_identifier))] @table.of))
  name: (field_identifier) @_name
  body: (block (statement_list (return_statement (expression_list (interpreted_string_literal) @table.rename)))))
  (#eq? @_name "TableName"))

; Tags []Tag `gorm:"many2many:article_tags;"`: a join table
((field_declaration
  type: (slice_type element: [(type_identifier) (pointer_type (type_identifier))] @join.model)
  tag: (raw_string_literal) @join.tag)
  (#match? @join.tag "many2many:")
  (#set! naming "snake_plural"))
