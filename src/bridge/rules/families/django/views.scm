; framework: django
; language: python
; needles: urlpatterns | rest_framework | REST_FRAMEWORK | django.views | django.contrib.auth | django.urls
; Django and REST framework views as the URLconfs' linking reads them (`rules/django.rs`):
; module-level classes with their bases, handler and `@action` methods and view attributes,
; decorated function views, `x_view = XView.as_view()` aliases.

; A class written at module level (plain or decorated): only those are views.
(module
  [(class_definition name: (identifier) @view.class) @view.scope
   (decorated_definition definition: (class_definition name: (identifier) @view.class) @view.scope)])

; class ArticleViewSet(mixins.ListModelMixin, viewsets.GenericViewSet): one hit per base
(class_definition
  superclasses: (argument_list [(identifier) (attribute) (subscript) (call)] @view.base)) @view.scope

; def get(self, request): … — the handler methods (decorated or not)
((class_definition
  body: (block
    [(function_definition name: (identifier) @view.method) @view.method_scope
     (decorated_definition definition: (function_definition name: (identifier) @view.method) @view.method_scope)])) @view.scope
  (#any-of? @view.method
    "get" "post" "put" "patch" "delete" "head" "options"
    "list" "create" "retrieve" "update" "partial_update" "destroy"))

; @action(detail=True, methods=["post"], url_path="favorite") def favorite(self, …): one hit
; per keyword argument (and item of its list)
((class_definition
  body: (block
    (decorated_definition
      (decorator (call
        function: (_) @view.action_call
        arguments: (argument_list
          (keyword_argument
            name: (identifier) @view.key
            value: [(list (string (string_content) @view.str_item))
                    (tuple (string (string_content) @view.str_item))
                    (string (string_content) @view.str_item)
                    (_)] @view.value)?)))
      definition: (function_definition name: (identifier) @view.action) @view.method_scope))) @view.scope
  (#match? @view.action_call "(^|\\.)(action|detail_route|list_route)$"))

; permission_classes = [IsAuthenticated], serializer_class = X, lookup_field = "slug",
; http_method_names = ["get"], authentication_classes = (…), with their items
((class_definition
  body: (block
    (expression_statement
      (assignment
        left: (identifier) @view.attr
        right: [(list [(identifier) @view.name_item (attribute) @view.name_item (string (string_content) @view.str_item)])
                (tuple [(identifier) @view.name_item (attribute) @view.name_item (string (string_content) @view.str_item)])
                (string (string_content) @view.str_item)
                (_)] @view.value)))) @view.scope
  (#any-of? @view.attr
    "permission_classes" "authentication_classes" "serializer_class" "lookup_url_kwarg"
    "lookup_field" "http_method_names"))

; @method_decorator(login_required, name="dispatch") on a class
((decorated_definition
  (decorator (call
    function: (_) @_decorator
    arguments: (argument_list . [(identifier) (attribute) (call)] @view.class_guard)))
  definition: (class_definition) @view.scope)
  (#match? @_decorator "(^|\\.)method_decorator$"))

; serializer = self.get_serializer(data=request.data): what a method reads the body with (the
; callee's last name)
((call
  function: [(identifier) @view.body (attribute attribute: (identifier) @view.body)]
  arguments: (argument_list (keyword_argument name: (identifier) @_data)))
  (#eq? @_data "data")
  (#match? @view.body "(serializer_class|get_serializer|Serializer)$"))

; @api_view(["GET", "POST"]), @permission_classes([IsAuthenticated]), @login_required on a
; module-level function, one hit per decorator with the items of its first list
(module
  (decorated_definition
    (decorator
      [(identifier) @view.decorator
       (attribute) @view.decorator
       (call
         function: (_) @view.decorator
         arguments: (argument_list
           . [(list [(identifier) @view.name_item (attribute) @view.name_item (string (string_content) @view.str_item)])
              (tuple [(identifier) @view.name_item (attribute) @view.name_item (string (string_content) @view.str_item)])
              (_)]?))])
    definition: (function_definition name: (identifier) @view.function)) @view.scope)

; user_detail_view = UserDetailView.as_view()
((module
  (expression_statement
    (assignment
      left: (identifier) @view.alias
      right: (call function: (attribute object: (_) @view.alias_of attribute: (identifier) @_as)))))
  (#eq? @_as "as_view"))

; REST_FRAMEWORK = {"DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"]}
((module
  (expression_statement
    (assignment
      left: (identifier) @_settings
      right: (dictionary
        (pair
          key: (string (string_content) @_key)
          value: (_ (string (string_content) @view.default_permission)))))))
  (#eq? @_settings "REST_FRAMEWORK")
  (#eq? @_key "DEFAULT_PERMISSION_CLASSES"))
