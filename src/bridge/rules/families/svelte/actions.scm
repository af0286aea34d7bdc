; framework: sveltekit
; language: javascript
; paths: +page.server.
; needles: actions
; A page's form actions (`export const actions = { default: …, login: … }`, also `{…} satisfies
; Actions`): POST to the page's path, a named action at `?/name` (`#set! path "file"`, see
; `file_routes`).

((export_statement
  declaration: (lexical_declaration
    (variable_declarator
      name: (identifier) @_actions
      value: [(object
                [(pair key: (property_identifier) @endpoint.action)
                 (method_definition name: (property_identifier) @endpoint.action)
                 (shorthand_property_identifier) @endpoint.action])
              (_
                .
                (object
                  [(pair key: (property_identifier) @endpoint.action)
                   (method_definition name: (property_identifier) @endpoint.action)
                   (shorthand_property_identifier) @endpoint.action]))])))
  (#eq? @_actions "actions")
  (#set! method "POST")
  (#set! path "file"))
