; framework: rust
; language: rust
; needles: env::var | env! | dotenv
; Environment variables Rust code reads.

; std::env::var("DATABASE_URL"), env::var_os("HOME"), dotenvy::var("KEY")
((call_expression
  function: (_) @_var
  arguments: (arguments . (string_literal) @env.name))
  (#match? @_var "(env::|^dotenvy?::)var(_os)?$")
  (#match? @env.name "^.[A-Za-z_][A-Za-z0-9_]*.$")
  (#set! source "std::env::var"))

; env!("CARGO_PKG_VERSION"), option_env!("GIT_HASH")
((macro_invocation
  macro: (_) @_macro
  (token_tree . (string_literal) @env.name))
  (#match? @_macro "(^|::)(env|option_env)$")
  (#match? @env.name "^.[A-Za-z_][A-Za-z0-9_]*.$")
  (#set! source "env!"))
