; framework: redux-toolkit
; language: javascript
; needles: createSlice | createApi | configureStore
; Redux Toolkit, each bound to a variable: slices (`createSlice` → its name and reducers),
; RTK Query APIs (`createApi` → its reducerPath and endpoints) and stores (`configureStore`
; → the reducers it combines). Without a name of its own a store is named by its variable.

; const projectsSlice = createSlice({ name: 'projects', reducers: { projectAdded… } })
((variable_declarator
  name: (_) @store.var
  value: [(call_expression function: (_) @_make) (parenthesized_expression (call_expression function: (_) @_make))] @store.scope)
  (#match? @_make "(^|\\.)createSlice$")
  (#set! kind "redux-slice"))

((variable_declarator
  value: [(call_expression function: (_) @_make arguments: (arguments . (object (pair key: (_) @_name value: [(string) (template_string)] @store.name))))
          (parenthesized_expression (call_expression function: (_) @_make arguments: (arguments . (object (pair key: (_) @_name value: [(string) (template_string)] @store.name)))))] @store.scope)
  (#match? @_make "(^|\\.)createSlice$")
  (#match? @_name "^(name|.name.)$")
  (#not-match? @store.name "\\$\\{")
  (#set! kind "redux-slice"))

; a slice's reducers: { projectAdded(state, action) { … } }, or reducers: (create) => ({ … });
; an API's endpoints: (build) => ({ getProjects: build.query(…) })
((call_expression
  function: (_) @_make
  arguments: (arguments
    .
    (object
      (pair
        key: (_) @_part
        value: [(object
                  [(pair key: (_) @store.key)
                   (method_definition name: (_) @store.key)
                   (shorthand_property_identifier) @store.key])
                (arrow_function
                  body: [(parenthesized_expression
                           (object
                             [(pair key: (_) @store.key)
                              (method_definition name: (_) @store.key)
                              (shorthand_property_identifier) @store.key]))
                         (statement_block
                           (return_statement
                             (object
                               [(pair key: (_) @store.key)
                                (method_definition name: (_) @store.key)
                                (shorthand_property_identifier) @store.key])))])
                (function_expression
                  body: (statement_block
                    (return_statement
                      (object
                        [(pair key: (_) @store.key)
                         (method_definition name: (_) @store.key)
                         (shorthand_property_identifier) @store.key]))))]))))
  (#match? @_make "(^|\\.)(createSlice|createApi)$")
  (#match? @_part "^(reducers|.reducers.|endpoints|.endpoints.)$")
  (#not-match? @store.key "^\\["))

; const api = createApi({ reducerPath: 'api', endpoints: (build) => ({ getProjects… }) })
((variable_declarator
  name: (_) @store.var
  value: [(call_expression function: (_) @_make) (parenthesized_expression (call_expression function: (_) @_make))] @store.scope)
  (#match? @_make "(^|\\.)createApi$")
  (#set! kind "rtk-query"))

((variable_declarator
  value: [(call_expression function: (_) @_make arguments: (arguments . (object (pair key: (_) @_name value: [(string) (template_string)] @store.name))))
          (parenthesized_expression (call_expression function: (_) @_make arguments: (arguments . (object (pair key: (_) @_name value: [(string) (template_string)] @store.name)))))] @store.scope)
  (#match? @_make "(^|\\.)createApi$")
  (#match? @_name "^(reducerPath|.reducerPath.)$")
  (#not-match? @store.name "\\$\\{")
  (#set! kind "rtk-query"))


; export const store = configureStore({ reducer: { projects: projectsReducer } })
((variable_declarator
  name: (_) @store.var
  value: [(call_expression function: (_) @_make) (parenthesized_expression (call_expression function: (_) @_make))] @store.scope)
  (#match? @_make "(^|\\.)configureStore$")
  (#set! kind "redux-store"))

((call_expression
  function: (_) @_make
  arguments: (arguments
    .
    (object
      (pair
        key: (_) @_part
        value: (object
          [(pair key: (_) @store.key)
           (method_definition name: (_) @store.key)
           (shorthand_property_identifier) @store.key])))))
  (#match? @_make "(^|\\.)configureStore$")
  (#match? @_part "^(reducer|.reducer.)$")
  (#not-match? @store.key "^\\["))
