; Shared by the react-router rules: route objects inside an array (`createBrowserRouter([...])`,
; `const routes: RouteObject[] = [...]`) with a `path` (a string, or a constant of the file) or
; `index: true`; `children` arrays nest routes under their parent's path; `Component: X`.

((array
  (object
    (pair
      key: (property_identifier) @_path
      value: [(string) (identifier)] @client_route.path)))
  (#eq? @_path "path"))

((array
  (object
    (pair
      key: (property_identifier) @_index
      value: (true) @client_route.index)))
  (#eq? @_index "index"))

((array
  (object
    (pair
      key: (property_identifier) @_path
      value: [(string) (identifier)] @client_route.path)
    (pair
      key: (property_identifier) @_children
      value: (array) @client_route.scope)))
  (#eq? @_path "path")
  (#eq? @_children "children"))

((array
  (object
    (pair
      key: (property_identifier) @_path
      value: [(string) (identifier)] @client_route.path)
    (pair
      key: (property_identifier) @_component
      value: (identifier) @client_route.component)))
  (#eq? @_path "path")
  (#eq? @_component "Component"))

; const PROJECTS = 'projects'
(program
  (lexical_declaration
    (variable_declarator
      name: (identifier) @constant.name
      value: (string) @constant.value)))
