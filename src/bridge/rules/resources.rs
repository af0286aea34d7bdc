//! Resource routes: one line of routing code that stands for several endpoints, expanded by
//! the conventions of the framework a rule names with `#set! expand "<framework>"` (the call,
//! captured as `<fact>.style`, picks the kind: `resources`/`resource`, `apiResource`): Rails'
//! `resources :articles` / `resource :profile` (and the nesting, member and collection paths
//! their blocks give), Laravel's `Route::resource` / `Route::apiResource`, Devise's
//! `devise_for :users`.

use super::hits::Hit;
use super::naming::singular;
use super::options;
use super::paths::join;
use super::text::literal;

/// An expansion style a rule names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// `resources :articles`: index, create, new, edit, show, update, destroy.
    RailsPlural,
    /// `resource :profile`: a singular resource, no index and no `:id`.
    RailsSingular,
    /// `Route::resource('photos', PhotoController::class)`.
    Laravel,
    /// `Route::apiResource('photos', …)`: no `create` and `edit` forms.
    LaravelApi,
    /// `devise_for :users`: the sessions, passwords and registrations routes.
    Devise,
}

impl Style {
    /// The style `#set! expand` names for a framework, by the call the rule captures as
    /// `<fact>.style` (`resources` or `resource`, `resource` or `apiResource`).
    fn named(expand: &str, call: Option<&str>) -> Option<Style> {
        Some(match (expand, call.unwrap_or("")) {
            ("rails", "resource") => Style::RailsSingular,
            ("rails", _) => Style::RailsPlural,
            ("laravel", "apiResource" | "apiResources") => Style::LaravelApi,
            ("laravel", _) => Style::Laravel,
            ("devise", _) => Style::Devise,
            _ => return None,
        })
    }
}

/// One route a resource stands for, its path relative to where the resource is declared.
#[derive(Debug, Clone, PartialEq)]
pub struct Route {
    pub method: &'static str,
    pub path: String,
    pub handler: String,
}

/// A resource declaration: its style, name (`articles`, `articles/{article}/comments`,
/// `photos.comments`), the parameter its member paths use, and its controller.
#[derive(Debug, Clone)]
pub struct Resource {
    style: Style,
    name: String,
    param: Option<String>,
    controller: Option<String>,
    /// The path written in place of the name (Rails' `path: 'images'`).
    path: Option<String>,
    /// The actions `only`/`except` keep or leave out (as written, `:show` or `'index'`).
    only: Vec<String>,
    except: Vec<String>,
    /// Renamed path words (Devise's `path_names: { sign_in: :login }`).
    renamed: Vec<(String, String)>,
}

impl Resource {
    /// The resource a hit declares with `<fact>.resource` (`endpoint` or `prefix`), if the
    /// pattern names an expansion style.
    /// Its options are the hit's `<fact>.option` pairs and its `<fact>.only`/`<fact>.except`
    /// captures, or the `<fact>.chain_args` of a call chained on it whose `<fact>.chain` name is
    /// `only`/`except` (Laravel's `->only([…])`).
    pub fn of(hit: &Hit<'_>, fact: &str) -> Option<Resource> {
        let name = hit.text(&format!("{fact}.resource"))?;
        let set = options::of(hit, fact);
        let listed = |key: &str| options::listed(hit, fact, &set, key);
        let renamed = options::words_of(&set, "path_names");
        Some(Resource {
            style: Style::named(hit.prop("expand")?, hit.text(&format!("{fact}.style")))?,
            name: literal(name),
            param: options::first(&set, "param"),
            controller: hit
                .text("endpoint.handler")
                .map(controller_name)
                .or_else(|| options::first(&set, "controller")),
            path: options::first(&set, "path"),
            only: listed("only"),
            except: listed("except"),
            renamed: renamed
                .chunks(2)
                .filter_map(|pair| Some((pair.first()?.clone(), pair.get(1)?.clone())))
                .collect(),
        })
    }

