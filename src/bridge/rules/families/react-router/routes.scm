; framework: react-router
; language: javascript
; needles: createBrowserRouter | createHashRouter | createMemoryRouter | createStaticRouter | useRoutes | RouteObject
; inherits: react-router/table
; React Router route objects (see react-router/table) in a file that makes a router or types
; its routes.
