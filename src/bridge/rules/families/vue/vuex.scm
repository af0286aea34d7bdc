; framework: vuex
; language: javascript
; needles: vuex
; Vuex modules registered on the store: `new Vuex.Store({ modules: { cart, auth: authModule } })`,
; `createStore({ modules: … })` (any call or `new` whose options register modules).

((_
  arguments: (arguments
    (object
      (pair
        key: (property_identifier) @_modules
        value: (object
          [(shorthand_property_identifier) @store.name
           (pair key: (property_identifier) @store.name)])))))
  (#eq? @_modules "modules")
  (#set! kind "vuex"))
