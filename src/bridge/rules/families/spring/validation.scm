; framework: jakarta.validation
; language: java
; needles: jakarta.validation | javax.validation | Validator
; Bean Validation: a class or record whose fields carry constraints (`@NotBlank`, `@Email`,
; `@Size(max = 50)`, …; on fields, not on a controller's parameters) is a validated shape
; (`@Valid @RequestBody` binds it); `@NotNull`, `@NotBlank` and `@NotEmpty` make a field
; required. A `@MappedSuperclass` lends its constraints to the entities that extend it, in
; whichever file (`kind mapped-superclass`, see `rules/validated.rs`). A Spring `Validator` or
; a `ConstraintValidator` is a validation too.

((class_declaration
  (modifiers)? @_mods
  name: (identifier) @shape.name
  body: (class_body (field_declaration (modifiers) @_constraint)) @shape.scope)
  (#match? @_constraint "@(NotNull|NotBlank|NotEmpty|Email|Size|Min|Max|Pattern|Positive|PositiveOrZero|Negative|NegativeOrZero|Past|PastOrPresent|Future|FutureOrPresent|Digits|DecimalMin|DecimalMax|AssertTrue|AssertFalse|Length)\\b")
  (#not-match? @_mods "@MappedSuperclass")
  (#set! kind "dto")
  (#set! validation "true"))

((class_declaration
  (modifiers) @_mods
  name: (identifier) @shape.name
  body: (class_body (field_declaration (modifiers) @_constraint)) @shape.scope)
  (#match? @_constraint "@(NotNull|NotBlank|NotEmpty|Email|Size|Min|Max|Pattern|Positive|PositiveOrZero|Negative|NegativeOrZero|Past|PastOrPresent|Future|FutureOrPresent|Digits|DecimalMin|DecimalMax|AssertTrue|AssertFalse|Length)\\b")
  (#match? @_mods "@MappedSuperclass")
  (#set! kind "mapped-superclass")
  (#set! validation "true"))

((record_declaration
  name: (identifier) @shape.name
  parameters: (formal_parameters) @shape.scope)
  (#match? @shape.scope "@(NotNull|NotBlank|NotEmpty|Email|Size|Min|Max|Pattern|Positive|PositiveOrZero|Negative|NegativeOrZero|Past|PastOrPresent|Future|FutureOrPresent|Digits|DecimalMin|DecimalMax|AssertTrue|AssertFalse|Length)\\b")
  (#set! kind "dto")
  (#set! validation "true"))

; fields: required with @NotNull/@NotBlank/@NotEmpty, the constraints as rules
((field_declaration
  (modifiers) @field.rule
  type: (_) @field.type
  declarator: (variable_declarator name: (identifier) @field.name))
  (#match? @field.rule "@(NotNull|NotBlank|NotEmpty)\\b")
  (#not-match? @field.rule "\\bstatic\\b"))

((field_declaration
  (modifiers)? @_mods
  type: (_) @field.type
  declarator: (variable_declarator name: (identifier) @field.name))
  (#not-match? @_mods "@(NotNull|NotBlank|NotEmpty)\\b|\\bstatic\\b")
  (#set! optional "true"))

(record_declaration
  parameters: (formal_parameters
    (formal_parameter
      (modifiers) @field.rule
      type: (_) @field.type
      name: (identifier) @field.name))
  (#match? @field.rule "@(NotNull|NotBlank|NotEmpty)\\b"))

(record_declaration
  parameters: (formal_parameters
    (formal_parameter
      (modifiers)? @_mods
      type: (_) @field.type
      name: (identifier) @field.name))
  (#not-match? @_mods "@(NotNull|NotBlank|NotEmpty)\\b")
  (#set! optional "true"))

; class PetValidator implements Validator, class UniqueEmailValidator implements
; ConstraintValidator<UniqueEmail, String>
((class_declaration
  name: (identifier) @guard.name
  interfaces: (super_interfaces
    (type_list [(type_identifier) @_interface (generic_type (type_identifier) @_interface)])))
  (#any-of? @_interface "Validator" "ConstraintValidator")
  (#set! kind "validation")
  (#set! framework "spring"))

; @Valid Pet pet, @Validated @RequestBody Owner owner: a type bound with validation (an entity
; that only inherits constraints is a validation where it is bound)
((formal_parameter
  (modifiers [(marker_annotation name: (identifier) @_valid) (annotation name: (identifier) @_valid)])
  type: (type_identifier) @valid.type)
  (#any-of? @_valid "Valid" "Validated"))
