//! What the bridge extracts from an agent's files: the concrete names the next agent needs
//! (tables and columns, endpoints, components, routes, state, env vars, pipeline stages,
//! findings). Every extractor returns a [`Facts`]; the bridge merges them and renders
//! `structured` and `contextForNext` from the merged value. Every name carries the file
//! (relative to the work tree's top) it came from.

mod changes;
mod db;

use serde::{Deserialize, Serialize};

pub use self::changes::{Change, ChangeKind, Name, Revision, TableOp, key};
pub use self::db::{Column, Dropped, DroppedKind, EnumType, ForeignKey, Index, Table, qualified};

/// Everything extracted from one run's files. Lists are kept in a stable order (file, then
/// position in the file) and de-duplicated by the merge.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Facts {
    // db
    pub tables: Vec<Table>,
    pub indexes: Vec<Index>,
    /// Enumerated types (`CREATE TYPE … AS ENUM`, Prisma `enum`): the values a column may hold.
    pub enums: Vec<EnumType>,
    pub migrations: Vec<String>,
    // backend
    pub endpoints: Vec<Endpoint>,
    pub shapes: Vec<Shape>,
    pub services: Vec<Service>,
    pub env_vars: Vec<EnvVar>,
    // frontend
    pub components: Vec<Component>,
    pub routes: Vec<Route>,
    pub state: Vec<StateStore>,
    pub design_system: Vec<DesignImport>,
    // devops
    pub pipelines: Vec<Pipeline>,
    pub docker_stages: Vec<DockerStage>,
    pub images: Vec<Image>,
    // security
    pub findings: Vec<Finding>,
    pub guards: Vec<Guard>,
    /// Files (or statements, as `file: what`) a parser could not read; the rest still counts.
    pub unparsed: Vec<String>,
    /// Tables, columns, indexes and types the run's migrations drop that it did not create.
    pub dropped: Vec<Dropped>,
    /// What the migrations do, in file order: replayed by the merge into `tables`, `indexes`,
    /// `enums` and `dropped` (see `bridge::schema`).
    #[serde(skip)]
    pub schema_changes: Vec<Change>,
    /// Alembic revisions (`revision`, `down_revision`) of migration files, which order them.
    #[serde(skip)]
    pub revisions: Vec<Revision>,
}

impl Facts {
    /// The table named `name`; panics, showing every table, if there is none (for tests).
    #[cfg(test)]
    pub fn table(&self, name: &str) -> &Table {
        self.tables
            .iter()
            .find(|t| t.name == name)
            .unwrap_or_else(|| panic!("no table {name} in {:#?}", self.tables))
    }

    /// Moves every list of `other` onto the end of this one's (no de-duplication: see
    /// `bridge::merge`).
    pub fn append(&mut self, mut other: Facts) {
        macro_rules! append {
            ($($list:ident)*) => { $(self.$list.append(&mut other.$list);)* };
        }
        append! { tables indexes enums migrations endpoints shapes services env_vars components routes state
        design_system pipelines docker_stages images findings guards unparsed dropped schema_changes revisions }
    }

    /// True when no name was extracted (statements that could not be parsed do not count).
    pub fn is_empty(&self) -> bool {
        macro_rules! empty {
            ($($list:ident)*) => { $(self.$list.is_empty())&&* };
        }
        empty! { tables indexes enums migrations endpoints shapes services env_vars components routes state
        design_system pipelines docker_stages images findings guards dropped schema_changes }
    }
}

/// Adds `item` to `list` unless the list holds it already.
pub fn push_once<T: PartialEq>(list: &mut Vec<T>, item: T) {
    if !list.contains(&item) {
        list.push(item);
    }
}

/// An HTTP endpoint with its full path (mount prefixes applied).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Endpoint {
    /// Upper case: `GET`, `POST`, …; `ALL` or `ANY` where the framework says so.
    pub method: String,
    /// Full path as the client calls it: `/api/users/:id`.
    pub path: String,
    pub handler: Option<String>,
    /// Names of request/response shapes (see [`Shape`]) when the code names them.
    pub request: Option<String>,
    pub response: Option<String>,
    /// `express`, `koa`, `fastify`, `nestjs`, `fastapi`, `flask`, `django`, `axum`, `actix`,
    /// `nextjs`, `remix`.
    pub framework: String,
    pub file: String,
    /// Names of the auth guards the code puts on this endpoint (see [`Guard`]), outermost first.
    pub guards: Vec<String>,
}

