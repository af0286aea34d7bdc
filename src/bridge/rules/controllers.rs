//! Guards a controller class declares for its actions, joined to the endpoints whose handler
//! names that controller (the routes live in another file): Rails' `before_action
//! :authenticate_user!, except: [:index]` (and `skip_before_action`; the
//! `ApplicationController`'s hold for every controller), Laravel's
//! `$this->middleware('auth')->only([…])` in a constructor. A rule captures `guard.controller`
//! (the class) with `guard.name`, the actions as `guard.only`/`guard.except` or in
//! `guard.options`; a guard taken off is captured as `guard.skipped`. A controller inherits
//! the guards of the classes it extends (`controller.name` < `controller.base`; one that names
//! none extends the `ApplicationController`). Controllers are keyed with their modules
//! (`Mod::StoriesController`, or `StoriesController` in `module Mod` captured as
//! `controller.module`, is `mod/stories`, as the handler `mod/stories#edit` names it).

use super::hits::Hit;
use super::naming::snake_case;
use super::options;
use crate::bridge::code_model::lineage::ancestry;
use crate::bridge::facts::Endpoint;
use crate::bridge::facts::push_once;

/// The base controller whose guards every controller inherits.
const BASE: &str = "application";

/// What a file says about controllers: the guards they declare, the classes they extend.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Declared {
    guards: Vec<ControllerGuard>,
    /// `(controller, base)`.
    bases: Vec<(String, String)>,
}

impl Declared {
    pub fn extend(&mut self, other: Declared) {
        self.guards.extend(other.guards);
        self.bases.extend(other.bases);
    }

    /// The key a handler's controller is declared under: itself, or the longest tail of its
    /// modules a controller is declared with (`api/v1/articles` → `v1/articles` for a class
    /// in `module V1`), else its class alone.
    fn resolve(&self, controller: &str) -> String {
        let declared = |key: &str| {
            self.guards.iter().any(|g| g.controller == key) || self.bases.iter().any(|(child, _)| child == key)
        };
        let tails = std::iter::successors(Some(controller), |at| Some(at.split_once('/')?.1));
        let last = tails.clone().last().unwrap_or(controller);
        tails.into_iter().find(|at| declared(at)).unwrap_or(last).to_owned()
    }

    /// The controller and (seven at most of) the classes it extends, the outermost first.
    fn lineage(&self, controller: &str) -> Vec<String> {
        let base = |class: &String| {
            self.bases
                .iter()
                .find(|(child, _)| child == class)
                .map(|(_, b)| b.clone())
        };
        let mut chain = ancestry(controller.to_owned(), 7, |class| base(class).into_iter().collect());
        // A class the app does not define (`Devise::SessionsController`, whose parent is the
        // app's own, or `ActionController::Base`) ends the line at the base.
        push_once(&mut chain, BASE.to_owned());
        chain.reverse();
        chain
    }
}

/// One guard a controller puts on (or takes off) its actions.
#[derive(Debug, Clone, PartialEq)]
pub struct ControllerGuard {
    controller: String,
    guard: String,
    only: Vec<String>,
    except: Vec<String>,
    skip: bool,
}

/// What one file's hits say about controllers.
pub fn declared(hits: &[Hit<'_>]) -> Declared {
    // A class matched inside its module and alone is the one inside its module.
    let class = |hit: &Hit<'_>| {
        hit.get("guard.controller")
            .or(hit.get("controller.name"))
            .map(|c| c.range.clone())
    };
    let in_module = |hit: &&Hit<'_>| hit.get("controller.module").is_some();
    let classes_in_module: Vec<_> = hits.iter().filter(in_module).filter_map(class).collect();
    let kept = |hit: &&Hit<'_>| in_module(hit) || !class(hit).is_some_and(|at| classes_in_module.contains(&at));
    let named = |hit: &Hit<'_>, capture: &str| -> Option<String> {
        let class = key(hit.text(capture)?);
        Some(match hit.text("controller.module") {
            Some(module) => format!("{}/{class}", key(module)),
            None => class,
        })
    };
    let bases = hits
        .iter()
        .filter(kept)
        .filter_map(|hit| Some((named(hit, "controller.name")?, key(hit.text("controller.base")?))))
        .collect();
    let guards = hits
        .iter()
        .filter(kept)
        .filter_map(|hit| {
            let controller = named(hit, "guard.controller")?;
            let skipped = hit.text("guard.skipped");
            let guard = super::assemble::guard(hit.text("guard.name").or(skipped)?);
            let set = options::of(hit, "guard");
            let listed = |key: &str| options::listed(hit, "guard", &set, key);
            Some(ControllerGuard {
                controller,
                guard,
                only: listed("only"),
                except: listed("except"),
                skip: skipped.is_some(),
            })
        })
        .collect();
    Declared { guards, bases }
}

