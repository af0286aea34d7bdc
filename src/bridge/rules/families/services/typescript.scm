; framework: typescript
; language: typescript
; needles: Service
; Methods a TypeScript service class keeps to itself (`script.scm` finds the service).

; private refresh() { … }, protected audit() { … }
((method_definition
  (accessibility_modifier) @_access
  name: (_) @service.private)
  (#not-eq? @_access "public"))