/// A request/response or validation shape: DTO class, Pydantic model, zod schema.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Shape {
    pub name: String,
    /// `dto`, `pydantic`, `zod`, `interface`, …
    pub kind: String,
    pub fields: Vec<Field>,
    pub file: String,
}

/// A field of a shape.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Field {
    pub name: String,
    pub data_type: Option<String>,
    pub optional: bool,
}

/// An exported service class and its public methods.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Service {
    pub name: String,
    pub methods: Vec<String>,
    pub file: String,
}

/// An environment variable the code reads or a config file declares.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct EnvVar {
    pub name: String,
    /// `process.env`, `os.environ`, `getenv`, `std::env::var`, `.env.example`, `pipeline`, …
    pub source: String,
    pub file: String,
}

/// An exported UI component.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Component {
    pub name: String,
    /// `function`, `arrow`, `class`, `default`, `re-export`.
    pub kind: String,
    pub file: String,
}

/// A client-side route.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Route {
    pub path: String,
    pub component: Option<String>,
    /// `react-router`, `nextjs`, `remix`.
    pub framework: String,
    pub file: String,
}

/// A piece of client state: a Redux slice, a Zustand store, a React context.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct StateStore {
    pub name: String,
    /// `redux-slice`, `redux-store`, `rtk-query`, `zustand`, `react-context`.
    pub kind: String,
    /// Actions of a slice, keys of a store, endpoints of an API, keys of a context's value.
    pub keys: Vec<String>,
    /// A context's provider component (the one rendering `<XContext.Provider>`).
    pub provider: Option<String>,
    /// A context's hook (the `use…` function calling `useContext(XContext)`).
    pub hook: Option<String>,
    pub file: String,
}

/// Names imported from the configured design-system package.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct DesignImport {
    pub package: String,
    pub names: Vec<String>,
    pub file: String,
}

/// A CI pipeline file and its jobs.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Pipeline {
    /// `github-actions`, `gitlab-ci`, `azure-pipelines`.
    pub kind: String,
    pub name: Option<String>,
    pub jobs: Vec<String>,
    /// GitLab's and Azure's stages, in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stages: Vec<String>,
    /// The steps that carry a name (`- name: Run tests`, Azure's `displayName`), in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<String>,
    /// Security scans the pipeline runs (Snyk, Trivy, CodeQL, GitLab's templates, …).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub scans: Vec<Scan>,
    pub file: String,
}

/// A security scan in a pipeline: the tool, and the job and step that run it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Scan {
    /// `snyk`, `trivy`, `codeql`, `semgrep`, `gitlab-sast`, …
    pub tool: String,
    pub job: Option<String>,
    /// The step's name, or what it uses (`snyk/actions/node@master`) when it has none.
    pub step: Option<String>,
}

/// A Dockerfile build stage (`FROM image AS name`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct DockerStage {
    pub name: Option<String>,
    pub base: String,
    pub file: String,
}

/// An image a pipeline or compose file pushes or tags.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Image {
    pub name: String,
    pub file: String,
}

/// A security finding referenced by the run (CVE-…, GHSA-…, a configured pattern).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Finding {
    pub id: String,
    /// Where it was referenced: a file path, or `commit <hash>`.
    pub file: String,
    /// The line of the file (or of the commit message) it is on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
}

/// Auth middleware, a guard or a validation schema the run added or uses.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Guard {
    pub name: String,
    /// `middleware`, `guard`, `decorator`, `dependency`, `permission`, `extractor`, `layer`,
    /// `hook`, `security-scheme`, `authentication`, `validation`.
    pub kind: String,
    /// The framework or library it belongs to (`nestjs`, `fastapi`, `zod`, `wtforms`, …).
    pub framework: Option<String>,
    /// How many of the run's endpoints it is put on (0 when the code does not say).
    pub endpoints: usize,
    pub file: String,
}
