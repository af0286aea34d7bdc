; framework: spring-security
; language: java
; needles: Matchers( | anyRequest
; A SecurityFilterChain's authorization rules, in order (`rules/matchers.rs` puts the first
; rule an endpoint matches on it): `.requestMatchers(HttpMethod.POST, "/api/admin/**")
; .hasRole("ADMIN")`, `.anyRequest().authenticated()`; `web.ignoring().requestMatchers(…)`
; lets requests through before any rule.

((method_invocation
  object: (method_invocation
    name: (identifier) @matcher.at
    arguments: (argument_list) @matcher.args)
  name: (identifier) @matcher.access
  arguments: (argument_list) @matcher.access_args)
  (#any-of? @matcher.at "requestMatchers" "antMatchers" "mvcMatchers" "anyRequest")
  (#any-of? @matcher.access "permitAll" "authenticated" "fullyAuthenticated" "hasRole" "hasAnyRole" "hasAuthority" "hasAnyAuthority" "access" "denyAll" "anonymous" "rememberMe"))

((method_invocation
  object: (method_invocation name: (identifier) @_ignoring)
  name: (identifier) @matcher.at
  arguments: (argument_list) @matcher.args)
  (#eq? @_ignoring "ignoring")
  (#any-of? @matcher.at "requestMatchers" "antMatchers" "mvcMatchers")
  (#set! access "permitAll")
  (#set! first "true"))
