; Shared by react/providers-jsx and react/providers-tsx (JSX is in the JavaScript and TSX
; grammars, not in TypeScript's): the element that provides a context, and the keys of the
; value it provides, written out or through a variable.

; <AuthContext.Provider value={value}>, <AuthContext value={…}> (React 19)
((jsx_opening_element
  name: [(member_expression
           object: (identifier) @store.provider
           property: (property_identifier) @_provider)
         (identifier) @store.provider])
  (#eq? @_provider "Provider"))

; value={{ user, login }}
((jsx_opening_element
  name: [(member_expression
           object: (identifier) @store.provider
           property: (property_identifier) @_provider)
         (identifier) @store.provider]
  attribute: (jsx_attribute
    (property_identifier) @_value
    (jsx_expression
      (object
        [(pair key: (_) @store.key)
         (method_definition name: (_) @store.key)
         (shorthand_property_identifier) @store.key]))))
  (#eq? @_provider "Provider")
  (#eq? @_value "value")
  (#not-match? @store.key "^\\["))

; value={value}: the keys of the variable of that name in the provider
((jsx_opening_element
  name: [(member_expression
           object: (identifier) @store.provider
           property: (property_identifier) @_provider)
         (identifier) @store.provider]
  attribute: (jsx_attribute
    (property_identifier) @_value
    (jsx_expression (identifier) @store.value)))
  (#eq? @_provider "Provider")
  (#eq? @_value "value"))
