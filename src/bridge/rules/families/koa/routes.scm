; framework: koa
; language: javascript
; needles: koa
; Koa's apps and koa-router's routers (what is called on them: `node/receivers`).

; const app = new Koa()
((new_expression constructor: (identifier) @_new) @router.new
  (#eq? @_new "Koa")
  (#set! app "true"))

; const api = new Router({ prefix: '/api' })
((new_expression constructor: (identifier) @_new) @router.new
  (#match? @_new "^(Router|KoaRouter)$"))

((new_expression
  constructor: (identifier) @_new
  arguments: (arguments . (object (pair key: (property_identifier) @_prefix value: (_) @router.prefix)))) @router.new
  (#match? @_new "^(Router|KoaRouter)$")
  (#eq? @_prefix "prefix"))

; named routes: router.get('user', '/users/:id', handler)
((call_expression
  function: (member_expression
    object: (_) @route.receiver
    property: (property_identifier) @route.method)
  arguments: [(arguments . (string) . (string) @route.path . (_) @route.handler .)
              (arguments . (string) . (string) @route.path . (_) @route.guard . (_)* @route.guard . (_) @route.handler .)]) @route.call
  (#match? @route.method "^(get|post|put|patch|delete|del|options|head|all)$")
  (#match? @route.path "^.[/]")
  (#set! named "true"))

; the file's routers are Koa's
((_ source: (string (string_fragment) @router.uses))
  (#match? @router.uses "^(koa|@koa/router|koa-router)$"))

((call_expression
  function: (identifier) @_require
  arguments: (arguments . (string (string_fragment) @router.uses)))
  (#eq? @_require "require")
  (#match? @router.uses "^(koa|@koa/router|koa-router)$"))
