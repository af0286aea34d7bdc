; framework: express
; language: javascript
; needles: express | koa | fastify | Router( | app.use( | app.get( | app.post( | router.get( | router.post(
; The Node.js routers (Express, Koa, Fastify; `express/`, `koa/`, `fastify/` make them): what
; names an app or router, the functions handed one, the routes and mounts called on one, and
; the auth middleware a file defines. Captures are read by `route_units` into the mount graph.

; what an app or router made in the file is named by: `const app = …`, `module.exports = …`,
; `export default …` (a chain `Router().use(a).get(…)` starts where its constructor does)
(variable_declarator
  name: (identifier) @router.bind
  value: (_) @router.value)

((assignment_expression
  left: (member_expression) @_exports
  right: (_) @router.value)
  (#eq? @_exports "module.exports")
  (#set! bind "default"))

((export_statement
  value: (_) @router.value)
  (#set! bind "default"))

; a function handed a router registers on it: `function routes(app) { … }`,
; `export default (app: Router) => { … }`, `module.exports = (app) => { … }`
(function_declaration
  name: (identifier) @router.function
  parameters: (formal_parameters (_) @router.param)
  body: (_) @router.scope)

(function_expression
  name: (identifier) @router.function
  parameters: (formal_parameters (_) @router.param)
  body: (_) @router.scope)

(variable_declarator
  name: (identifier) @router.function
  value: [(arrow_function parameters: (formal_parameters (_) @router.param) body: (_) @router.scope)
          (arrow_function parameter: (identifier) @router.param body: (_) @router.scope)
          (function_expression parameters: (formal_parameters (_) @router.param) body: (_) @router.scope)])

((export_statement
  value: [(arrow_function parameters: (formal_parameters (_) @router.param) body: (_) @router.scope)
          (arrow_function parameter: (identifier) @router.param body: (_) @router.scope)
          (function_expression parameters: (formal_parameters (_) @router.param) body: (_) @router.scope)])
  (#set! function "default"))

((assignment_expression
  left: (member_expression) @_exports
  right: [(arrow_function parameters: (formal_parameters (_) @router.param) body: (_) @router.scope)
          (arrow_function parameter: (identifier) @router.param body: (_) @router.scope)
          (function_expression parameters: (formal_parameters (_) @router.param) body: (_) @router.scope)])
  (#eq? @_exports "module.exports")
  (#set! function "default"))

; a factory returning the router it makes stands for it:
; `export default () => { const router = Router(); …; return router; }`
((export_statement
  value: [(arrow_function body: (statement_block (return_statement (identifier) @router.returns)) @router.scope)
          (function_expression body: (statement_block (return_statement (identifier) @router.returns)) @router.scope)])
  (#set! function "default"))

(variable_declarator
  name: (identifier) @router.function
  value: [(arrow_function body: (statement_block (return_statement (identifier) @router.returns)) @router.scope)
          (function_expression body: (statement_block (return_statement (identifier) @router.returns)) @router.scope)])

; router.get('/users/:id', auth, validate(schema), users.show): path, middleware, handler
((call_expression
  function: (member_expression
    object: (_) @route.receiver
    property: (property_identifier) @route.method)
  arguments: [(arguments
                .
                [(string) (template_string) (identifier) (member_expression) (binary_expression)] @route.path
                .
                (_) @route.handler
                .)
              (arguments
                .
                [(string) (template_string) (identifier) (member_expression) (binary_expression)] @route.path
                .
                (_) @route.guard
                .
                (_)* @route.guard
                .
                (_) @route.handler
                .)]) @route.call
  (#match? @route.method "^(get|post|put|patch|delete|del|options|head|all)$"))

; router.route('/users/:id').get(show).put(auth, update): the path the chained calls take
((call_expression
  function: (member_expression
    object: (_) @route.receiver
    property: (property_identifier) @_route)
  arguments: (arguments . [(string) (template_string) (identifier)] @route.prefix .)) @route.call
  (#eq? @_route "route"))

((call_expression
  function: (member_expression
    object: (call_expression) @route.receiver
    property: (property_identifier) @route.method)
  arguments: [(arguments . (_) @route.handler .)
              (arguments . (_) @route.guard . (_)* @route.guard . (_) @route.handler .)]) @route.call
  (#match? @route.method "^(get|post|put|patch|delete|del|options|head|all)$")
  (#set! chained "true"))

; app.use('/api', auth, router), app.use(router), app.use(auth), app.use(require('./admin')),
; app.use(router.routes()), app.use(config.prefix, api()): a mount, or middleware alone
((call_expression
  function: (member_expression
    object: (_) @include.receiver
    property: (property_identifier) @_use)
  arguments: [(arguments . (_) @include.target .)
              (arguments . (_) @include.path . (_) @include.target .)
              (arguments . (_) @include.path . (_) @include.guard . (_)* @include.guard . (_) @include.target .)]) @include.call
  (#eq? @_use "use"))

; routes(app): a function handed a router registers its routes on it
((call_expression
  function: [(identifier) (member_expression)] @include.target
  arguments: (arguments (identifier) @include.receiver)) @include.call
  (#not-match? @include.target "^(console|JSON|Object|Array|Promise|Math|require|module|process|logger|res|req|ctx|reply|next)\\b")
  (#not-match? @include.target "\\.(use|get|post|put|patch|delete|del|all|options|head|route|register|listen|set|addHook|decorate)$")
  (#set! pass "true"))

; a request shape a route's middleware names (`validate(createUserSchema)`)
(call_expression
  function: [(identifier) (member_expression)]
  arguments: (arguments [(identifier) (member_expression)] @route.hint))

; … or its handler parses the body with (`checkoutSchema.parse(req.body)`)
((call_expression
  function: (member_expression
    object: [(identifier) (member_expression)] @route.parsed
    property: (property_identifier) @_parse)
  arguments: (arguments . (_) @_body))
  (#match? @_parse "^(parse|parseAsync|safeParse|safeParseAsync|validate|validateSync)$")
  (#match? @_body "(\\.body|\\.json\\(\\)|formData\\(\\)|^body$)"))

; mounts read from a table: `const routes = [{ path: '/v1/users', route: userRoute }, …];
; routes.forEach((entry) => router.use(entry.path, entry.route))`
(variable_declarator
  name: (identifier) @entry.table
  value: (array
    (object
      (pair key: (property_identifier) @entry.key value: (_) @entry.value)) @entry.scope))

((call_expression
  function: (member_expression
    object: (identifier) @each.table
    property: (property_identifier) @_each)
  arguments: (arguments
    .
    [(arrow_function parameters: (formal_parameters . (_) @each.param) body: (_) @each.scope)
     (arrow_function parameter: (identifier) @each.param body: (_) @each.scope)
     (function_expression parameters: (formal_parameters . (_) @each.param) body: (_) @each.scope)]))
  (#any-of? @_each "forEach" "map"))
