; framework: nestjs
; language: typescript
; needles: @Controller | setGlobalPrefix | CanActivate | NestMiddleware | APP_GUARD | forRoutes | PassportStrategy | AuthGuard
; NestJS: `@Controller('users')` (or `{ path: 'users' }`) classes whose `@Get(':id')`,
; `@Post()`, … methods are routes under the controller's prefix, named `Class.method`; the
; `@Body()` parameter's type is the request, `@ApiOkResponse({ type })` or the return type
; (`Promise<…>` unwrapped) the response. `@UseGuards(…)` on a class or a method guards its
; routes; `app.setGlobalPrefix('api')` prefixes every controller; `{ provide: APP_GUARD,
; useClass }` guards every route; `consumer.apply(M).forRoutes(…)` puts auth middleware on the
; routes it names. Classes implementing `CanActivate`, extending `AuthGuard('jwt')`, implementing
; `NestMiddleware` or extending `PassportStrategy(…)` are guards the code defines. A decorator
; belongs to the class or method declared right after it (`nest.rs`).

; classes and their methods, which the decorators before them belong to
(class_declaration name: (type_identifier) @decl.class)

(class_declaration
  name: (type_identifier) @decl.owner
  body: (class_body
    (method_definition
      name: (_) @decl.method
      return_type: (type_annotation (_) @decl.returns)?) @decl.scope))

; @Controller('users'), @Get(':id'), @UseGuards(JwtAuthGuard), @ApiOkResponse({ type: X })
((decorator
   (call_expression
     function: [(identifier) @_controller (identifier) @route.verb (identifier) @_guards (identifier) @_response]
     arguments: (arguments (_)* @decorator.argument))) @decorator.at
  (#eq? @_controller "Controller")
  (#any-of? @route.verb "Get" "Post" "Put" "Patch" "Delete" "Options" "Head" "All")
  (#eq? @_guards "UseGuards")
  (#any-of? @_response "ApiResponse" "ApiOkResponse" "ApiCreatedResponse" "ApiAcceptedResponse" "ApiDefaultResponse")
  (#set! @_controller role "controller")
  (#set! @_guards role "guards")
  (#set! @_response role "response"))

; what a decorator's or a call's array and object arguments hold: `@Get(['a', 'b'])`,
; `{ path: 'auth' }`, `{ type: [UserDto] }`, `forRoutes({ path, method })`
(arguments
  [(array (_) @argument.element)
   (object (pair key: (property_identifier) @argument.key value: (_) @argument.value))])

; create(@Body() dto: CreateUserDto): the request of the method around it
((required_parameter
   decorator: (decorator [(call_expression function: (identifier) @_body) (identifier) @_body])
   type: (type_annotation (_) @decl.request))
  (#eq? @_body "Body"))

; app.setGlobalPrefix('api'), consumer.apply(AuthMiddleware).forRoutes(…)
((call_expression
   function: (member_expression
     property: [(property_identifier) @_prefix (property_identifier) @_apply (property_identifier) @_routes])
   arguments: (arguments (_)* @app.argument)) @app.call
  (#eq? @_prefix "setGlobalPrefix")
  (#eq? @_apply "apply")
  (#eq? @_routes "forRoutes")
  (#set! @_prefix call "global-prefix")
  (#set! @_apply call "apply")
  (#set! @_routes call "for-routes"))

; { provide: APP_GUARD, useClass: JwtAuthGuard }: a guard on every route
((object
   (pair key: (property_identifier) @_provide value: (identifier) @_app_guard)
   (pair key: (property_identifier) @_use value: (identifier) @guard.global))
  (#eq? @_provide "provide")
  (#eq? @_app_guard "APP_GUARD")
  (#any-of? @_use "useClass" "useExisting")
  (#auth-name? @guard.global))

; class RolesGuard implements CanActivate, class JwtAuthGuard extends AuthGuard('jwt'), class
; AuthMiddleware implements NestMiddleware (auth-named ones)
((class_declaration
   name: (type_identifier) @guard.class
   (class_heritage
     [(implements_clause (type_identifier) @_guard)
      (implements_clause (type_identifier) @_middleware)
      (extends_clause value: (call_expression function: (identifier) @_guard))]))
  (#any-of? @_guard "CanActivate" "AuthGuard")
  (#eq? @_middleware "NestMiddleware")
  (#auth-name? @guard.class)
  (#set! @_guard kind "guard")
  (#set! @_middleware kind "middleware"))

; class JwtStrategy extends PassportStrategy(Strategy): a Passport strategy
((class_declaration
   name: (type_identifier) @guard.class
   (class_heritage (extends_clause value: (call_expression function: (identifier) @_strategy))))
  (#eq? @_strategy "PassportStrategy")
  (#set! kind "strategy"))
