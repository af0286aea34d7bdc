; framework: rails
; language: ruby
; needles: validates
; paths: app/models
; ActiveRecord validations: a model with `validates :email, presence: true` is a validation
; shape whose fields are the validated attributes.

((class
  name: (constant) @shape.name
  body: (body_statement (call !receiver method: (identifier) @_validates))) @shape.scope
  (#match? @_validates "^validates")
  (#set! kind "model"))

; validates :title, :body, presence: true
((call
  !receiver
  method: (identifier) @_validates
  arguments: (argument_list (simple_symbol) @field.name (pair) @field.rule))
  (#eq? @_validates "validates"))

; validates_presence_of :email
((call
  !receiver
  method: (identifier) @field.rule
  arguments: (argument_list (simple_symbol) @field.name))
  (#match? @field.rule "^validates_.+_of$"))
