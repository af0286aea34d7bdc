//! Folders whose files are pages: Nuxt's `pages/` (or Nuxt 4's `app/pages/`) beside a
//! `nuxt.config`, and `src/pages/` of a Vue app whose Vite config makes its router from files
//! (`vue-router/vite`, `unplugin-vue-router`, `vite-plugin-pages`; `.md` pages where the
//! config lists the extension). `index` is its folder's path; `README` files are no pages.

use super::{folder_path, is_group};
use crate::bridge::facts::Route;
use crate::bridge::source::Source;

/// Text in a Vite config that says the router is made from files.
const FILE_ROUTERS: &[&str] = &["vue-router/vite", "unplugin-vue-router", "vite-plugin-pages"];

/// One app's pages folders.
pub struct Pages<'s> {
    /// The folder holding the app's config (`""` at the top).
    pub root: &'s str,
    dirs: &'static [&'static str],
    extensions: &'static [&'static str],
    pub framework: &'static str,
    /// Folders of layouts, which are no components either.
    layouts: Option<&'static str>,
}

impl<'s> Pages<'s> {
    /// The pages folders of the Nuxt and file-routed Vue apps among `sources`.
    pub fn of(sources: &[Source<'s>]) -> Vec<Pages<'s>> {
        sources
            .iter()
            .filter_map(|source| {
                let (stem, ext) = source.file_name().rsplit_once('.')?;
                if !matches!(ext, "ts" | "js" | "mjs" | "mts") {
                    return None;
                }
                let root = source.path.rsplit_once('/').map_or("", |(dir, _)| dir);
                match stem {
                    "nuxt.config" => Some(Pages {
                        root,
                        dirs: &["pages/", "app/pages/"],
                        extensions: &["vue"],
                        framework: "nuxt",
                        layouts: Some("layouts/"),
                    }),
                    "vite.config" if FILE_ROUTERS.iter().any(|router| source.text.contains(router)) => Some(Pages {
                        root,
                        dirs: &["src/pages/"],
                        extensions: if source.text.contains("'.md'") || source.text.contains("\".md\"") {
                            &["vue", "md"]
                        } else {
                            &["vue"]
                        },
                        framework: "vue-router",
                        layouts: source
                            .text
                            .contains("vite-plugin-vue-layouts")
                            .then_some("src/layouts/"),
                    }),
                    _ => None,
                }
            })
            .collect()
    }

    /// The path inside the app's folder of a file under it.
    fn inside<'p>(&self, path: &'p str) -> Option<&'p str> {
        if self.root.is_empty() {
            Some(path)
        } else {
            path.strip_prefix(self.root)?.strip_prefix('/')
        }
    }

    /// The route a file is if it is a page of this app.
    pub fn page(&self, path: &str) -> Option<Route> {
        let (stem, ext) = path.rsplit_once('.')?;
        if !self.extensions.contains(&ext) || stem.ends_with("README") {
            return None;
        }
        let inside = self.inside(stem)?;
        let page = self.dirs.iter().find_map(|dir| inside.strip_prefix(dir))?;
        let segments: Vec<&str> = page.split('/').filter(|segment| *segment != "index").collect();
        Some(Route {
            path: folder_path(&segments, is_group),
            component: None,
            framework: self.framework.to_owned(),
            file: path.to_owned(),
        })
    }

    /// True if the file is a layout of this app.
    pub fn is_layout(&self, path: &str) -> bool {
        self.layouts
            .is_some_and(|dir| self.inside(path).is_some_and(|inside| inside.starts_with(dir)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pages<'s>(config: Source<'s>) -> Pages<'s> {
        Pages::of(&[config]).pop().unwrap()
    }

    #[test]
    fn nuxt_pages_need_a_nuxt_config() {
        let top = pages(Source {
            path: "nuxt.config.ts",
            text: "",
        });
        let page = |pages: &Pages<'_>, path| pages.page(path).map(|route| route.path);
        assert_eq!(page(&top, "pages/index.vue").as_deref(), Some("/"));
        assert_eq!(page(&top, "pages/users/[id].vue").as_deref(), Some("/users/[id]"));
        assert_eq!(page(&top, "app/pages/[...slug].vue").as_deref(), Some("/[...slug]"));
        assert_eq!(page(&top, "src/pages/Home.vue"), None);
        let web = pages(Source {
            path: "web/nuxt.config.ts",
            text: "",
        });
        assert_eq!(page(&web, "web/pages/[type]/index.vue").as_deref(), Some("/[type]"));
        assert!(web.is_layout("web/layouts/default.vue"));
    }

    #[test]
    fn vue_pages_need_a_file_router_in_the_vite_config() {
        let config = "import VueRouter from 'vue-router/vite'\nVueRouter({ extensions: ['.vue', '.md'] })";
        let vue = pages(Source {
            path: "vite.config.ts",
            text: config,
        });
        let page = |path| vue.page(path).map(|route| route.path);
        assert_eq!(page("src/pages/hi/[name].vue").as_deref(), Some("/hi/[name]"));
        assert_eq!(page("src/pages/about.md").as_deref(), Some("/about"));
        assert_eq!(page("src/pages/README.md"), None);
        assert!(!vue.is_layout("src/layouts/home.vue"));
        assert!(
            Pages::of(&[Source {
                path: "vite.config.ts",
                text: "import vue from '@vitejs/plugin-vue'"
            }])
            .is_empty()
        );
    }
}
