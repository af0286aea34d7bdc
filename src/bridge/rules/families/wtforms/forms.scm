; framework: wtforms
; language: python
; needles: wtforms | flask_wtf
; WTForms forms: `class LoginForm(FlaskForm)` with `username = StringField(…,
; validators=[DataRequired()])` fields (a submit button is none): the shape a Flask view
; validates a posted form against. A field is required with `DataRequired`, `InputRequired`
; or `Required`.

((class_definition
  name: (identifier) @shape.name
  superclasses: (argument_list [(identifier) (attribute)] @_base)) @shape.scope
  (#match? @_base "(^|\\.)(FlaskForm|Form|BaseForm)$")
  (#set! kind "wtforms")
  (#set! validation "true"))

((class_definition
  body: (block
    (expression_statement
      (assignment
        left: (identifier) @field.name
        right: (call function: [(identifier) (attribute)] @field.type arguments: (argument_list) @field.value)))))
  (#match? @field.type "Field$")
  (#not-match? @field.type "SubmitField$")
  (#set! type "call")
  (#set! required-when "DataRequired|InputRequired|Required("))
