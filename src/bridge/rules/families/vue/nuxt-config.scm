; framework: nuxt
; language: javascript
; paths: nuxt.config.
; needles: runtimeConfig
; `runtimeConfig` keys in `nuxt.config`: each is set from the environment variable Nuxt names
; after it (`sessionSecret` → `NUXT_SESSION_SECRET`, `public.apiBase` → `NUXT_PUBLIC_API_BASE`;
; `#set! env-prefix`: the name is the prefix and the key in SCREAMING_SNAKE_CASE).

((call_expression
  function: (identifier) @_define
  arguments: (arguments
    (object
      (pair
        key: (property_identifier) @_config
        value: (object (pair key: (property_identifier) @env.name))))))
  (#eq? @_define "defineNuxtConfig")
  (#eq? @_config "runtimeConfig")
  (#not-eq? @env.name "public")
  (#set! env-prefix "NUXT_")
  (#set! source "runtimeConfig"))

((call_expression
  function: (identifier) @_define
  arguments: (arguments
    (object
      (pair
        key: (property_identifier) @_config
        value: (object
          (pair
            key: (property_identifier) @_public
            value: (object (pair key: (property_identifier) @env.name))))))))
  (#eq? @_define "defineNuxtConfig")
  (#eq? @_config "runtimeConfig")
  (#eq? @_public "public")
  (#set! env-prefix "NUXT_PUBLIC_")
  (#set! source "runtimeConfig"))
