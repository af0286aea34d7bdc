; framework: fastify
; language: javascript
; needles: fastify
; Fastify: apps, plugins registered under a prefix (and `@fastify/autoload` folders), routes
; declared as objects, hooks guarding a plugin's routes (what else is called on them:
; `node/receivers`).

; const server = Fastify({ logger: true })
((call_expression function: (identifier) @_new) @router.new
  (#match? @_new "^[Ff]astify$")
  (#set! app "true"))

; server.register(plugin, { prefix: '/v1' }), server.register(import('./routes'))
((call_expression
  function: (member_expression object: (_) @include.receiver property: (property_identifier) @_register)
  arguments: (arguments . (_) @include.target)) @include.call
  (#eq? @_register "register")
  (#set! mounts "true"))

((call_expression
  function: (member_expression object: (_) @include.receiver property: (property_identifier) @_register)
  arguments: (arguments
    .
    (_) @include.target
    .
    (object (pair key: (property_identifier) @_prefix value: (_) @include.prefix)))) @include.call
  (#eq? @_register "register")
  (#eq? @_prefix "prefix")
  (#set! mounts "true"))

; fastify.register(AutoLoad, { dir: path.join(__dirname, 'routes'), options: { prefix } }):
; every plugin file under the folder (see `link::autoload`)
((call_expression
  function: (member_expression object: (_) @include.receiver property: (property_identifier) @_register)
  arguments: (arguments . (identifier) @_autoload . (object) @include.folder)) @include.call
  (#eq? @_register "register")
  (#match? @_autoload "(?i)autoload$")
  (#set! mounts "true"))

((pair
  key: (property_identifier) @_dir
  value: (call_expression arguments: (arguments . (_) @_here (string (string_fragment) @folder.part))))
  (#eq? @_dir "dir")
  (#match? @_here "(__dirname|import\\.meta)"))

((pair key: (property_identifier) @folder.flag value: [(true) (false)] @folder.value)
  (#any-of? @folder.flag "autoHooks" "cascadeHooks" "dirNameRoutePrefix" "routeParams"))

((pair key: (property_identifier) @_prefix value: (_) @folder.prefix)
  (#eq? @_prefix "prefix"))

; fastify.route({ method: ['PUT', 'PATCH'], url: '/:id', preHandler: auth, handler })
((call_expression
  function: (member_expression object: (_) @route.receiver property: (property_identifier) @_route)
  arguments: (arguments . (object) @route.options .)) @route.call
  (#eq? @_route "route"))

((pair key: (property_identifier) @_method value: [(string) @option.method (array (string) @option.method)])
  (#eq? @_method "method"))

((pair key: (property_identifier) @_url value: (_) @option.path)
  (#any-of? @_url "url" "path"))

((pair key: (property_identifier) @_handler value: (_) @option.handler)
  (#eq? @_handler "handler"))

; route hooks: `{ onRequest: [fastify.authenticate] }`, `preHandler: (req, reply) => req.isAdmin(reply)`
((pair
  key: (property_identifier) @_hook
  value: [(identifier) (member_expression)
          (array [(identifier) (member_expression)] @route.hook)
          (arrow_function body: [(call_expression function: (_) @route.hook)
                                 (await_expression (call_expression function: (_) @route.hook))])] @route.hook)
  (#any-of? @_hook "onRequest" "preParsing" "preValidation" "preHandler"))

; the request and response schemas a route's options name
((pair key: (property_identifier) @_body value: (identifier) @route.hint)
  (#eq? @_body "body"))

((pair key: (property_identifier) @_response value: (object (pair value: (identifier) @route.response)))
  (#eq? @_response "response"))

; fastify.addHook('onRequest', fastify.authenticate): a guard on every route of the plugin
((call_expression
  function: (member_expression object: (_) @router.receiver property: (property_identifier) @_add)
  arguments: (arguments . (string (string_fragment) @_hook) . [(identifier) (member_expression)] @router.guard)) @router.hook
  (#eq? @_add "addHook")
  (#any-of? @_hook "onRequest" "preParsing" "preValidation" "preHandler"))

; … or a hook that calls one (`await request.jwtVerify()`)
((call_expression
  function: (member_expression object: (_) @router.receiver property: (property_identifier) @_add)
  arguments: (arguments
    .
    (string (string_fragment) @_hook)
    .
    [(arrow_function body: [(call_expression function: (_) @router.guard)
                            (await_expression (call_expression function: (_) @router.guard))
                            (statement_block
                              [(expression_statement [(call_expression function: (_) @router.guard)
                                                      (await_expression (call_expression function: (_) @router.guard))])
                               (return_statement [(call_expression function: (_) @router.guard)
                                                  (await_expression (call_expression function: (_) @router.guard))])])])
     (function_expression body: (statement_block
                              [(expression_statement [(call_expression function: (_) @router.guard)
                                                      (await_expression (call_expression function: (_) @router.guard))])
                               (return_statement [(call_expression function: (_) @router.guard)
                                                  (await_expression (call_expression function: (_) @router.guard))])]))])) @router.hook
  (#eq? @_add "addHook")
  (#any-of? @_hook "onRequest" "preParsing" "preValidation" "preHandler")
  (#auth-name? @router.guard))

; … or a hook whose body checks the session or the token, named by the hook
((call_expression
  function: (member_expression object: (_) @router.receiver property: (property_identifier) @_add)
  arguments: (arguments . (string (string_fragment) @router.guard) . [(arrow_function) (function_expression)] @_body)) @router.hook
  (#eq? @_add "addHook")
  (#any-of? @router.guard "onRequest" "preParsing" "preValidation" "preHandler")
  (#match? @_body "(nauthorized|jwtVerify|uthenticat|authorization|session\\.user|401|403|orbidden)")
  (#set! named-by "hook"))

; fastify.decorate('authenticate', …), decorateRequest('isAdmin', isAdmin): a guard defined
((call_expression
  function: (member_expression property: (property_identifier) @_decorate)
  arguments: (arguments . (string (string_fragment) @guard.defined)))
  (#any-of? @_decorate "decorate" "decorateRequest")
  (#auth-name? @guard.defined))

; the file's plugins are Fastify's
((_ source: (string (string_fragment) @router.uses))
  (#eq? @router.uses "fastify"))

((call_expression
  function: (identifier) @_require
  arguments: (arguments . (string (string_fragment) @router.uses)))
  (#eq? @_require "require")
  (#eq? @router.uses "fastify"))
