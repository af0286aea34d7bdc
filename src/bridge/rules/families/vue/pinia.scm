; framework: pinia
; language: javascript
; needles: defineStore
; Pinia stores: `defineStore('cart', {...})`, `defineStore('user', () => {...})`,
; `defineStore({ id: 'cart', ... })`; their keys are the state, getters and actions of an
; options store, or the names a setup store returns.

; defineStore('cart', …)
((call_expression
  function: (identifier) @_define
  arguments: (arguments . (string) @store.name)) @store.scope
  (#eq? @_define "defineStore")
  (#set! kind "pinia"))

; defineStore({ id: 'cart', … })
((call_expression
  function: (identifier) @_define
  arguments: (arguments
    .
    (object
      (pair
        key: (property_identifier) @_id
        value: (string) @store.name)))) @store.scope
  (#eq? @_define "defineStore")
  (#eq? @_id "id")
  (#set! kind "pinia"))

; defineStore('cart', { getters: { count… }, actions: { add() … } })
((call_expression
  function: (identifier) @_define
  arguments: (arguments
    (object
      (pair
        key: (property_identifier) @_part
        value: (object
          [(pair key: (_) @store.key)
           (method_definition name: (_) @store.key)
           (shorthand_property_identifier) @store.key])))))
  (#eq? @_define "defineStore")
  (#any-of? @_part "getters" "actions"))

; state: () => ({ items: [] }), or state() { return { items: [] } }
((call_expression
  function: (identifier) @_define
  arguments: (arguments
    (object
      [(pair
         key: (property_identifier) @_part
         value: (arrow_function
           body: (parenthesized_expression
             (object
               [(pair key: (_) @store.key)
                (shorthand_property_identifier) @store.key]))))
       (method_definition
         name: (property_identifier) @_part
         body: (statement_block
           (return_statement
             (object
               [(pair key: (_) @store.key)
                (shorthand_property_identifier) @store.key]))))])))
  (#eq? @_define "defineStore")
  (#eq? @_part "state"))

; defineStore('user', () => { …; return { user, updateUser } })
((call_expression
  function: (identifier) @_define
  arguments: (arguments
    (arrow_function
      body: (statement_block
        (return_statement
          (object
            [(pair key: (_) @store.key)
             (shorthand_property_identifier) @store.key]))))))
  (#eq? @_define "defineStore"))
