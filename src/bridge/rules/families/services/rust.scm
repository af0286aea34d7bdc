; framework: rust
; language: rust
; needles: Service
; `impl …Service` blocks (inherent ones: their `pub fn`s; blocks of one type are one service)
; and `trait …Service` definitions (every method).

; impl LedgerService { … }, impl<T> CacheService<T> { … }
((impl_item
  !trait
  type: [(type_identifier) @service.name
        (scoped_type_identifier) @service.name
        (generic_type type: (_) @service.name)])
  (#match? @service.name "^.+Service$"))

; pub fn open_account(&self, …)
((impl_item
  !trait
  type: [(type_identifier) @service.name
        (scoped_type_identifier) @service.name
        (generic_type type: (_) @service.name)]
  body: (declaration_list
    (function_item
      (visibility_modifier)
      name: (identifier) @service.method)))
  (#match? @service.name "^.+Service$"))

; trait UserService { fn find(&self, id: i64) -> User; }
((trait_item
  name: (type_identifier) @service.name)
  (#match? @service.name "^.+Service$"))

((trait_item
  name: (type_identifier) @service.name
  body: (declaration_list
    [(function_item name: (identifier) @service.method)
     (function_signature_item name: (identifier) @service.method)]))
  (#match? @service.name "^.+Service$"))