    /// The path segment of the resource's own name.
    fn base(&self) -> String {
        let name = match self.style {
            // `photos.comments`: each parent's member path, then the last name.
            Style::Laravel | Style::LaravelApi => {
                let (parents, last) = self.name.rsplit_once('.').unwrap_or(("", &self.name));
                let parents = parents
                    .split('.')
                    .filter(|part| !part.is_empty())
                    .map(|part| format!("{part}/{{{}}}", singular(part.rsplit('/').next().unwrap_or(part))));
                parents.chain([last.to_owned()]).collect::<Vec<_>>().join("/")
            }
            _ => self.path.clone().unwrap_or_else(|| self.name.clone()),
        };
        join("", &name)
    }

    /// The last word of the name: `articles/{article}/comments` → `comments`.
    fn word(&self) -> &str {
        self.name.rsplit(['/', '.']).next().unwrap_or(&self.name)
    }

    /// The member path: `articles/:id`, `articles/:slug` (Rails `param:`), `photos/{photo}`.
    pub fn member(&self) -> String {
        match self.style {
            Style::RailsPlural => join(&self.base(), &format!(":{}", self.param.as_deref().unwrap_or("id"))),
            // Laravel names the parameter by the snake-case singular: `playlist-folders` → `{playlist_folder}`.
            Style::Laravel | Style::LaravelApi => join(
                &self.base(),
                &format!("{{{}}}", singular(&self.word().replace('-', "_"))),
            ),
            Style::RailsSingular | Style::Devise => join(&self.base(), ""),
        }
    }

    /// The collection path: `articles`.
    pub fn collection(&self) -> String {
        join(&self.base(), "")
    }

    /// The path the routes declared inside the resource's block sit under:
    /// `articles/:article_id`, `articles/:article_slug`; a singular resource's own path.
    pub fn nested(&self) -> String {
        match self.style {
            Style::RailsPlural => join(
                &self.base(),
                &format!(":{}_{}", singular(self.word()), self.param.as_deref().unwrap_or("id")),
            ),
            _ => self.member(),
        }
    }

    /// The controller its routes go to: `articles` for Rails (a singular resource's is plural
    /// too), the class a Laravel route names.
    pub fn controller(&self) -> String {
        match (self.style, &self.controller) {
            (Style::Devise, _) => self.word().to_owned(),
            (_, Some(controller)) => controller.clone(),
            (Style::RailsSingular, None) => super::naming::plural(self.word()),
            (Style::Laravel | Style::LaravelApi, None) => String::new(),
            (Style::RailsPlural, None) => self.word().to_owned(),
        }
    }

    /// A handler for `action` of this resource's controller: `articles#feed`, `PhotoController@show`.
    pub fn handler(&self, action: &str) -> String {
        match self.style {
            Style::Laravel | Style::LaravelApi => format!("{}@{action}", self.controller()),
            Style::Devise => format!("devise/{action}"),
            _ => format!("{}#{action}", self.controller()),
        }
    }

    /// The routes the declaration stands for, in the order the framework lists them, with
    /// `only`/`except` applied (action names as written: `:show`, `'index'`) and the path
    /// words `path_names:` renames (Devise's registration path is empty unless renamed).
    pub fn routes(&self) -> Vec<Route> {
        let word = |word: &str| {
            let renamed = self.renamed.iter().find(|(from, _)| from == word);
            renamed.map_or_else(
                || if word == "registration" { "" } else { word }.to_owned(),
                |(_, to)| to.clone(),
            )
        };
        let table = match self.style {
            Style::RailsPlural => RAILS_PLURAL,
            Style::RailsSingular => RAILS_SINGULAR,
            Style::Laravel | Style::LaravelApi => LARAVEL,
            Style::Devise => DEVISE,
        };
        let api = self.style == Style::LaravelApi;
        table
            .iter()
            .filter(|(action, ..)| self.style == Style::Devise || options::keeps(&self.only, &self.except, action))
            .filter(|(action, ..)| !(api && matches!(*action, "create" | "edit")))
            .map(|&(action, method, under, tail)| {
                let base = match under {
                    Under::Collection => self.collection(),
                    Under::Member => self.member(),
                    Under::Word(under) => join(&self.collection(), &word(under)),
                };
                Route {
                    method,
                    path: join(&base, &word(tail)),
                    handler: self.handler(action),
                }
            })
            .collect()
    }
}

