; framework: fastapi
; language: python
; needles: fastapi | flask | APIRouter | Blueprint | include_router | register_blueprint | add_url_rule | .route( | ("/ | ('/
; The Python routers (FastAPI's and Flask's; `fastapi/`, `flask/` make them): what names a
; router, the functions handed one, the route decorators and the routes' signatures, a call
; handing a router to a function, auth decorators on a view. Captures are read by
; `route_units` into the mount graph.

; router = APIRouter(prefix="/users"), app = Flask(__name__)
(assignment
  left: (identifier) @router.bind
  right: (_) @router.value)

; def register_routes(app): … — calls on the parameter are the function's unit
(function_definition
  name: (identifier) @router.function
  parameters: (parameters (_) @router.param)
  body: (_) @router.scope)

; @router.get("/{id}", response_model=UserOut), @bp.route("/x", methods=["GET", "POST"]),
; @app.api_route("/x", methods=[…]): one route per method (`route` alone is a GET)
((decorated_definition
  (decorator
    (call
      function: (attribute object: (identifier) @route.receiver attribute: (identifier) @route.method)
      arguments: (argument_list
        .
        [(string) @route.path
         (concatenated_string) @route.path
         (identifier) @route.path
         (attribute) @route.path
         (binary_operator) @route.path
         (keyword_argument name: (identifier) @_path value: (_) @route.path)])) @route.call)
  definition: (function_definition name: (identifier) @route.handler)) @route.scope
  (#any-of? @route.method "get" "post" "put" "patch" "delete" "options" "head" "route" "api_route")
  (#eq? @_path "path")
  (#set! method "GET"))

; the options of a route call: `methods=["GET", "POST"]` (one capture per method),
; `response_model=list[UserOut]`
((keyword_argument
  name: (identifier) @_methods
  value: [(list (string (string_content) @option.method)) (tuple (string (string_content) @option.method))])
  (#eq? @_methods "methods"))

((keyword_argument name: (identifier) @_model value: (_) @route.model)
  (#eq? @_model "response_model"))

; what a route's handler takes: a typed parameter that is no dependency or query value may be
; its body, the return type its response
(typed_parameter type: (_) @route.hint)

((typed_default_parameter type: (_) @route.hint value: (_) @_default)
  (#not-match? @_default "^(Depends|Security|Query|Path|Header|Cookie|File|Form)"))

(function_definition return_type: (_) @route.response)

; @login_required, @jwt_required(), @token_auth.login_required on a view
((decorator
  [(identifier) @route.hook
   (attribute) @route.hook
   (call function: [(identifier) (attribute)] @route.hook)])
  (#auth-name? @route.hook)
  (#set! guard-kind "decorator"))

; register_routes(app), init_app(app): a function handed a router registers its routes on it
((call
  function: [(identifier) (attribute)] @include.target
  arguments: (argument_list (identifier) @include.receiver)) @include.call
  (#not-match? @include.target "^(print|len|str|int|float|bool|list|dict|set|tuple|type|isinstance|getattr|setattr|hasattr|super|range|enumerate|zip|sorted|repr|logger|logging)\\b")
  (#not-match? @include.target "\\.(include_router|register_blueprint|add_url_rule|route|api_route|get|post|put|patch|delete|options|head|append|extend|add|info|debug|warning|error|exception)$")
  (#set! pass "true"))

; @use_kwargs(user_schema), @use_args(UserSchema()), @blp.arguments(UserSchema), @ns.expect(m):
; the schema a POST to the view sends
((decorator
  (call
    function: [(identifier) (attribute)] @_reads
    arguments: (argument_list
      .
      [(identifier) @route.form (attribute) @route.form (call function: [(identifier) (attribute)] @route.form)])))
  (#match? @_reads "(^|\\.)(use_kwargs|use_args|arguments|expect)$"))