/// A controller's key, from its class or a handler: `Api::ArticlesController`,
/// `ArticleController`, `api/articles` → `api/articles`, `article`, `api/articles` (a PHP
/// namespace is left out: handlers name the class alone).
fn key(text: &str) -> String {
    let text = text.rsplit('\\').next().unwrap_or(text);
    text.split("::")
        .flat_map(|part| part.split('/'))
        .filter(|part| !part.is_empty())
        .map(|part| snake_case(part.strip_suffix("Controller").unwrap_or(part)))
        .collect::<Vec<_>>()
        .join("/")
}

/// `articles#create` → (`articles`, `create`); `ArticleController@store` → (`article`, `store`).
fn controller_action(handler: &str) -> Option<(String, &str)> {
    let (controller, action) = handler.split_once('#').or_else(|| handler.split_once('@'))?;
    Some((key(controller), action))
}

/// Puts each declared guard on the endpoints of its controller's actions and of the
/// controllers that extend it (the outermost class's first, each in declaration order),
/// unless a skip in the lineage takes it off.
pub fn apply(endpoints: &mut [Endpoint], declared: &Declared) {
    if declared.guards.is_empty() {
        return;
    }
    let applies = |guard: &ControllerGuard, action: &str| options::keeps(&guard.only, &guard.except, action);
    for endpoint in endpoints {
        let Some((controller, action)) = endpoint.handler.as_deref().and_then(controller_action) else {
            continue;
        };
        let lineage = declared.lineage(&declared.resolve(&controller));
        let ordered = lineage
            .iter()
            .flat_map(|class| declared.guards.iter().filter(move |g| &g.controller == class));
        for guard in ordered.filter(|g| !g.skip && applies(g, action)) {
            let skipped = declared
                .guards
                .iter()
                .any(|s| s.skip && s.guard == guard.guard && lineage.contains(&s.controller) && applies(s, action));
            if !skipped {
                push_once(&mut endpoint.guards, guard.guard.clone());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn guard(controller: &str, name: &str, except: &[&str], skip: bool) -> ControllerGuard {
        ControllerGuard {
            controller: controller.into(),
            guard: name.into(),
            only: Vec::new(),
            except: except.iter().map(|s| s.to_string()).collect(),
            skip,
        }
    }

    fn endpoint(handler: &str) -> Endpoint {
        Endpoint {
            handler: Some(handler.into()),
            ..Endpoint::default()
        }
    }

    #[test]
    fn controller_guards_reach_the_actions_they_name() {
        let declared = Declared {
            guards: vec![
                guard("application", "authenticate_user", &[], false),
                guard("articles", "authenticate_user!", &["index", "show"], false),
                guard("tags", "authenticate_user", &[], true),
                guard("moderator", "require_moderator", &[], false),
            ],
            bases: vec![
                ("comments".into(), "moderator".into()),
                ("v1/posts".into(), "moderator".into()),
                ("tags".into(), "tags".into()),
                ("application".into(), "base".into()),
            ],
        };
        let mut endpoints = [
            endpoint("articles#create"),
            endpoint("articles#index"),
            endpoint("tags#index"),
            endpoint("mod/comments#destroy"),
            endpoint("api/v1/posts#create"),
        ];
        apply(&mut endpoints, &declared);
        assert_eq!(endpoints[0].guards, ["authenticate_user", "authenticate_user!"]);
        assert_eq!(endpoints[1].guards, ["authenticate_user"]);
        assert!(endpoints[2].guards.is_empty());
        assert_eq!(endpoints[3].guards, ["authenticate_user", "require_moderator"]);
        assert_eq!(endpoints[4].guards, ["authenticate_user", "require_moderator"]);
        assert_eq!(key("Api::ArticlesController"), "api/articles");
        assert_eq!(key("App\\Http\\Controllers\\PostController"), "post");
        assert_eq!(key("ArticleController"), "article");
        assert_eq!(
            controller_action("ArticleController@store"),
            Some(("article".into(), "store"))
        );
    }
}
