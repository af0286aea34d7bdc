; framework: flask
; language: python
; needles: flask | Flask | Blueprint | register_blueprint | add_url_rule | before_request | before_app_request
; Flask: apps and blueprints with their `url_prefix`, `register_blueprint` mounts (whose
; `url_prefix` replaces the blueprint's own), `add_url_rule`, `before_request` hooks that check
; the user, the forms a view validates. The route decorators: `python/routes`.

; app = Flask(__name__), bp = Blueprint("auth", __name__, url_prefix="/auth")
((call
  function: [(identifier) @_app (attribute) @_app (identifier) @_blueprint (attribute) @_blueprint]) @router.new
  (#match? @_app "(^|\\.)Flask$")
  (#match? @_blueprint "(^|\\.)Blueprint$")
  (#set! @_app app "true"))

((call
  function: [(identifier) @_app (attribute) @_app (identifier) @_blueprint (attribute) @_blueprint]
  arguments: (argument_list (keyword_argument name: (identifier) @_prefix value: (_) @router.prefix))) @router.new
  (#match? @_app "(^|\\.)Flask$")
  (#match? @_blueprint "(^|\\.)Blueprint$")
  (#eq? @_prefix "url_prefix")
  (#set! @_app app "true"))

; app.register_blueprint(auth_bp, url_prefix="/auth")
((call
  function: (attribute object: (identifier) @include.receiver attribute: (identifier) @_register)
  arguments: (argument_list . [(identifier) (attribute)] @include.target)) @include.call
  (#eq? @_register "register_blueprint")
  (#set! mounts "true"))

((call
  function: (attribute object: (identifier) @include.receiver attribute: (identifier) @_register)
  arguments: (argument_list
    .
    [(identifier) (attribute)] @include.target
    (keyword_argument name: (identifier) @_prefix value: (_) @include.prefix))) @include.call
  (#eq? @_register "register_blueprint")
  (#eq? @_prefix "url_prefix")
  (#set! mounts "true")
  (#set! replace "true"))

; bp.add_url_rule("/x", view_func=show, methods=[…]), add_url_rule("/", "index", index) (its
; methods: `python/routes`)
((call
  function: (attribute object: (identifier) @route.receiver attribute: (identifier) @_add)
  arguments: (argument_list . (_) @route.path)) @route.call
  (#eq? @_add "add_url_rule")
  (#set! method "GET"))

((call
  function: (attribute object: (identifier) @route.receiver attribute: (identifier) @_add)
  arguments: [(argument_list
                .
                (_) @route.path
                (keyword_argument name: (identifier) @_view value: (_) @route.handler))
              (argument_list . (_) @route.path . (_) . [(identifier) (attribute) (call)] @route.handler)]) @route.call
  (#eq? @_add "add_url_rule")
  (#eq? @_view "view_func")
  (#set! method "GET"))

; @bp.before_request def require_login(): … checking the user: a guard on every route of the
; blueprint
((decorated_definition
  (decorator (attribute object: (identifier) @router.receiver attribute: (identifier) @_hook))
  definition: (function_definition name: (identifier) @router.guard)) @router.hook
  (#any-of? @_hook "before_request" "before_app_request")
  (#auth-name? @router.guard)
  (#set! guard "written"))

((decorated_definition
  (decorator (attribute object: (identifier) @router.receiver attribute: (identifier) @_hook))
  definition: (function_definition name: (identifier) @router.guard) @_body) @router.hook
  (#any-of? @_hook "before_request" "before_app_request")
  (#match? @_body "(abort\\(40[13]|nauthorized|verify_jwt|login_required|\\.login'\\)|\\.login\"\\))")
  (#set! guard "written"))

; form = LoginForm(): what a POST to the view sends
((call function: (identifier) @route.form)
  (#match? @route.form "Form$"))

; a top-level function with an auth name: where a decorator used elsewhere is defined
((module
  [(function_definition name: (identifier) @guard.candidate)
   (decorated_definition definition: (function_definition name: (identifier) @guard.candidate))])
  (#auth-name? @guard.candidate)
  (#set! guard-kind "decorator"))

; the file's blueprints are Flask's
([(import_from_statement module_name: (dotted_name . (identifier) @router.uses))
  (import_statement name: (dotted_name . (identifier) @router.uses))]
  (#eq? @router.uses "flask")
  (#set! own-units "true"))
