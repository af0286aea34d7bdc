; framework: laravel
; language: php
; needles: Route::
; Laravel's router: `Route::get('/users/{id}', [UserController::class, 'show'])`, groups by
; `prefix`/`middleware`/`group`, resources expanded by `#set! expand` (see rules/resources.rs).

; Route::get('/users/{id}', [UserController::class, 'show']), Route::get('/', function () { … })
((scoped_call_expression
  scope: (name) @_route
  name: (name) @endpoint.method
  arguments: [
    (arguments
      .
      (argument [(string) (encapsed_string)] @endpoint.path)
      .
      (argument [(array_creation_expression) (string) (encapsed_string) (class_constant_access_expression)] @endpoint.handler))
    (arguments
      .
      (argument [(string) (encapsed_string)] @endpoint.path)
      .
      (argument [(anonymous_function) (arrow_function)]))])
  (#eq? @_route "Route")
  (#any-of? @endpoint.method "get" "post" "put" "patch" "delete" "options" "any"))

; Route::match(['put', 'patch'], 'user', …): one endpoint per method
((scoped_call_expression
  scope: (name) @_route
  name: (name) @_match
  arguments: (arguments
    .
    (argument (array_creation_expression (array_element_initializer [(string) (encapsed_string)] @endpoint.method)))
    .
    (argument [(string) (encapsed_string)] @endpoint.path)
    .
    (argument [(array_creation_expression) (string) (encapsed_string) (class_constant_access_expression)] @endpoint.handler)))
  (#eq? @_route "Route")
  (#eq? @_match "match"))

; Route::resource('photos', PhotoController::class, ['except' => ['create']]) and
; Route::apiResource(…) as a statement of their own
(expression_statement
  ((scoped_call_expression
    scope: (name) @_route
    name: (name) @endpoint.style
    arguments: (arguments
      .
      (argument [(string) (encapsed_string)] @endpoint.resource)
      .
      (argument (_) @endpoint.handler)) @endpoint.options)
    (#eq? @_route "Route")
    (#any-of? @endpoint.style "resource" "apiResource")
    (#set! expand "laravel")))

; Route::apiResource('posts', PostController::class)->only(['index', 'show']), ->except('show'),
; or another call after it (->names([…]), ->middleware(…)): `endpoint.chain` names the call
(expression_statement
  ((member_call_expression
    object: (scoped_call_expression
      scope: (name) @_route
      name: (name) @endpoint.style
      arguments: (arguments
        .
        (argument [(string) (encapsed_string)] @endpoint.resource)
        .
        (argument (_) @endpoint.handler)) @endpoint.options)
    name: (name) @endpoint.chain
    arguments: (arguments) @endpoint.chain_args)
    (#eq? @_route "Route")
    (#any-of? @endpoint.style "resource" "apiResource")
    (#set! expand "laravel")))

; Route::apiResource('songs', SongController::class)->except('update')->where([…])
(expression_statement
  ((member_call_expression
    object: (member_call_expression
      object: (scoped_call_expression
        scope: (name) @_route
        name: (name) @endpoint.style
        arguments: (arguments
          .
          (argument [(string) (encapsed_string)] @endpoint.resource)
          .
          (argument (_) @endpoint.handler)) @endpoint.options)
      name: (name) @endpoint.chain
      arguments: (arguments) @endpoint.chain_args))
    (#eq? @_route "Route")
    (#any-of? @endpoint.style "resource" "apiResource")
    (#any-of? @endpoint.chain "only" "except")
    (#set! expand "laravel")))

; Route::prefix('v1')->group(function () { … }), also after or before another call or two
; (Route::middleware('auth')->prefix('v1')->name('v1.')->group(…))
((member_call_expression
  object: [
    (scoped_call_expression scope: (name) @_route name: (name) @_prefix arguments: (arguments . (argument [(string) (encapsed_string)] @prefix.path)))
    (member_call_expression name: (name) @_prefix arguments: (arguments . (argument [(string) (encapsed_string)] @prefix.path)))
    (member_call_expression
      object: (scoped_call_expression name: (name) @_prefix arguments: (arguments . (argument [(string) (encapsed_string)] @prefix.path)))
      name: (name))
    (member_call_expression
      object: (member_call_expression name: (name) @_prefix arguments: (arguments . (argument [(string) (encapsed_string)] @prefix.path))))
    (member_call_expression
      object: (member_call_expression
        object: (scoped_call_expression name: (name) @_prefix arguments: (arguments . (argument [(string) (encapsed_string)] @prefix.path)))))]
  name: (name) @_group
  arguments: (arguments (argument [(anonymous_function) (arrow_function)] @prefix.scope)))
  (#eq? @_route "Route")
  (#eq? @_prefix "prefix")
  (#eq? @_group "group"))

; Route::group(['prefix' => 'v1', 'middleware' => 'auth'], function () { … })
((scoped_call_expression
  scope: (name) @_route
  name: (name) @_group
  arguments: (arguments
    .
    (argument (array_creation_expression
      (array_element_initializer . (string) @_key . [(string) (encapsed_string)] @prefix.path)))
    .
    (argument [(anonymous_function) (arrow_function)] @prefix.scope)))
  (#eq? @_route "Route")
  (#eq? @_group "group")
  (#match? @_key "^.prefix.$"))

((scoped_call_expression
  scope: (name) @_route
  name: (name) @_group
  arguments: (arguments
    .
    (argument (array_creation_expression
      (array_element_initializer
        .
        (string) @_key
        .
        [(string) @guard.name
     (encapsed_string) @guard.name
         (array_creation_expression (array_element_initializer [(string) (encapsed_string)] @guard.name))])))
    .
    (argument [(anonymous_function) (arrow_function)] @guard.scope)))
  (#eq? @_route "Route")
  (#eq? @_group "group")
  (#match? @_key "^.middleware.$")
  (#match? @guard.name "^.(auth|can:|role|permission|jwt|sanctum|passport|admin|verified)"))

; Route::middleware('auth:sanctum')->group(function () { … }) (also ['auth', …], and after or
; before another call or two)
((member_call_expression
  object: [
    (scoped_call_expression scope: (name) @_route name: (name) @_middleware arguments: (arguments . (argument
      [(string) @guard.name
     (encapsed_string) @guard.name
       (array_creation_expression (array_element_initializer [(string) (encapsed_string)] @guard.name))])))
    (member_call_expression name: (name) @_middleware arguments: (arguments . (argument
      [(string) @guard.name
     (encapsed_string) @guard.name
       (array_creation_expression (array_element_initializer [(string) (encapsed_string)] @guard.name))])))
    (member_call_expression
      object: (scoped_call_expression name: (name) @_middleware arguments: (arguments . (argument
      [(string) @guard.name
     (encapsed_string) @guard.name
       (array_creation_expression (array_element_initializer [(string) (encapsed_string)] @guard.name))])))
      name: (name))
    (member_call_expression
      object: (member_call_expression name: (name) @_middleware arguments: (arguments . (argument
      [(string) @guard.name
     (encapsed_string) @guard.name
       (array_creation_expression (array_element_initializer [(string) (encapsed_string)] @guard.name))]))))
    (member_call_expression
      object: (member_call_expression
        object: (scoped_call_expression name: (name) @_middleware arguments: (arguments . (argument
      [(string) @guard.name
     (encapsed_string) @guard.name
       (array_creation_expression (array_element_initializer [(string) (encapsed_string)] @guard.name))])))))]
  name: (name) @_group
  arguments: (arguments (argument [(anonymous_function) (arrow_function)] @guard.scope)))
  (#eq? @_route "Route")
  (#eq? @_middleware "middleware")
  (#eq? @_group "group")
  (#match? @guard.name "^.(auth|can:|role|permission|jwt|sanctum|passport|admin|verified)"))

; Route::get(…)->middleware('auth'): the route the chain starts with
((member_call_expression
  object: (_) @guard.scope
  name: (name) @_middleware
  arguments: (arguments . (argument
    [(string) @guard.name
     (encapsed_string) @guard.name
     (array_creation_expression (array_element_initializer [(string) (encapsed_string)] @guard.name))])))
  (#eq? @_middleware "middleware")
  (#match? @guard.name "^.(auth|can:|role|permission|jwt|sanctum|passport|admin|verified)"))

; Route::controller(OrderController::class)->group(function () { Route::get('/orders', 'index'); })
((member_call_expression
  object: (scoped_call_expression
    scope: (name) @_route
    name: (name) @_controller
    arguments: (arguments . (argument (_) @prefix.controller)))
  name: (name) @_group
  arguments: (arguments (argument [(anonymous_function) (arrow_function)] @prefix.scope)))
  (#eq? @_route "Route")
  (#eq? @_controller "controller")
  (#eq? @_group "group")
  (#set! handler "{controller}@{action}"))

; Route::view('/about', 'about') answers GET; Route::redirect('/here', '/there') any method
((scoped_call_expression
  scope: (name) @_route
  name: [(name) @_view (name) @_redirect]
  arguments: (arguments . (argument [(string) (encapsed_string)] @endpoint.path)))
  (#eq? @_route "Route")
  (#eq? @_view "view")
  (#any-of? @_redirect "redirect" "permanentRedirect")
  (#set! @_view method "GET")
  (#set! @_redirect method "ALL"))

; Route::resources(['photos' => PhotoController::class, …]), Route::apiResources([…])
((scoped_call_expression
  scope: (name) @_route
  name: (name) @endpoint.style
  arguments: (arguments
    .
    (argument (array_creation_expression
      (array_element_initializer . [(string) (encapsed_string)] @endpoint.resource . (_) @endpoint.handler)))))
  (#eq? @_route "Route")
  (#any-of? @endpoint.style "resources" "apiResources")
  (#set! expand "laravel"))