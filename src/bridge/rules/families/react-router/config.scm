; framework: react-router
; language: javascript
; paths: app/routes.
; needles: route( | index( | prefix(
; React Router framework mode's route config (`app/routes.ts`): `route("about",
; "routes/about.tsx", [children])`, `index("routes/home.tsx")`, `...prefix("projects", [...])`;
; `layout(file, [...])` adds nothing to its children's paths.

((call_expression
  function: (identifier) @_route
  arguments: (arguments . (string) @client_route.path . (string)? @client_route.component))
  (#eq? @_route "route"))

((call_expression
  function: (identifier) @_route
  arguments: (arguments . (string) @client_route.path (array) @client_route.scope))
  (#eq? @_route "route"))

((call_expression
  function: (identifier) @_index
  arguments: (arguments . (string) @client_route.component)) @client_route.index
  (#eq? @_index "index"))

((call_expression
  function: (identifier) @_prefix
  arguments: (arguments . (string) @client_route.prefix (array) @client_route.scope))
  (#eq? @_prefix "prefix"))
