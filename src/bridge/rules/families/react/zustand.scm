; framework: zustand
; language: javascript
; needles: zustand
; Zustand stores: `const useCart = create((set) => ({ items: [], add: … }))`, the curried
; TypeScript form `create<State>()(…)`, through middlewares (`persist`, `devtools`, `immer`,
; `subscribeWithSelector`, `redux`: `wrap.outer`, `wrap.inner`) to the state creator
; (`state.scope`) or `combine(initial, actions)`; their keys are those of the state the
; creator returns. The function called must be one imported from zustand (`store.callee`,
; `store.import`).

; import { create } from 'zustand', import create from 'zustand', import { createStore as make } from 'zustand/vanilla'
((import_statement
  (import_clause
    [(identifier) @store.import
     (namespace_import (identifier) @store.import)
     (named_imports (import_specifier name: (_) @store.import !alias))
     (named_imports (import_specifier alias: (_) @store.import))])
  source: (string) @_from)
  (#match? @_from "^.zustand(/.*)?.$"))

; const { create } = require('zustand')
((variable_declarator
  name: [(identifier) @store.import
         (object_pattern (shorthand_property_identifier_pattern) @store.import)
         (object_pattern (pair_pattern value: (identifier) @store.import))]
  value: (call_expression
    function: (identifier) @_require
    arguments: (arguments . (string) @_from)))
  (#eq? @_require "require")
  (#match? @_from "^.zustand(/.*)?.$"))

; the store: const useCart = create(…), create<Cart>()(…)
((variable_declarator
  name: (_) @store.var
  value: (call_expression
    function: [(identifier) @store.callee
               (call_expression function: (identifier) @store.callee)]
    arguments: (arguments . (_) @store.creator)) @store.scope)
  (#set! kind "zustand"))

; a middleware: persist((set) => ({ … }), { name: 'cart' })
((call_expression
  function: (identifier) @_middleware
  arguments: (arguments . (_) @wrap.inner)) @wrap.outer
  (#any-of? @_middleware "persist" "devtools" "immer" "subscribeWithSelector" "redux"))

; the state creator: (set) => ({ items: [], add: … }), function (set) { return { … } }
[(arrow_function
   body: [(parenthesized_expression (object))
          (statement_block (return_statement (object)))])
 (function_expression
   body: (statement_block (return_statement (object))))] @state.scope

; its keys
([(arrow_function
    body: [(parenthesized_expression
             (object
               [(pair key: (_) @state.key)
                (method_definition name: (_) @state.key)
                (shorthand_property_identifier) @state.key]))
           (statement_block
             (return_statement
               (object
                 [(pair key: (_) @state.key)
                  (method_definition name: (_) @state.key)
                  (shorthand_property_identifier) @state.key])))])
  (function_expression
    body: (statement_block
      (return_statement
        (object
          [(pair key: (_) @state.key)
           (method_definition name: (_) @state.key)
           (shorthand_property_identifier) @state.key]))))] @state.scope
  (#not-match? @state.key "^\\["))

; combine({ items: [] }, (set) => ({ add: … })): the keys of both
((call_expression
  function: (identifier) @_combine
  arguments: (arguments)) @state.scope
  (#eq? @_combine "combine"))

((call_expression
  function: (identifier) @_combine
  arguments: (arguments
    .
    (object
      [(pair key: (_) @state.key)
       (method_definition name: (_) @state.key)
       (shorthand_property_identifier) @state.key]))) @state.scope
  (#eq? @_combine "combine")
  (#not-match? @state.key "^\\["))

((call_expression
  function: (identifier) @_combine
  arguments: (arguments
    .
    (_)
    .
    [(arrow_function
       body: [(parenthesized_expression
                (object
                  [(pair key: (_) @state.key)
                   (method_definition name: (_) @state.key)
                   (shorthand_property_identifier) @state.key]))
              (statement_block
                (return_statement
                  (object
                    [(pair key: (_) @state.key)
                     (method_definition name: (_) @state.key)
                     (shorthand_property_identifier) @state.key])))])
     (function_expression
       body: (statement_block
         (return_statement
           (object
             [(pair key: (_) @state.key)
              (method_definition name: (_) @state.key)
              (shorthand_property_identifier) @state.key]))))])) @state.scope
  (#eq? @_combine "combine")
  (#not-match? @state.key "^\\["))
