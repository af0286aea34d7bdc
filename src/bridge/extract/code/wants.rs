//! Which scanners a file may interest: a cheap text check (the signals each scanner looks
//! for) made before anything is parsed, so that files without any are never parsed.

use memchr::memmem;

use crate::bridge::extract::syntax::Lang;

/// The scanners that may find something in a file, by the text it contains.
#[derive(Debug, Default, Clone, Copy)]
pub struct Wants {
    pub node_routes: bool,
    pub nest: bool,
    pub python_routes: bool,
    pub axum: bool,
    pub actix: bool,
    pub shapes: bool,
    pub zod: bool,
    pub services: bool,
    pub env: bool,
    pub typeorm: bool,
    pub sqlalchemy: bool,
    pub django: bool,
    pub diesel: bool,
    pub seaorm: bool,
    pub components: bool,
    pub router: bool,
    pub fs_routes: bool,
    pub state: bool,
    pub design: bool,
}

impl Wants {
    pub fn of(lang: Lang, path: &str, text: &str, design_systems: &[String]) -> Wants {
        let has = |needles: &[&str]| {
            needles
                .iter()
                .any(|needle| memmem::find(text.as_bytes(), needle.as_bytes()).is_some())
        };
        let services = has(&["Service"]) && has(&["class ", "impl ", "trait "]);
        match lang {
            Lang::TypeScript | Lang::Tsx | Lang::JavaScript => Wants {
                node_routes: has(&["express", "Router", "koa", "fastify", "('/", "(\"/", "(`"]),
                nest: has(&["@Controller", "setGlobalPrefix"]),
                shapes: has(&["class ", "interface ", "type "]),
                zod: has(&["zod"]),
                services,
                env: has(&["process.env", "import.meta.env"]),
                typeorm: has(&["@Entity"]),
                components: has(&["export"])
                    && (lang == Lang::Tsx
                        || path.ends_with(".jsx")
                        || has(&["react", "React", "</", "/>", "export *", "export {"])),
                router: has(&[
                    "<Route",
                    "createBrowserRouter",
                    "createHashRouter",
                    "createMemoryRouter",
                    "useRoutes",
                ]) || path.ends_with("app/routes.ts")
                    || path.ends_with("app/routes.tsx"),
                fs_routes: path.starts_with("app/")
                    || path.starts_with("pages/")
                    || path.contains("/app/")
                    || path.contains("/pages/"),
                state: has(&["createSlice", "createApi", "configureStore", "zustand", "createContext"]),
                design: design_systems
                    .iter()
                    .any(|package| has(&[package.trim_end_matches('/')])),
                ..Wants::default()
            },
            Lang::Python => Wants {
                python_routes: has(&[
                    "fastapi",
                    "flask",
                    "APIRouter",
                    "Blueprint",
                    "include_router",
                    "register_blueprint",
                    "add_url_rule",
                    ".route(",
                    "(\"/",
                    "('/",
                ]),
                shapes: has(&["class "]),
                services,
                env: has(&["environ", "getenv"]),
                sqlalchemy: has(&["__tablename__", "Table("]),
                django: has(&["django", "models.Model"]),
                ..Wants::default()
            },
            Lang::Rust => Wants {
                axum: has(&["axum", "Router"]),
                actix: has(&["actix", "web::", "HttpServer", "ServiceConfig"]),
                services,
                env: has(&["env::var", "env!", "dotenv"]),
                diesel: has(&["table!"]),
                seaorm: has(&["sea_orm"]),
                ..Wants::default()
            },
        }
    }

    pub fn any(self) -> bool {
        // Destructured so that a new scanner cannot be left out.
        let Wants {
            node_routes,
            nest,
            python_routes,
            axum,
            actix,
            shapes,
            zod,
            services,
            env,
            typeorm,
            sqlalchemy,
            django,
            diesel,
            seaorm,
            components,
            router,
            fs_routes,
            state,
            design,
        } = self;
        [
            node_routes,
            nest,
            python_routes,
            axum,
            actix,
            shapes,
            zod,
            services,
            env,
            typeorm,
            sqlalchemy,
            django,
            diesel,
            seaorm,
            components,
            router,
            fs_routes,
            state,
            design,
        ]
        .contains(&true)
    }
}
