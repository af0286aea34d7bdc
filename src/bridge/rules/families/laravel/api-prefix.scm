; framework: laravel
; language: php
; needles: Route::
; paths: routes/api.php
; Laravel's RouteServiceProvider loads `routes/api.php` under the `/api` prefix.

((program) @prefix.scope
  (#set! prefix "/api"))
