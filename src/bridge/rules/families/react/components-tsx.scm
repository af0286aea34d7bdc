; framework: react
; language: tsx
; needles: export
; inherits: react/components
; Components in TSX files (see react/components), and a library's component under a name of
; the file's (`const Dialog = DialogPrimitive.Root`, `const Form = FormProvider`).

((program
  [(lexical_declaration
     (variable_declarator
       name: (identifier) @component.local
       value: [(member_expression object: (identifier) @_object property: (property_identifier) @_property)
               (identifier) @_property]))
   (export_statement
     declaration: (lexical_declaration
       (variable_declarator
         name: (identifier) @component.name
         value: [(member_expression object: (identifier) @_object property: (property_identifier) @_property)
                 (identifier) @_property])))])
  (#match? @component.local "^[A-Z]")
  (#match? @component.name "^[A-Z]")
  (#match? @_object "^[A-Z]")
  (#match? @_property "^[A-Z]")
  (#set! kind "alias"))