/// The path a convention's route is under, before its own word: the resource's collection
/// path, its member path, or a word after the collection path (Devise's `password`).
#[derive(Clone, Copy)]
enum Under {
    Collection,
    Member,
    Word(&'static str),
}

use Under::{Collection, Member, Word};

/// A route of a convention: its action, method, the path it is under and the word after it.
type Convention = (&'static str, &'static str, Under, &'static str);

/// `resources :articles`.
const RAILS_PLURAL: &[Convention] = &[
    ("index", "GET", Collection, ""),
    ("create", "POST", Collection, ""),
    ("new", "GET", Collection, "new"),
    ("edit", "GET", Member, "edit"),
    ("show", "GET", Member, ""),
    ("update", "PATCH", Member, ""),
    ("update", "PUT", Member, ""),
    ("destroy", "DELETE", Member, ""),
];

/// `resource :profile`.
const RAILS_SINGULAR: &[Convention] = &[
    ("new", "GET", Member, "new"),
    ("edit", "GET", Member, "edit"),
    ("show", "GET", Member, ""),
    ("update", "PATCH", Member, ""),
    ("update", "PUT", Member, ""),
    ("destroy", "DELETE", Member, ""),
    ("create", "POST", Member, ""),
];

/// `Route::resource` (`apiResource` leaves out `create` and `edit`).
const LARAVEL: &[Convention] = &[
    ("index", "GET", Collection, ""),
    ("create", "GET", Collection, "create"),
    ("store", "POST", Collection, ""),
    ("show", "GET", Member, ""),
    ("edit", "GET", Member, "edit"),
    ("update", "PUT", Member, ""),
    ("update", "PATCH", Member, ""),
    ("destroy", "DELETE", Member, ""),
];

/// `devise_for :users`: the sessions, passwords and registrations routes.
const DEVISE: &[Convention] = &[
    ("sessions#new", "GET", Collection, "sign_in"),
    ("sessions#create", "POST", Collection, "sign_in"),
    ("sessions#destroy", "DELETE", Collection, "sign_out"),
    ("passwords#new", "GET", Word("password"), "new"),
    ("passwords#edit", "GET", Word("password"), "edit"),
    ("passwords#update", "PATCH", Word("password"), ""),
    ("passwords#update", "PUT", Word("password"), ""),
    ("passwords#create", "POST", Word("password"), ""),
    ("registrations#cancel", "GET", Word("registration"), "cancel"),
    ("registrations#new", "GET", Word("registration"), "sign_up"),
    ("registrations#edit", "GET", Word("registration"), "edit"),
    ("registrations#update", "PATCH", Word("registration"), ""),
    ("registrations#update", "PUT", Word("registration"), ""),
    ("registrations#destroy", "DELETE", Word("registration"), ""),
    ("registrations#create", "POST", Word("registration"), ""),
];

/// A handler as a route names it: `[UserController::class, 'show']` → `UserController@show`,
/// `InvokableController::class` → `InvokableController`, `'sessions#new'` → `sessions#new`,
/// anything else as written.
pub fn handler(text: &str) -> String {
    let inner = text.trim();
    if let Some(list) = inner.strip_prefix('[').and_then(|t| t.strip_suffix(']'))
        && let Some((class, action)) = list.split_once(',')
    {
        return format!(
            "{}@{}",
            controller_name(class),
            literal(action.trim().trim_end_matches(','))
        );
    }
    if inner.ends_with("::class") {
        // An invokable controller.
        return controller_name(inner);
    }
    literal(inner)
}

/// `PhotoController::class`, `'Api\PhotoController'` → `PhotoController`.
fn controller_name(text: &str) -> String {
    let text = literal(text);
    let text = text.strip_suffix("::class").unwrap_or(&text);
    text.rsplit('\\').next().unwrap_or(text).to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resource(style: Style, name: &str, param: Option<&str>) -> Resource {
        Resource {
            style,
            name: name.into(),
            param: param.map(str::to_owned),
            controller: matches!(style, Style::Laravel | Style::LaravelApi).then(|| "PhotoController".into()),
            path: None,
            only: Vec::new(),
            except: Vec::new(),
            renamed: Vec::new(),
        }
    }

    fn with(mut resource: Resource, only: &[&str], except: &[&str]) -> Resource {
        resource.only = only.iter().map(|s| s.to_string()).collect();
        resource.except = except.iter().map(|s| s.to_string()).collect();
        resource
    }

    fn listed(routes: &[Route]) -> Vec<String> {
        routes
            .iter()
            .map(|r| format!("{} {} {}", r.method, r.path, r.handler))
            .collect()
    }

    #[test]
    fn rails_resources_expand_as_rails_routes_lists_them() {
        let articles = resource(Style::RailsPlural, "articles", None);
        assert_eq!(
            listed(&articles.routes()),
            [
                "GET /articles articles#index",
                "POST /articles articles#create",
                "GET /articles/new articles#new",
                "GET /articles/:id/edit articles#edit",
                "GET /articles/:id articles#show",
                "PATCH /articles/:id articles#update",
                "PUT /articles/:id articles#update",
                "DELETE /articles/:id articles#destroy",
            ]
        );
        assert_eq!(articles.nested(), "/articles/:article_id");
        let slugged = resource(Style::RailsPlural, "articles", Some("slug"));
        assert_eq!(slugged.nested(), "/articles/:article_slug");
        assert_eq!(slugged.member(), "/articles/:slug");
        let only = with(slugged, &[":show"], &[]).routes();
        assert_eq!(listed(&only), ["GET /articles/:slug articles#show"]);
        let mut photos = resource(Style::RailsPlural, "photos", None);
        (photos.path, photos.controller) = (Some("images".into()), Some("pictures".into()));
        assert_eq!(listed(&photos.routes()[..1]), ["GET /images pictures#index"]);
        assert_eq!(photos.nested(), "/images/:photo_id");
        let profile = resource(Style::RailsSingular, "profile", None);
        let except = with(profile, &[], &[":new", ":edit", ":destroy"]).routes();
        assert_eq!(
            listed(&except),
            [
                "GET /profile profiles#show",
                "PATCH /profile profiles#update",
                "PUT /profile profiles#update",
                "POST /profile profiles#create",
            ]
        );
    }

    #[test]
    fn laravel_resources_name_their_parameter_by_the_singular() {
        let photos = resource(Style::LaravelApi, "photos", None);
        assert_eq!(
            listed(&photos.routes()),
            [
                "GET /photos PhotoController@index",
                "POST /photos PhotoController@store",
                "GET /photos/{photo} PhotoController@show",
                "PUT /photos/{photo} PhotoController@update",
                "PATCH /photos/{photo} PhotoController@update",
                "DELETE /photos/{photo} PhotoController@destroy",
            ]
        );
        let nested = resource(Style::Laravel, "photos.comments", None);
        assert_eq!(nested.member(), "/photos/{photo}/comments/{comment}");
        let written = resource(Style::Laravel, "articles/{article}/comments", None);
        let only = with(written, &["'index'"], &[]).routes();
        assert_eq!(
            listed(&only),
            ["GET /articles/{article}/comments PhotoController@index"]
        );
        assert_eq!(controller_name("'Api\\CommentController'"), "CommentController");
        assert_eq!(controller_name("PhotoController::class"), "PhotoController");
        assert_eq!(handler("[UserController::class, 'show']"), "UserController@show");
        assert_eq!(handler("LogoutController::class"), "LogoutController");
        assert_eq!(
            handler("[FolderController::class, 'destroy',]"),
            "FolderController@destroy"
        );
        assert_eq!(
            resource(Style::LaravelApi, "playlist-folders", None).member(),
            "/playlist-folders/{playlist_folder}"
        );
    }

    #[test]
    fn devise_routes_take_renamed_paths() {
        let mut users = resource(Style::Devise, "users", None);
        users.renamed = vec![("sign_in".into(), "login".into())];
        let routes = users.routes();
        assert_eq!(routes.len(), 15);
        assert_eq!(
            listed(&routes[..2]),
            [
                "GET /users/login devise/sessions#new",
                "POST /users/login devise/sessions#create"
            ]
        );
    }
}
