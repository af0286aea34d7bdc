//! Linking Django URLconfs: `include('app.urls')` to the module's `urlpatterns`, and the views
//! a pattern or router names (`view:ArticleView`, `viewset:ArticleViewSet|/`) to the routes
//! their classes give (see `django::expand`).

use super::Linker;
use crate::bridge::code_model::routes::django::expand::{Resolved, unknown_view};
use crate::bridge::code_model::routes::django::views::View;
use crate::bridge::code_model::routes::graph::{Item, UnitKey};
use crate::bridge::code_model::syntax::python::last_segment;
use crate::bridge::extract::code::modules::python::resolve_module;

impl Linker<'_> {
    /// `pymodule:conduit.apps.articles.urls` → that module's `urlpatterns`.
    pub(super) fn url_module(&self, from: usize, module: &str) -> Option<UnitKey> {
        let at = resolve_module(&self.index, &self.files[from].path, module)?;
        Some((self.files[at].path.to_owned(), "urlpatterns".to_owned()))
    }

    /// The routes a `view:…` or `viewset:…` reference written in file `from` stands for.
    pub(super) fn django_routes(&self, from: usize, reference: &str) -> Option<Vec<Item>> {
        let (kind, rest) = reference.split_once(':')?;
        if !matches!(kind, "view" | "viewset") {
            return None;
        }
        let (name, extra) = rest.split_once('|').unwrap_or((rest, ""));
        // `admin.site.urls` is another app's URLconf, not a view.
        let unknown =
            || (kind == "view" && !name.ends_with(".urls")).then(|| unknown_view(name, &self.files[from].path));
        let Some((at, view)) = self.django_view(from, name) else {
            return unknown();
        };
        let resolved = Resolved::of(at, view, &|at, base| self.django_view(at, base));
        if !resolved.known {
            return unknown();
        }
        let file = &self.files[at].path;
        let routes = match kind {
            "view" => resolved.routes(extra, &self.django_defaults, file),
            _ => resolved.router_routes(extra, &self.django_defaults, file),
        };
        // A view whose methods come from a library's base (`class Docs(SpectacularAPIView)`)
        // still answers at its URL.
        if routes.is_empty() { unknown() } else { Some(routes) }
    }

    /// The view a name written in file `from` stands for: imported (`from .views import X`,
    /// `views.X`), defined in the file, or the only one of that name in the run; a module's
    /// `x_view = XView.as_view()` stands for its class.
    fn django_view(&self, from: usize, name: &str) -> Option<(usize, &View)> {
        let (at, wanted) = self.view_place(from, name);
        self.view_named(at, &wanted).or_else(|| {
            let aliases = &self.files[at].routes.django.aliases;
            let (_, class) = aliases.iter().find(|(alias, _)| *alias == wanted)?;
            let (at, wanted) = self.view_place(at, class);
            self.view_named(at, &wanted)
        })
    }

    /// The file a view name written in file `from` is looked up in (the module an import
    /// names, else `from`) and the name it has there.
    fn view_place(&self, from: usize, name: &str) -> (usize, String) {
        let (at, name) = self.lead(from, name).unwrap_or((from, name.to_owned()));
        (at, last_segment(&name).to_owned())
    }

    /// View `name`: the one in file `at`, else the only view (or, with none, the only part)
    /// of that name in the run.
    fn view_named(&self, at: usize, name: &str) -> Option<(usize, &View)> {
        if let Some(view) = self.files[at].routes.django.views.iter().find(|v| v.name == name) {
            return Some((at, view));
        }
        let named: Vec<(usize, &View)> = self
            .files
            .iter()
            .enumerate()
            .flat_map(|(at, f)| f.routes.django.views.iter().map(move |v| (at, v)))
            .filter(|(_, v)| v.name == name)
            .collect();
        // Parts (mixins, bases) count only when no view has the name.
        let part = named.iter().all(|(_, v)| v.part);
        match named.iter().filter(|(_, v)| v.part == part).collect::<Vec<_>>()[..] {
            [only] => Some(*only),
            _ => None,
        }
    }
}
