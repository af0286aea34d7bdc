; A route table: objects inside an array (`routes: [...]`, `const routes: RouteRecordRaw[] = [...]`)
; with a `path`; `children` arrays nest routes under their parent's path. Shared by `vue/router`
; (files that make a router) and `vue/route-modules` (route tables in modules of their own).

; { path: '/', name: 'home', component: Home }
((array
  (object
    (pair
      key: (property_identifier) @_path
      value: (string) @client_route.path)))
  (#eq? @_path "path"))

; component: Home, or component: () => import('./pages/Article.vue') (named by the imported file)
((array
  (object
    (pair
      key: (property_identifier) @_path
      value: (string) @client_route.path)
    (pair
      key: (property_identifier) @_component
      value: [(identifier) @client_route.component
              (arrow_function
                body: (call_expression
                  function: (import)
                  arguments: (arguments . (string) @client_route.module)))])))
  (#eq? @_path "path")
  (#eq? @_component "component"))

; { path: '/settings', children: [...] }: the children's paths are joined to the parent's
((array
  (object
    (pair
      key: (property_identifier) @_path
      value: (string) @client_route.path)
    (pair
      key: (property_identifier) @_children
      value: (array) @client_route.scope)))
  (#eq? @_path "path")
  (#eq? @_children "children"))
