; Shared by next/app and remix/routes: what a handler (`endpoint.body`) says of its request.

; an auth check handed the request: requireUserId(request), authenticator.isAuthenticated(request, …)
((call_expression
  function: [(identifier) (member_expression)] @check.name
  arguments: (arguments (identifier) @_request))
  (#any-of? @_request "request" "req" "ctx" "context" "event" "args")
  (#check-name? @check.name))

; const json = await req.json()
((variable_declarator
  name: (identifier) @body.var
  value: (_) @_value)
  (#match? @_value "\\.json\\(\\)|\\.body|formData\\(\\)"))

; postPatchSchema.parse(json), schema.safeParse(await req.json())
((call_expression
  function: (member_expression
    object: [(identifier) (member_expression)] @parse.schema
    property: (property_identifier) @_parse)
  arguments: (arguments . (_) @parse.value))
  (#match? @_parse "^(parse|parseAsync|safeParse|safeParseAsync|validate|validateSync)$"))

; a handler exported by name (`export { handler as GET }`): its function
(function_declaration name: (identifier) @function.name) @function.scope
(variable_declarator
  name: (identifier) @function.name
  value: [(arrow_function) (function_expression)] @function.scope)
