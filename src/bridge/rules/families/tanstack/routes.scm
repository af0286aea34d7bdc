; framework: tanstack-router
; language: javascript
; needles: createFileRoute | createLazyFileRoute | createRoute | createRootRoute | createLazyRoute
; TanStack Router: `createFileRoute('/_auth/invoices/$invoiceId')({ component: InvoicePage })`
; (and `createLazyFileRoute`), `createRoute({ path, component })`: the route's URL by its id
; (`#set! path "tanstack"`: pathless `_layout` segments and `(groups)` left out, `posts_`
; un-nested, a pathless layout no route) and its page component; the components a route
; renders count as the file's exports (see react/components).

((call_expression
  function: (call_expression
    function: (identifier) @_make
    arguments: (arguments . (string) @client_route.path)))
  (#any-of? @_make "createFileRoute" "createLazyFileRoute")
  (#set! path "tanstack"))

((call_expression
  function: (call_expression
    function: (identifier) @_make
    arguments: (arguments . (string) @client_route.path))
  arguments: (arguments
    .
    (object
      (pair
        key: (property_identifier) @_component
        value: (identifier) @client_route.component))))
  (#any-of? @_make "createFileRoute" "createLazyFileRoute")
  (#eq? @_component "component")
  (#set! path "tanstack"))

((call_expression
  function: (identifier) @_make
  arguments: (arguments
    .
    (object
      (pair
        key: (property_identifier) @_path
        value: (string) @client_route.path))))
  (#eq? @_make "createRoute")
  (#eq? @_path "path")
  (#set! path "tanstack"))

((call_expression
  function: (identifier) @_make
  arguments: (arguments
    .
    (object
      (pair
        key: (property_identifier) @_path
        value: (string) @client_route.path)
      (pair
        key: (property_identifier) @_component
        value: (identifier) @client_route.component))))
  (#eq? @_make "createRoute")
  (#eq? @_path "path")
  (#eq? @_component "component")
  (#set! path "tanstack"))

((call_expression
  function: [(identifier) @_make (call_expression function: (identifier) @_make)]
  arguments: (arguments
    .
    (object
      (pair
        key: (property_identifier) @_option
        value: (identifier) @component.export))))
  (#any-of? @_make "createFileRoute" "createLazyFileRoute" "createRoute" "createRootRoute" "createRootRouteWithContext" "createLazyRoute")
  (#any-of? @_option "component" "pendingComponent" "errorComponent" "notFoundComponent"))
