; framework: laravel
; language: php
; needles: function rules
; Form requests: a class whose `rules()` returns `['title' => 'required|string', …]` is a
; validation shape; `required` among a field's rules makes it required.

((class_declaration
  name: (name) @shape.name
  (base_clause [(name) (qualified_name)] @_base)
  body: (declaration_list
    (method_declaration
      name: (name) @_rules
      body: (compound_statement
        (return_statement (array_creation_expression (array_element_initializer))))))) @shape.scope
  (#match? @_base "Request$")
  (#eq? @_rules "rules")
  (#set! kind "request"))

((method_declaration
  name: (name) @_rules
  body: (compound_statement
    (return_statement
      (array_creation_expression
        (array_element_initializer . [(string) (encapsed_string)] @field.name . (_) @field.rule)))))
  (#eq? @_rules "rules")
  (#set! required-by "rules"))
