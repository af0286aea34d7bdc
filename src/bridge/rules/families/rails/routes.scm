; framework: rails
; language: ruby
; needles: routes.draw | resources | resource | namespace | scope | get | post | root
; paths: config/routes
; Rails' routing DSL (`config/routes.rb`): resources expanded by `#set! expand` (see
; rules/resources.rs), their blocks nesting what they hold, namespaces and scopes as prefixes.

; resources :articles, param: :slug, except: [:edit, :new] (`resources :photos, :videos`
; declares each); resource :profile, only: [:show, :update] (singular)
((call
  !receiver
  method: (identifier) @endpoint.style
  arguments: (argument_list [(simple_symbol) (string)] @endpoint.resource) @endpoint.options)
  (#any-of? @endpoint.style "resources" "resource")
  (#set! expand "rails"))

; resources :articles do … end: the routes inside are nested (/articles/:article_id/…)
((call
  !receiver
  method: (identifier) @prefix.style
  arguments: (argument_list . [(simple_symbol) (string)] @prefix.resource) @prefix.options
  block: [(do_block) (block)] @prefix.scope)
  (#any-of? @prefix.style "resources" "resource")
  (#set! expand "rails"))

; member do … end, collection do … end
((call
  !receiver
  method: (identifier) @prefix.on
  block: [(do_block) (block)] @prefix.scope)
  (#any-of? @prefix.on "member" "collection"))

; namespace :api do … end: a path prefix and the controllers' module (api/articles#index);
; scope '/v1' do … end, scope :api do … end: a path prefix
((call
  !receiver
  method: [(identifier) @_namespace (identifier) @_scope]
  arguments: (argument_list . [(simple_symbol) (string)] @prefix.path)
  block: [(do_block) (block)] @prefix.scope)
  (#eq? @_namespace "namespace")
  (#eq? @_scope "scope")
  (#set! @_namespace module "true"))

; scope path: '/v1' do … end
((call
  !receiver
  method: (identifier) @_scope
  arguments: (argument_list
    (pair key: [(hash_key_symbol) (simple_symbol)] @_key value: [(simple_symbol) (string)] @prefix.path))
  block: [(do_block) (block)] @prefix.scope)
  (#eq? @_scope "scope")
  (#match? @_key "^:?path$"))

; get 'login', to: 'sessions#new'; get :feed, on: :collection; match 'x', to: 'a#b', via: [:get, :post];
; post '/users/login' => 'sessions#create'
((call
  !receiver
  method: (identifier) @endpoint.method
  arguments: [(argument_list . [(simple_symbol) (string)] @endpoint.path) @endpoint.options
              (argument_list
                .
                (pair key: (string) @endpoint.path value: (string) @endpoint.handler)) @endpoint.options])
  (#any-of? @endpoint.method "get" "post" "put" "patch" "delete" "match"))

; root to: 'home#index'; root 'home#index'
((call
  !receiver
  method: (identifier) @endpoint.method
  arguments: [(argument_list . (pair)) @endpoint.options
              (argument_list . (string) @endpoint.handler .)])
  (#eq? @endpoint.method "root")
  (#set! method "GET"))

; devise_for :users, path_names: { sign_in: :login }
((call
  !receiver
  method: (identifier) @_devise
  arguments: (argument_list . (simple_symbol) @endpoint.resource) @endpoint.options)
  (#eq? @_devise "devise_for")
  (#set! expand "devise")
  (#set! framework "devise"))

; authenticate :user do … end (Devise): the routes inside need a signed-in user
((call
  !receiver
  method: (identifier) @guard.name
  block: [(do_block) (block)] @guard.scope)
  (#any-of? @guard.name "authenticate" "authenticated")
  (#set! framework "devise"))
