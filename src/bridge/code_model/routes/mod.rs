//! Backend endpoints: each framework's scanner reads routes and mounts per file into a
//! [`RouteScan`]; [`link`] resolves mounts across files and flattens them to full paths.

pub mod django;
pub mod graph;
pub mod nest;
#[cfg(test)]
mod tests;

use self::graph::{Item, Unit};
use crate::bridge::code_model::guards::{GuardNote, Role};

/// The routes one file declares, before files are linked.
#[derive(Debug, Default)]
pub struct RouteScan {
    /// Apps, routers, blueprints, plugin and route functions declared in the file.
    pub units: Vec<Unit>,
    /// Routes and mounts added to a receiver imported from another file: `(name, framework, item)`.
    pub foreign: Vec<(String, &'static str, Item)>,
    /// NestJS `app.setGlobalPrefix('api')`.
    pub global_prefix: Option<String>,
    /// Rust handlers that take or return `Json<T>`, matched to routes by name when linking.
    pub handlers: Vec<HandlerShapes>,
    /// Guards the file defines, uses, or may define.
    pub guards: Vec<GuardNote>,
    /// FastAPI aliases of dependencies: `CurrentUser = Annotated[User, Depends(get_current_user)]`.
    pub aliases: Vec<(String, String)>,
    /// FastAPI security scheme instances (`oauth2_scheme = OAuth2PasswordBearer(…)`).
    pub schemes: Vec<String>,
    /// NestJS guards on every route (`APP_GUARD` providers).
    pub nest_global_guards: Vec<String>,
    /// NestJS middleware bound to routes (`consumer.apply(…).forRoutes(…)`).
    pub nest_bindings: Vec<nest::Binding>,
    /// Django views, routers and REST framework settings.
    pub django: django::views::DjangoScan,
}

/// The request and response shapes a handler function names in its signature, and the
/// extractors it takes (`auth: AuthUser`), which are guards when they are auth extractors.
#[derive(Debug, Clone, Default)]
pub struct HandlerShapes {
    pub name: String,
    pub request: Option<String>,
    pub response: Option<String>,
    pub extractors: Vec<String>,
    pub file: String,
}

impl RouteScan {
    /// Declares a unit; a second declaration of the same name updates the first.
    pub fn declare(&mut self, unit: Unit) {
        match self.units.iter_mut().find(|have| have.key == unit.key) {
            Some(have) => {
                have.framework = unit.framework;
                have.prefix = unit.prefix;
                have.app |= unit.app;
            }
            None => self.units.push(unit),
        }
    }

    /// True if `file` declares a unit `name`.
    pub fn declares(&self, file: &str, name: &str) -> bool {
        self.units.iter().any(|unit| unit.key.0 == file && unit.key.1 == name)
    }

    /// The unit `name` of `file`, made (with `framework`, no prefix) if it is not declared yet.
    pub fn unit(&mut self, file: &str, name: &str, framework: &'static str) -> &mut Unit {
        let at = self
            .units
            .iter()
            .position(|unit| unit.key.0 == file && unit.key.1 == name)
            .unwrap_or_else(|| {
                let key = (file.to_owned(), name.to_owned());
                self.units.push(Unit {
                    key,
                    framework,
                    ..Unit::default()
                });
                self.units.len() - 1
            });
        &mut self.units[at]
    }

    /// Notes that `path` puts guard `name` (of `kind`) on a route or router, once.
    pub fn note_used(&mut self, name: &str, kind: &'static str, framework: &'static str, path: &str) {
        let note = GuardNote::new(name, kind, framework, Role::Used, path);
        if !self.guards.contains(&note) {
            self.guards.push(note);
        }
    }
}
