; framework: zustand
; language: javascript
; needles: zustand
; Zustand stores: `const useCart = create((set) => ({ items: [], add: … }))`, the curried
; TypeScript form `create<State>()(…)`, through up to seven middlewares (`persist`, `devtools`,
; `immer`, `subscribeWithSelector`, `redux`) and `combine(initial, actions)`; their keys are
; those of the state the creator returns. The function called must be one imported from
; zustand (`store.callee`, `store.import`).

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

; the store: its creator called directly or through middlewares (one pattern per depth:
; patterns that nest alternatives of different depths miss matches)
((variable_declarator
  name: (_) @store.var
  value: (call_expression
    function: [(identifier) @store.callee
               (call_expression function: (identifier) @store.callee)]
    arguments: (arguments
      .
      [(arrow_function body: [(parenthesized_expression (object)) (statement_block (return_statement (object)))])
       (function_expression body: (statement_block (return_statement (object))))
       (call_expression
         function: (identifier) @_combine
         arguments: (arguments))])) @store.scope)
  (#eq? @_combine "combine")
  (#set! kind "zustand"))

((variable_declarator
  name: (_) @store.var
  value: (call_expression
    function: [(identifier) @store.callee
               (call_expression function: (identifier) @store.callee)]
    arguments: (arguments
      .
      (call_expression
        function: (identifier) @_middleware
        arguments: (arguments
          .
          [(arrow_function body: [(parenthesized_expression (object)) (statement_block (return_statement (object)))])
           (function_expression body: (statement_block (return_statement (object))))
           (call_expression
             function: (identifier) @_combine
             arguments: (arguments))])))) @store.scope)
  (#any-of? @_middleware "persist" "devtools" "immer" "subscribeWithSelector" "redux")
  (#eq? @_combine "combine")
  (#set! kind "zustand"))

((variable_declarator
  name: (_) @store.var
  value: (call_expression
    function: [(identifier) @store.callee
               (call_expression function: (identifier) @store.callee)]
    arguments: (arguments
      .
      (call_expression
        function: (identifier) @_middleware
        arguments: (arguments
          .
          (call_expression
            function: (identifier) @_middleware
            arguments: (arguments
              .
              [(arrow_function body: [(parenthesized_expression (object)) (statement_block (return_statement (object)))])
               (function_expression body: (statement_block (return_statement (object))))
               (call_expression
                 function: (identifier) @_combine
                 arguments: (arguments))])))))) @store.scope)
  (#any-of? @_middleware "persist" "devtools" "immer" "subscribeWithSelector" "redux")
  (#eq? @_combine "combine")
  (#set! kind "zustand"))

((variable_declarator
  name: (_) @store.var
  value: (call_expression
    function: [(identifier) @store.callee
               (call_expression function: (identifier) @store.callee)]
    arguments: (arguments
      .
      (call_expression
        function: (identifier) @_middleware
        arguments: (arguments
          .
          (call_expression
            function: (identifier) @_middleware
            arguments: (arguments
              .
              (call_expression
                function: (identifier) @_middleware
                arguments: (arguments
                  .
                  [(arrow_function body: [(parenthesized_expression (object)) (statement_block (return_statement (object)))])
                   (function_expression body: (statement_block (return_statement (object))))
                   (call_expression
                     function: (identifier) @_combine
                     arguments: (arguments))])))))))) @store.scope)
  (#any-of? @_middleware "persist" "devtools" "immer" "subscribeWithSelector" "redux")
  (#eq? @_combine "combine")
  (#set! kind "zustand"))

((variable_declarator
  name: (_) @store.var
  value: (call_expression
    function: [(identifier) @store.callee
               (call_expression function: (identifier) @store.callee)]
    arguments: (arguments
      .
      (call_expression
        function: (identifier) @_middleware
        arguments: (arguments
          .
          (call_expression
            function: (identifier) @_middleware
            arguments: (arguments
              .
              (call_expression
                function: (identifier) @_middleware
                arguments: (arguments
                  .
                  (call_expression
                    function: (identifier) @_middleware
                    arguments: (arguments
                      .
                      [(arrow_function body: [(parenthesized_expression (object)) (statement_block (return_statement (object)))])
                       (function_expression body: (statement_block (return_statement (object))))
                       (call_expression
                         function: (identifier) @_combine
                         arguments: (arguments))])))))))))) @store.scope)
  (#any-of? @_middleware "persist" "devtools" "immer" "subscribeWithSelector" "redux")
  (#eq? @_combine "combine")
  (#set! kind "zustand"))

((variable_declarator
  name: (_) @store.var
  value: (call_expression
    function: [(identifier) @store.callee
               (call_expression function: (identifier) @store.callee)]
    arguments: (arguments
      .
      (call_expression
        function: (identifier) @_middleware
        arguments: (arguments
          .
          (call_expression
            function: (identifier) @_middleware
            arguments: (arguments
              .
              (call_expression
                function: (identifier) @_middleware
                arguments: (arguments
                  .
                  (call_expression
                    function: (identifier) @_middleware
                    arguments: (arguments
                      .
                      (call_expression
                        function: (identifier) @_middleware
                        arguments: (arguments
                          .
                          [(arrow_function body: [(parenthesized_expression (object)) (statement_block (return_statement (object)))])
                           (function_expression body: (statement_block (return_statement (object))))
                           (call_expression
                             function: (identifier) @_combine
                             arguments: (arguments))])))))))))))) @store.scope)
  (#any-of? @_middleware "persist" "devtools" "immer" "subscribeWithSelector" "redux")
  (#eq? @_combine "combine")
  (#set! kind "zustand"))

((variable_declarator
  name: (_) @store.var
  value: (call_expression
    function: [(identifier) @store.callee
               (call_expression function: (identifier) @store.callee)]
    arguments: (arguments
      .
      (call_expression
        function: (identifier) @_middleware
        arguments: (arguments
          .
          (call_expression
            function: (identifier) @_middleware
            arguments: (arguments
              .
              (call_expression
                function: (identifier) @_middleware
                arguments: (arguments
                  .
                  (call_expression
                    function: (identifier) @_middleware
                    arguments: (arguments
                      .
                      (call_expression
                        function: (identifier) @_middleware
                        arguments: (arguments
                          .
                          (call_expression
                            function: (identifier) @_middleware
                            arguments: (arguments
                              .
                              [(arrow_function body: [(parenthesized_expression (object)) (statement_block (return_statement (object)))])
                               (function_expression body: (statement_block (return_statement (object))))
                               (call_expression
                                 function: (identifier) @_combine
                                 arguments: (arguments))])))))))))))))) @store.scope)
  (#any-of? @_middleware "persist" "devtools" "immer" "subscribeWithSelector" "redux")
  (#eq? @_combine "combine")
  (#set! kind "zustand"))

((variable_declarator
  name: (_) @store.var
  value: (call_expression
    function: [(identifier) @store.callee
               (call_expression function: (identifier) @store.callee)]
    arguments: (arguments
      .
      (call_expression
        function: (identifier) @_middleware
        arguments: (arguments
          .
          (call_expression
            function: (identifier) @_middleware
            arguments: (arguments
              .
              (call_expression
                function: (identifier) @_middleware
                arguments: (arguments
                  .
                  (call_expression
                    function: (identifier) @_middleware
                    arguments: (arguments
                      .
                      (call_expression
                        function: (identifier) @_middleware
                        arguments: (arguments
                          .
                          (call_expression
                            function: (identifier) @_middleware
                            arguments: (arguments
                              .
                              (call_expression
                                function: (identifier) @_middleware
                                arguments: (arguments
                                  .
                                  [(arrow_function body: [(parenthesized_expression (object)) (statement_block (return_statement (object)))])
                                   (function_expression body: (statement_block (return_statement (object))))
                                   (call_expression
                                     function: (identifier) @_combine
                                     arguments: (arguments))])))))))))))))))) @store.scope)
  (#any-of? @_middleware "persist" "devtools" "immer" "subscribeWithSelector" "redux")
  (#eq? @_combine "combine")
  (#set! kind "zustand"))

; its keys
((variable_declarator
  name: (_) @store.var
  value: (call_expression
    function: [(identifier) @store.callee
               (call_expression function: (identifier) @store.callee)]
    arguments: (arguments
      .
      [(arrow_function body: [(parenthesized_expression (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key])) (statement_block (return_statement (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key])))])
       (function_expression body: (statement_block (return_statement (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key]))))
       (call_expression
         function: (identifier) @_combine
         arguments: [(arguments . (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key]))
                    (arguments . (_) . [(arrow_function body: [(parenthesized_expression (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key])) (statement_block (return_statement (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key])))]) (function_expression body: (statement_block (return_statement (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key]))))])])])) @store.scope)
  (#eq? @_combine "combine")
  (#not-match? @store.key "^\\[")
  (#set! kind "zustand"))

((variable_declarator
  name: (_) @store.var
  value: (call_expression
    function: [(identifier) @store.callee
               (call_expression function: (identifier) @store.callee)]
    arguments: (arguments
      .
      (call_expression
        function: (identifier) @_middleware
        arguments: (arguments
          .
          [(arrow_function body: [(parenthesized_expression (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key])) (statement_block (return_statement (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key])))])
           (function_expression body: (statement_block (return_statement (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key]))))
           (call_expression
             function: (identifier) @_combine
             arguments: [(arguments . (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key]))
                        (arguments . (_) . [(arrow_function body: [(parenthesized_expression (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key])) (statement_block (return_statement (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key])))]) (function_expression body: (statement_block (return_statement (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key]))))])])])))) @store.scope)
  (#any-of? @_middleware "persist" "devtools" "immer" "subscribeWithSelector" "redux")
  (#eq? @_combine "combine")
  (#not-match? @store.key "^\\[")
  (#set! kind "zustand"))

((variable_declarator
  name: (_) @store.var
  value: (call_expression
    function: [(identifier) @store.callee
               (call_expression function: (identifier) @store.callee)]
    arguments: (arguments
      .
      (call_expression
        function: (identifier) @_middleware
        arguments: (arguments
          .
          (call_expression
            function: (identifier) @_middleware
            arguments: (arguments
              .
              [(arrow_function body: [(parenthesized_expression (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key])) (statement_block (return_statement (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key])))])
               (function_expression body: (statement_block (return_statement (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key]))))
               (call_expression
                 function: (identifier) @_combine
                 arguments: [(arguments . (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key]))
                            (arguments . (_) . [(arrow_function body: [(parenthesized_expression (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key])) (statement_block (return_statement (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key])))]) (function_expression body: (statement_block (return_statement (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key]))))])])])))))) @store.scope)
  (#any-of? @_middleware "persist" "devtools" "immer" "subscribeWithSelector" "redux")
  (#eq? @_combine "combine")
  (#not-match? @store.key "^\\[")
  (#set! kind "zustand"))

((variable_declarator
  name: (_) @store.var
  value: (call_expression
    function: [(identifier) @store.callee
               (call_expression function: (identifier) @store.callee)]
    arguments: (arguments
      .
      (call_expression
        function: (identifier) @_middleware
        arguments: (arguments
          .
          (call_expression
            function: (identifier) @_middleware
            arguments: (arguments
              .
              (call_expression
                function: (identifier) @_middleware
                arguments: (arguments
                  .
                  [(arrow_function body: [(parenthesized_expression (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key])) (statement_block (return_statement (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key])))])
                   (function_expression body: (statement_block (return_statement (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key]))))
                   (call_expression
                     function: (identifier) @_combine
                     arguments: [(arguments . (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key]))
                                (arguments . (_) . [(arrow_function body: [(parenthesized_expression (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key])) (statement_block (return_statement (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key])))]) (function_expression body: (statement_block (return_statement (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key]))))])])])))))))) @store.scope)
  (#any-of? @_middleware "persist" "devtools" "immer" "subscribeWithSelector" "redux")
  (#eq? @_combine "combine")
  (#not-match? @store.key "^\\[")
  (#set! kind "zustand"))

((variable_declarator
  name: (_) @store.var
  value: (call_expression
    function: [(identifier) @store.callee
               (call_expression function: (identifier) @store.callee)]
    arguments: (arguments
      .
      (call_expression
        function: (identifier) @_middleware
        arguments: (arguments
          .
          (call_expression
            function: (identifier) @_middleware
            arguments: (arguments
              .
              (call_expression
                function: (identifier) @_middleware
                arguments: (arguments
                  .
                  (call_expression
                    function: (identifier) @_middleware
                    arguments: (arguments
                      .
                      [(arrow_function body: [(parenthesized_expression (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key])) (statement_block (return_statement (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key])))])
                       (function_expression body: (statement_block (return_statement (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key]))))
                       (call_expression
                         function: (identifier) @_combine
                         arguments: [(arguments . (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key]))
                                    (arguments . (_) . [(arrow_function body: [(parenthesized_expression (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key])) (statement_block (return_statement (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key])))]) (function_expression body: (statement_block (return_statement (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key]))))])])])))))))))) @store.scope)
  (#any-of? @_middleware "persist" "devtools" "immer" "subscribeWithSelector" "redux")
  (#eq? @_combine "combine")
  (#not-match? @store.key "^\\[")
  (#set! kind "zustand"))

((variable_declarator
  name: (_) @store.var
  value: (call_expression
    function: [(identifier) @store.callee
               (call_expression function: (identifier) @store.callee)]
    arguments: (arguments
      .
      (call_expression
        function: (identifier) @_middleware
        arguments: (arguments
          .
          (call_expression
            function: (identifier) @_middleware
            arguments: (arguments
              .
              (call_expression
                function: (identifier) @_middleware
                arguments: (arguments
                  .
                  (call_expression
                    function: (identifier) @_middleware
                    arguments: (arguments
                      .
                      (call_expression
                        function: (identifier) @_middleware
                        arguments: (arguments
                          .
                          [(arrow_function body: [(parenthesized_expression (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key])) (statement_block (return_statement (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key])))])
                           (function_expression body: (statement_block (return_statement (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key]))))
                           (call_expression
                             function: (identifier) @_combine
                             arguments: [(arguments . (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key]))
                                        (arguments . (_) . [(arrow_function body: [(parenthesized_expression (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key])) (statement_block (return_statement (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key])))]) (function_expression body: (statement_block (return_statement (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key]))))])])])))))))))))) @store.scope)
  (#any-of? @_middleware "persist" "devtools" "immer" "subscribeWithSelector" "redux")
  (#eq? @_combine "combine")
  (#not-match? @store.key "^\\[")
  (#set! kind "zustand"))

((variable_declarator
  name: (_) @store.var
  value: (call_expression
    function: [(identifier) @store.callee
               (call_expression function: (identifier) @store.callee)]
    arguments: (arguments
      .
      (call_expression
        function: (identifier) @_middleware
        arguments: (arguments
          .
          (call_expression
            function: (identifier) @_middleware
            arguments: (arguments
              .
              (call_expression
                function: (identifier) @_middleware
                arguments: (arguments
                  .
                  (call_expression
                    function: (identifier) @_middleware
                    arguments: (arguments
                      .
                      (call_expression
                        function: (identifier) @_middleware
                        arguments: (arguments
                          .
                          (call_expression
                            function: (identifier) @_middleware
                            arguments: (arguments
                              .
                              [(arrow_function body: [(parenthesized_expression (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key])) (statement_block (return_statement (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key])))])
                               (function_expression body: (statement_block (return_statement (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key]))))
                               (call_expression
                                 function: (identifier) @_combine
                                 arguments: [(arguments . (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key]))
                                            (arguments . (_) . [(arrow_function body: [(parenthesized_expression (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key])) (statement_block (return_statement (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key])))]) (function_expression body: (statement_block (return_statement (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key]))))])])])))))))))))))) @store.scope)
  (#any-of? @_middleware "persist" "devtools" "immer" "subscribeWithSelector" "redux")
  (#eq? @_combine "combine")
  (#not-match? @store.key "^\\[")
  (#set! kind "zustand"))

((variable_declarator
  name: (_) @store.var
  value: (call_expression
    function: [(identifier) @store.callee
               (call_expression function: (identifier) @store.callee)]
    arguments: (arguments
      .
      (call_expression
        function: (identifier) @_middleware
        arguments: (arguments
          .
          (call_expression
            function: (identifier) @_middleware
            arguments: (arguments
              .
              (call_expression
                function: (identifier) @_middleware
                arguments: (arguments
                  .
                  (call_expression
                    function: (identifier) @_middleware
                    arguments: (arguments
                      .
                      (call_expression
                        function: (identifier) @_middleware
                        arguments: (arguments
                          .
                          (call_expression
                            function: (identifier) @_middleware
                            arguments: (arguments
                              .
                              (call_expression
                                function: (identifier) @_middleware
                                arguments: (arguments
                                  .
                                  [(arrow_function body: [(parenthesized_expression (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key])) (statement_block (return_statement (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key])))])
                                   (function_expression body: (statement_block (return_statement (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key]))))
                                   (call_expression
                                     function: (identifier) @_combine
                                     arguments: [(arguments . (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key]))
                                                (arguments . (_) . [(arrow_function body: [(parenthesized_expression (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key])) (statement_block (return_statement (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key])))]) (function_expression body: (statement_block (return_statement (object [(pair key: (_) @store.key) (method_definition name: (_) @store.key) (shorthand_property_identifier) @store.key]))))])])])))))))))))))))) @store.scope)
  (#any-of? @_middleware "persist" "devtools" "immer" "subscribeWithSelector" "redux")
  (#eq? @_combine "combine")
  (#not-match? @store.key "^\\[")
  (#set! kind "zustand"))
