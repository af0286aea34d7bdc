; framework: typescript
; language: typescript
; needles: interface | type 
; Exported TypeScript interfaces and object types: their fields (optional with `?`), and the
; fields of the bases they name (`extends A, B`, `A & { … }`) wherever those are written.

; export interface User extends Base { name: string; bio?: string }
((export_statement
  declaration: (interface_declaration name: (type_identifier) @shape.name) @shape.scope)
  (#set! kind "interface"))

(interface_declaration
  (extends_type_clause [(type_identifier) @shape.base (generic_type name: (type_identifier) @shape.base)]))

; export type User = { … }, export type Admin = User & { … }
((export_statement
  declaration: (type_alias_declaration
    name: (type_identifier) @shape.name
    value: [(object_type) (intersection_type (object_type))]) @shape.scope)
  (#set! kind "type"))

(type_alias_declaration
  value: (intersection_type (type_identifier) @shape.base))

(property_signature
  name: (_) @field.name
  type: (type_annotation (_) @field.type)?) @field.scope

((property_signature
  name: (_) @field.name
  "?" @_optional)
  (#set! optional "true"))
