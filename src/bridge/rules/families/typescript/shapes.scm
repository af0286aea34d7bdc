; framework: class-validator
; language: typescript
; needles: class 
; TypeScript DTO classes: class-validator decorators on their fields make them validations;
; any decorated field, a `Dto` name, or a base made by Nest's mapped types (`PartialType(X)`,
; `OmitType(X, ['a'])`, `PickType(X, ['a'])`, `IntersectionType(A, B)`) makes a class one.

; class CreateUserDto { @IsEmail() email: string }
((class_declaration
  name: (type_identifier) @shape.name
  body: (class_body
    (public_field_definition
      decorator: (decorator [(call_expression function: (identifier) @_check) (identifier) @_check])))) @shape.scope
  (#match? @_check "^(Is[A-Z][A-Za-z]*|Min|Max|MinLength|MaxLength|Length|Matches|Contains|ValidateNested|ArrayMinSize|ArrayMaxSize|ArrayNotEmpty|Equals|NotEquals|ValidateIf)$")
  (#set! kind "dto")
  (#set! validation "true"))

; class UserResponse { @ApiProperty() id: number }, class UserResponseDto { … }
((class_declaration
  name: (type_identifier) @shape.name
  body: (class_body (public_field_definition decorator: (decorator)))) @shape.scope
  (#set! kind "dto"))

((class_declaration
  name: (type_identifier) @shape.name) @shape.scope
  (#match? @shape.name "(Dto|DTO)$")
  (#set! kind "dto"))

; class UpdateUserDto extends PartialType(CreateUserDto) {}, OmitType(X, ['a']), PickType(X, ['a'])
((class_declaration
  name: (type_identifier) @shape.name
  (class_heritage
    (extends_clause
      value: (call_expression
        function: (identifier) @base.mode
        arguments: (arguments . (identifier) @shape.base (array)? @base.keys))))) @shape.scope
  (#any-of? @base.mode "PartialType" "OmitType" "PickType")
  (#set! kind "dto"))

((class_declaration
  name: (type_identifier) @shape.name
  (class_heritage
    (extends_clause
      value: (call_expression
        function: (identifier) @_intersection
        arguments: (arguments (identifier) @shape.base))))) @shape.scope
  (#eq? @_intersection "IntersectionType")
  (#set! kind "dto"))

; class AdminDto extends UserDto
(class_declaration
  (class_heritage (extends_clause value: (identifier) @shape.base)))

; fields: not static, private or protected; optional with `?`, @IsOptional(), @ApiPropertyOptional()
(public_field_definition
  name: (property_identifier) @field.name
  type: (type_annotation (_) @field.type)?) @field.scope

((public_field_definition
  name: (property_identifier) @field.name
  "?" @_optional)
  (#set! optional "true"))

((public_field_definition
  decorator: (decorator (call_expression function: (identifier) @_optional))
  name: (property_identifier) @field.name)
  (#any-of? @_optional "IsOptional" "ApiPropertyOptional")
  (#set! optional "true"))

((public_field_definition
  (accessibility_modifier) @_access
  name: (property_identifier) @field.name) @field.skip
  (#any-of? @_access "private" "protected"))

((public_field_definition
  "static"
  name: (property_identifier) @field.name) @field.skip)

