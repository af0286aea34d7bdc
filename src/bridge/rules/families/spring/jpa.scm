; framework: jpa
; language: java
; needles: @Entity | @MappedSuperclass
; JPA entities: an `@Entity` class is a table named by Spring's physical naming strategy (the
; snake case of the class name) unless `@Table(name = …)` names it; its fields are columns
; (`@Column(name = …)` or the snake case of the field), `@Id` the key. `@ManyToOne`/`@OneToOne`
; fields are foreign keys (`@JoinColumn(name = …)`, else `<field>_id`) to the referenced
; entity's table; `@OneToMany`/`@ManyToMany`, `@Transient` and static fields are no columns.
; An `@MappedSuperclass` (`origin mapped-superclass`) lends its columns to the entities that
; extend it, in whichever file (see `rules/inherit.rs`).

((class_declaration
  (modifiers [(marker_annotation name: (identifier) @_entity) (annotation name: (identifier) @_entity)])
  name: (identifier) @table.model
  superclass: (superclass (type_identifier) @table.parent)?
  body: (class_body) @table.scope)
  (#eq? @_entity "Entity")
  (#set! naming "snake"))

((class_declaration
  (modifiers (marker_annotation name: (identifier) @_base))
  name: (identifier) @table.model
  superclass: (superclass (type_identifier) @table.parent)?
  body: (class_body) @table.scope)
  (#eq? @_base "MappedSuperclass")
  (#set! naming "snake")
  (#set! origin "mapped-superclass"))

; @Table(name = "owners")
((class_declaration
  (modifiers
    (annotation
      name: (identifier) @_table
      arguments: (annotation_argument_list
        (element_value_pair key: (identifier) @_key value: (string_literal) @table.name))))
  body: (class_body) @table.scope)
  (#eq? @_table "Table")
  (#eq? @_key "name"))

; columns named by the field
((field_declaration
  (modifiers)? @_mods
  type: (_) @column.type
  declarator: (variable_declarator name: (identifier) @column.field))
  (#not-match? @_mods "\\b(static|transient)\\b|@(Transient|OneToMany|ManyToMany|ManyToOne|OneToOne|Embedded|EmbeddedId|Id)\\b|@(Column|JoinColumn)\\s*\\([^)]*\\bname\\s*=")
  (#set! naming "snake"))

((field_declaration
  (modifiers) @_mods
  type: (_) @column.type
  declarator: (variable_declarator name: (identifier) @column.field))
  (#match? @_mods "@(Id|EmbeddedId)\\b")
  (#not-match? @_mods "\\b(static|transient)\\b|@Transient\\b|@Column\\s*\\([^)]*\\bname\\s*=")
  (#set! naming "snake")
  (#set! primary "true"))

; @Column(name = "visit_date")
((field_declaration
  (modifiers
    (annotation
      name: (identifier) @_column
      arguments: (annotation_argument_list
        (element_value_pair key: (identifier) @_key value: (string_literal) @column.name)))) @_mods
  type: (_) @column.type)
  (#eq? @_column "Column")
  (#eq? @_key "name")
  (#not-match? @_mods "@(Id|EmbeddedId)\\b"))

((field_declaration
  (modifiers
    (annotation
      name: (identifier) @_column
      arguments: (annotation_argument_list
        (element_value_pair key: (identifier) @_key value: (string_literal) @column.name)))) @_mods
  type: (_) @column.type)
  (#eq? @_column "Column")
  (#eq? @_key "name")
  (#match? @_mods "@(Id|EmbeddedId)\\b")
  (#set! primary "true"))

; @ManyToOne @JoinColumn(name = "owner_id") Owner owner: a column and a key to the owner's table
((field_declaration
  (modifiers
    (annotation
      name: (identifier) @_join
      arguments: (annotation_argument_list
        (element_value_pair key: (identifier) @_key value: (string_literal) @column.name @fk.column)))) @_mods
  type: (type_identifier) @fk.model)
  (#eq? @_join "JoinColumn")
  (#eq? @_key "name")
  (#match? @_mods "@(ManyToOne|OneToOne)\\b")
  (#set! naming "snake"))

; @ManyToOne Owner owner: the column `owner_id`
((field_declaration
  (modifiers) @_mods
  type: (type_identifier) @fk.model
  declarator: (variable_declarator name: (identifier) @column.field @fk.column))
  (#match? @_mods "@(ManyToOne|OneToOne)\\b")
  (#not-match? @_mods "@JoinColumn\\s*\\([^)]*\\bname\\s*=|mappedBy")
  (#set! naming "snake_id")
  (#set! fk-naming "snake"))
