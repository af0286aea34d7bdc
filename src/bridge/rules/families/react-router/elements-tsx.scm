; framework: react-router
; language: tsx
; needles: <Route | element:
; inherits: react-router/table | react-router/elements
; React Router routes in TSX files (see react-router/elements).
