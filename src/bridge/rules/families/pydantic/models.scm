; framework: pydantic
; language: python
; needles: class 
; Pydantic models: a class whose bases reach `BaseModel` (`RootModel`, `SQLModel` without
; `table=True`, `GenericModel`), in this file or another: every class with bases is one if a
; base is (`kind inherit`, `rules/shapes.rs`). A field is optional with a default (not `...`,
; not a `Field()` without one) or an `Optional[…]`/`… | None` type. A `BaseSettings` class's
; fields are environment variables (with its `env_prefix`).

((class_definition
  name: (identifier) @shape.name
  superclasses: (argument_list [(identifier) (attribute)] @_base) @_bases) @shape.scope
  (#match? @_base "(^|\\.)(BaseModel|RootModel|SQLModel|GenericModel)$")
  (#not-match? @_bases "table\\s*=\\s*True")
  (#set! kind "pydantic"))

((class_definition
  name: (identifier) @shape.name
  superclasses: (argument_list [(identifier) (attribute)] @_base)) @shape.scope
  (#match? @_base "(^|\\.)BaseSettings$")
  (#set! kind "settings"))

((class_definition
  name: (identifier) @shape.name
  superclasses: (argument_list [(identifier) (attribute)] @shape.base) @_bases) @shape.scope
  (#not-match? @_bases "table\\s*=\\s*True")
  (#set! kind "inherit"))

; email: EmailStr, full_name: str | None = None, id: int = Field(...)
((class_definition
  body: (block
    (expression_statement
      (assignment left: (identifier) @field.name type: (type) @field.type))))
  (#not-match? @field.name "^_")
  (#not-match? @field.type "^(ClassVar|Mapped|InitVar)\\b"))

((class_definition
  body: (block
    (expression_statement
      (assignment left: (identifier) @field.name type: (type) @_type))))
  (#match? @_type "^Optional\\[|\\|\\s*None\\b|\\bNone\\s*\\|")
  (#set! optional "true"))

((class_definition
  body: (block
    (expression_statement
      (assignment left: (identifier) @field.name type: (type) right: (_) @_default))))
  (#not-match? @_default "^(\\.\\.\\.$|[A-Za-z_.]*Field\\s*\\()")
  (#set! optional "true"))

((class_definition
  body: (block
    (expression_statement
      (assignment left: (identifier) @field.name type: (type) right: (call) @_default))))
  (#match? @_default "^[A-Za-z_.]*Field\\s*\\(\\s*([^.\\s)=,]+\\s*[,)]|(.|\\n)*\\bdefault(_factory)?\\s*=)")
  (#set! optional "true"))

; model_config = SettingsConfigDict(env_prefix="APP_"); class Config: env_prefix = "APP_"
((assignment
  left: (identifier) @_config
  right: (call
    arguments: (argument_list
      (keyword_argument name: (identifier) @_prefix value: (string) @shape.env_prefix))))
  (#eq? @_config "model_config")
  (#eq? @_prefix "env_prefix"))

((class_definition
  name: (identifier) @_config
  body: (block
    (expression_statement
      (assignment left: (identifier) @_prefix right: (string) @shape.env_prefix))))
  (#eq? @_config "Config")
  (#eq? @_prefix "env_prefix"))
