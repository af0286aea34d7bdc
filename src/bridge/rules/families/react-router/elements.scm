; Shared by react-router/elements-jsx and react-router/elements-tsx (JSX is in the JavaScript
; and TSX grammars, not in TypeScript's): `<Route path element>` nesting (v6, and v5's
; `component={X}`), and the `element: <X />` of route objects.

; <Route path="users/:userId" element={<AdminUser />} />, <Route index element={…} />
([(jsx_opening_element
   name: (identifier) @_route
   attribute: (jsx_attribute
     (property_identifier) @_path
     [(string) @client_route.path (jsx_expression (identifier) @client_route.path)]))
  (jsx_self_closing_element
   name: (identifier) @_route
   attribute: (jsx_attribute
     (property_identifier) @_path
     [(string) @client_route.path (jsx_expression (identifier) @client_route.path)]))]
  (#eq? @_route "Route")
  (#eq? @_path "path"))

([(jsx_opening_element
   name: (identifier) @_route
   attribute: (jsx_attribute (property_identifier) @client_route.index))
  (jsx_self_closing_element
   name: (identifier) @_route
   attribute: (jsx_attribute (property_identifier) @client_route.index))]
  (#eq? @_route "Route")
  (#eq? @client_route.index "index"))

; element={<AdminUser />}, component={AdminUser}
([(jsx_opening_element
   name: (identifier) @_route
   attribute: (jsx_attribute
     (property_identifier) @_at
     [(string) @client_route.path (jsx_expression (identifier) @client_route.path)])
   attribute: (jsx_attribute
     (property_identifier) @_element
     (jsx_expression
       [(jsx_self_closing_element name: (_) @client_route.component)
        (jsx_element open_tag: (jsx_opening_element name: (_) @client_route.component))
        (identifier) @client_route.component])))
  (jsx_self_closing_element
   name: (identifier) @_route
   attribute: (jsx_attribute
     (property_identifier) @_at
     [(string) @client_route.path (jsx_expression (identifier) @client_route.path)])
   attribute: (jsx_attribute
     (property_identifier) @_element
     (jsx_expression
       [(jsx_self_closing_element name: (_) @client_route.component)
        (jsx_element open_tag: (jsx_opening_element name: (_) @client_route.component))
        (identifier) @client_route.component])))]
  (#eq? @_route "Route")
  (#eq? @_at "path")
  (#any-of? @_element "element" "component" "Component"))

([(jsx_opening_element
   name: (identifier) @_route
   attribute: (jsx_attribute (property_identifier) @client_route.index)
   attribute: (jsx_attribute
     (property_identifier) @_element
     (jsx_expression
       [(jsx_self_closing_element name: (_) @client_route.component)
        (jsx_element open_tag: (jsx_opening_element name: (_) @client_route.component))])))
  (jsx_self_closing_element
   name: (identifier) @_route
   attribute: (jsx_attribute (property_identifier) @client_route.index)
   attribute: (jsx_attribute
     (property_identifier) @_element
     (jsx_expression
       [(jsx_self_closing_element name: (_) @client_route.component)
        (jsx_element open_tag: (jsx_opening_element name: (_) @client_route.component))])))]
  (#eq? @_route "Route")
  (#eq? @client_route.index "index")
  (#eq? @_element "element"))

; the <Route>s inside a <Route path>: each is a scope of the parent's path
((jsx_element
  open_tag: (jsx_opening_element
    name: (identifier) @_route
    attribute: (jsx_attribute
      (property_identifier) @_path
      [(string) @client_route.path (jsx_expression (identifier) @client_route.path)]))
  [(jsx_element) (jsx_self_closing_element)] @client_route.scope)
  (#eq? @_route "Route")
  (#eq? @_path "path"))

; { path: 'projects', element: <ProjectsPage /> }, { index: true, element: <HomePage /> }
((array
  (object
    (pair
      key: (property_identifier) @_path
      value: [(string) (identifier)] @client_route.path)
    (pair
      key: (property_identifier) @_element
      value: [(jsx_self_closing_element name: (_) @client_route.component)
              (jsx_element open_tag: (jsx_opening_element name: (_) @client_route.component))])))
  (#eq? @_path "path")
  (#eq? @_element "element"))

((array
  (object
    (pair
      key: (property_identifier) @_index
      value: (true) @client_route.index)
    (pair
      key: (property_identifier) @_element
      value: [(jsx_self_closing_element name: (_) @client_route.component)
              (jsx_element open_tag: (jsx_opening_element name: (_) @client_route.component))])))
  (#eq? @_index "index")
  (#eq? @_element "element"))
