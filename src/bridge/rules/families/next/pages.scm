; Shared by next/app and remix/routes: a file's default export is its page (`client_route.file`:
; the file's place makes the path, see `file_routes`), named by the function, class or name it
; exports.

((export_statement
  "default"
  [(function_declaration name: (identifier) @client_route.component)
   (class_declaration name: (_) @client_route.component)
   (identifier) @client_route.component]) @client_route.file)

((export_statement "default") @client_route.file)
