; framework: node
; language: javascript
; needles: Service
; Exported service classes and their public methods (JavaScript rules also read TypeScript
; and TSX; `typescript.scm` leaves out the private and protected ones).

; export class UsersService { … }
((export_statement
  (class_declaration
    name: (_) @service.name))
  (#match? @service.name "^.+Service$"))

; its methods: not the constructor, not `#private` ones (their names are no property_identifier)
((export_statement
  (class_declaration
    name: (_) @service.name
    body: (class_body
      (method_definition
        name: (property_identifier) @service.method))))
  (#match? @service.name "^.+Service$")
  (#not-eq? @service.method "constructor"))

; accessors are no methods: get total() { … }, set total(value) { … }
(method_definition
  ["get" "set"]
  name: (_) @service.private)
