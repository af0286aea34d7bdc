; framework: react-router
; language: jsx
; needles: <Route | element:
; inherits: react-router/table | react-router/elements
; React Router routes in JavaScript files (see react-router/elements).
