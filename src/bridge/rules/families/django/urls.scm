; framework: django
; language: python
; needles: urlpatterns | rest_framework | django
; Django URLconfs as the code extractor's linking reads them (`rules/django_urls.rs`): module
; variables holding lists of `path('items/<int:pk>/', view)`, `re_path(r'^api/', …)` and the
; old `url(…)` (a list written in an `include([…])` or `include(([…], 'namespace'))` nests
; under its pattern), `urlpatterns += router.urls`; the view a pattern names (a view,
; `View.as_view()` or a viewset's `as_view({'get': 'list'})`, `include('app.urls')`, one
; wrapped in an auth decorator: `login_required(views.profile)`); DRF routers
; (`router = DefaultRouter()`) and what they register (`router.register(r'articles', ViewSet)`).

; urlpatterns = [...], urlpatterns += [...], router = DefaultRouter(): a module variable
(module
  (expression_statement
    [(assignment left: (identifier) @urls.var right: (_) @urls.value)
     (augmented_assignment left: (identifier) @urls.var right: (_) @urls.value)]))

; path('x/', view), re_path(r'^x/$', view), url(…), path('x/', view=view): a pattern (of the
; list or include around it)
((call
   function: [(identifier) @_path (attribute attribute: (identifier) @_path)
              (identifier) @_regex (attribute attribute: (identifier) @_regex)]
   arguments: [(argument_list . (_) @urls.route . (_) @urls.view)
               (argument_list . (_) @urls.route (keyword_argument name: (identifier) @_view value: (_) @urls.view))]) @urls.pattern
  (#eq? @_path "path")
  (#any-of? @_regex "re_path" "url")
  (#eq? @_view "view")
  (#not-match? @urls.view "^[A-Za-z_][A-Za-z_0-9]*\\s*=[^=]")
  (#set! @_regex route "regex"))

; include('app.urls'), include(('app.urls', 'app'), namespace='v1'), include([path(…)]),
; include(router.urls): what the pattern includes
((call
   function: [(identifier) @_include (attribute attribute: (identifier) @_include)]
   arguments: (argument_list . [(tuple . (_) @urls.included) (_) @urls.included])) @urls.include
  (#eq? @_include "include")
  (#not-match? @urls.included "^\\("))

; ArticleView.as_view(), ArticleViewSet.as_view({'get': 'list', 'post': 'create'})
((call
   function: (attribute object: (_) @urls.class attribute: (identifier) @_as_view)
   arguments: (argument_list . (dictionary (pair key: (string (string_content) @urls.method))*)?)) @urls.as_view
  (#eq? @_as_view "as_view"))

; login_required(views.dashboard): a view behind an auth decorator
((call
   function: [(identifier) (attribute)] @urls.guard
   arguments: (argument_list . (_) @urls.wrapped)) @urls.wrapper
  (#auth-name? @urls.guard))

; router.urls: the routes a router makes
((attribute object: (_) @urls.router attribute: (identifier) @_urls) @urls.routes
  (#eq? @_urls "urls"))

; DefaultRouter(), routers.SimpleRouter(trailing_slash=False): a DRF router (the default one
; adds the API root view)
((call
   function: [(identifier) @_default (attribute attribute: (identifier) @_default)
              (identifier) @_router (attribute attribute: (identifier) @_router)]
   arguments: (argument_list) @urls.router_options) @urls.router_new
  (#eq? @_default "DefaultRouter")
  (#any-of? @_router "SimpleRouter" "ExtendedDefaultRouter" "NestedSimpleRouter")
  (#set! @_default root "api-root"))

; router.register(r'articles', ArticleViewSet, basename='article')
((module
   (expression_statement
     (call
       function: (attribute object: (identifier) @urls.receiver attribute: (identifier) @_register)
       arguments: (argument_list . (_) @urls.prefix . [(identifier) (attribute)] @urls.viewset))))
  (#eq? @_register "register"))
