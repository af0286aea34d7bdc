; framework: jpa
; language: java
; needles: @Entity | @MappedSuperclass | @Embeddable
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
  superclass: (superclass [(type_identifier) @table.parent (generic_type (type_identifier) @table.parent)])?
  body: (class_body) @table.scope)
  (#eq? @_entity "Entity")
  (#set! naming "snake"))

((class_declaration
  (modifiers (marker_annotation name: (identifier) @_base))
  name: (identifier) @table.model
  superclass: (superclass [(type_identifier) @table.parent (generic_type (type_identifier) @table.parent)])?
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

; @Embeddable class Email { @Column(name = "email") String address; }: lends its columns to the
; entities that embed it (`origin embeddable`)
((class_declaration
  (modifiers (marker_annotation name: (identifier) @_embeddable))
  name: (identifier) @table.model
  body: (class_body) @table.scope)
  (#eq? @_embeddable "Embeddable")
  (#set! naming "snake")
  (#set! origin "embeddable"))

; @Embedded Email email: the embeddable's columns are the class's
((class_declaration
  name: (identifier) @embed.model
  body: (class_body
    (field_declaration
      (modifiers) @_mods
      type: (type_identifier) @embed.type)))
  (#match? @_mods "@Embedded\\b"))

; @ManyToMany @JoinTable(name = "vet_specialties", joinColumns = @JoinColumn(name = "vet_id"),
; inverseJoinColumns = @JoinColumn(name = "specialty_id")) Set<Specialty> specialties: a table
; of two keys, to the class's table and to the element's
((field_declaration
  (modifiers
    (annotation
      name: (identifier) @_join_table
      arguments: (annotation_argument_list
        (element_value_pair key: (identifier) @_key value: (string_literal) @table.name)) @table.scope)))
  (#eq? @_join_table "JoinTable")
  (#eq? @_key "name")
  (#set! origin "join-table"))

((class_declaration
  name: (identifier) @fk.model
  body: (class_body
    (field_declaration
      (modifiers
        (annotation
          name: (identifier) @_join_table
          arguments: (annotation_argument_list
            (element_value_pair
              key: (identifier) @_side
              value: [(annotation
                        name: (identifier) @_join
                        arguments: (annotation_argument_list
                          (element_value_pair key: (identifier) @_key value: (string_literal) @column.name @fk.column)))
                      (element_value_array_initializer
                        (annotation
                          name: (identifier) @_join
                          arguments: (annotation_argument_list
                            (element_value_pair key: (identifier) @_key value: (string_literal) @column.name @fk.column))))])))))))
  (#eq? @_join_table "JoinTable")
  (#eq? @_side "joinColumns")
  (#eq? @_join "JoinColumn")
  (#eq? @_key "name")
  (#set! naming "snake"))

((field_declaration
  (modifiers
    (annotation
      name: (identifier) @_join_table
      arguments: (annotation_argument_list
        (element_value_pair
          key: (identifier) @_side
          value: [(annotation
                    name: (identifier) @_join
                    arguments: (annotation_argument_list
                      (element_value_pair key: (identifier) @_key value: (string_literal) @column.name @fk.column)))
                  (element_value_array_initializer
                    (annotation
                      name: (identifier) @_join
                      arguments: (annotation_argument_list
                        (element_value_pair key: (identifier) @_key value: (string_literal) @column.name @fk.column))))]))))
  type: (generic_type (type_arguments (type_identifier) @fk.model)))
  (#eq? @_join_table "JoinTable")
  (#eq? @_side "inverseJoinColumns")
  (#eq? @_join "JoinColumn")
  (#eq? @_key "name")
  (#set! naming "snake"))

; @OneToMany @JoinColumn(name = "owner_id") List<Pet> pets: the key column is on the element's
; table, to the class's
((class_declaration
  name: (identifier) @join.model
  body: (class_body
    (field_declaration
      (modifiers
        (annotation
          name: (identifier) @_join
          arguments: (annotation_argument_list
            (element_value_pair key: (identifier) @_key value: (string_literal) @join.column)))) @_mods
      type: (generic_type (type_arguments (type_identifier) @join.target)))))
  (#eq? @_join "JoinColumn")
  (#eq? @_key "name")
  (#match? @_mods "@OneToMany\\b"))
