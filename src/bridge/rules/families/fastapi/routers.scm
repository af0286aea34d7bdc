; framework: fastapi
; language: python
; needles: fastapi | APIRouter | include_router
; FastAPI: apps and routers with their prefixes, `include_router` mounts, and the auth a
; dependency brings (`Depends(get_current_user)`, `Security(…)`, `dependencies=[…]` on a
; route, a router or an include, `Annotated[User, Depends(…)]` aliases, security schemes).
; The routes on them: `python/routes`; the linker keeps the dependencies that are guards.

; app = FastAPI(), router = APIRouter(prefix="/users", dependencies=[Depends(auth)])
((call
  function: [(identifier) @_app (attribute) @_app (identifier) @_router (attribute) @_router]) @router.new
  (#match? @_app "(^|\\.)FastAPI$")
  (#match? @_router "(^|\\.)APIRouter$")
  (#set! @_app app "true"))

((call
  function: [(identifier) @_app (attribute) @_app (identifier) @_router (attribute) @_router]
  arguments: (argument_list (keyword_argument name: (identifier) @_prefix value: (_) @router.prefix))) @router.new
  (#match? @_app "(^|\\.)FastAPI$")
  (#match? @_router "(^|\\.)APIRouter$")
  (#eq? @_prefix "prefix")
  (#set! @_app app "true"))

; app.include_router(users.router, prefix="/users", dependencies=[…])
((call
  function: (attribute object: (identifier) @include.receiver attribute: (identifier) @_include)
  arguments: (argument_list . [(identifier) (attribute)] @include.target)) @include.call
  (#eq? @_include "include_router")
  (#set! mounts "true"))

((call
  function: (attribute object: (identifier) @include.receiver attribute: (identifier) @_include)
  arguments: (argument_list
    .
    [(identifier) (attribute)] @include.target
    (keyword_argument name: (identifier) @_prefix value: (_) @include.prefix))) @include.call
  (#eq? @_include "include_router")
  (#eq? @_prefix "prefix")
  (#set! mounts "true"))

; dependencies=[Depends(get_current_user), Depends(MetricsToken(…))] on a route, router or
; include: a guard when it names an auth check or a credential it reads (`#guard-name?`; not an optional one,
; `required=False`)
((keyword_argument
  name: (identifier) @_dependencies
  value: (list
    (call
      function: (_) @_depends
      arguments: [(argument_list
                    .
                    [(identifier) @call.guard
                     (attribute) @call.guard
                     (call function: [(identifier) (attribute)] @call.guard arguments: (_) @_args)])
                  (argument_list
                    (keyword_argument name: (identifier) @_dependency value: [(identifier) (attribute)] @call.guard))])))
  (#eq? @_dependencies "dependencies")
  (#eq? @_dependency "dependency")
  (#match? @_depends "(^|\\.)(Depends|Security)$")
  (#not-match? @_args "(required|auto_error)\\s*=\\s*False")
  (#guard-name? @call.guard)
  (#set! guard "written")
  (#set! guard-kind "dependency"))

; Depends(get_current_user), Security(partner_key), Depends(role_checker("admin")),
; Depends(dependency=get_user): what a
; handler (or an alias) depends on
((call
  function: (_) @_depends
  arguments: [(argument_list
                .
                [(identifier) @route.dependency
                 (attribute) @route.dependency
                 (call function: [(identifier) (attribute)] @route.dependency arguments: (_) @_args)])
              (argument_list
                (keyword_argument name: (identifier) @_dependency value: [(identifier) (attribute)] @route.dependency))])
  (#eq? @_dependency "dependency")
  (#match? @_depends "(^|\\.)(Depends|Security)$")
  (#not-match? @_args "(required|auto_error)\\s*=\\s*False"))

; current_user: CurrentUser, user = current_user_dep: names that may be aliases of a dependency
[(typed_parameter type: (type [(identifier) (attribute)] @route.alias))
 (typed_default_parameter type: (type [(identifier) (attribute)] @route.alias))
 (default_parameter value: (identifier) @route.alias)
 (typed_default_parameter value: (identifier) @route.alias)]

; CurrentUser = Annotated[User, Depends(get_current_user)], UserDep = Depends(get_user)
((module
  (expression_statement
    (assignment
      left: (identifier) @dependency.alias
      right: [(call) (subscript value: (identifier) @_annotated)] @dependency.value)))
  (#eq? @_annotated "Annotated"))

; oauth2_scheme = OAuth2PasswordBearer(…), class RWAPIKeyHeader(APIKeyHeader): security schemes
((module
  (expression_statement
    (assignment
      left: (identifier) @guard.scheme
      right: (call function: [(identifier) (attribute)] @_scheme))))
  (#match? @_scheme "(^|\\.)(OAuth2PasswordBearer|OAuth2AuthorizationCodeBearer|OAuth2|HTTPBearer|HTTPBasic|HTTPDigest|APIKeyHeader|APIKeyQuery|APIKeyCookie|OpenIdConnect)$"))

((class_definition
  name: (identifier) @guard.scheme
  superclasses: (argument_list [(identifier) (attribute)] @_scheme))
  (#match? @_scheme "(^|\\.)(OAuth2PasswordBearer|OAuth2AuthorizationCodeBearer|OAuth2|HTTPBearer|HTTPBasic|HTTPDigest|APIKeyHeader|APIKeyQuery|APIKeyCookie|OpenIdConnect)$"))

; a top-level function with an auth name: where a dependency used elsewhere is defined
((module
  [(function_definition name: (identifier) @guard.candidate)
   (decorated_definition definition: (function_definition name: (identifier) @guard.candidate))])
  (#auth-name? @guard.candidate)
  (#set! guard-kind "dependency"))

; the file's routers are FastAPI's
([(import_from_statement module_name: (dotted_name . (identifier) @router.uses))
  (import_statement name: (dotted_name . (identifier) @router.uses))]
  (#eq? @router.uses "fastapi")
  (#set! own-units "true"))
