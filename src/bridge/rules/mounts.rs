//! Routes registered across files: a function given a router registers routes on it
//! (`func UsersRegister(router *gin.RouterGroup)`), and another file mounts that function at a
//! prefix with the middleware of the router it passes (`users.UsersRegister(v1.Group("/users"))`).
//! Each route of such a function is placed once per call; a function never called keeps its
//! routes as written.

use crate::bridge::facts::Endpoint;

use super::paths::join;

/// Most endpoints placed at mount calls in one run.
const MAX_PLACED: usize = 20_000;

/// What the files' router functions and mount calls leave for the link.
#[derive(Default)]
pub struct Mounts {
    /// `(function, endpoint with its path relative to the router the function is given,
    /// whether the framework keeps the slash the route's path ends with)`.
    waiting: Vec<(String, Endpoint, bool)>,
    pub calls: Vec<MountCall>,
}

/// A call mounting a router function at a prefix, with the guards the router passed has there.
pub struct MountCall {
    pub function: String,
    pub prefix: String,
    pub guards: Vec<String>,
}

impl Mounts {
    /// Keeps an endpoint of router function `function` until the link.
    pub fn wait(&mut self, function: String, endpoint: Endpoint, keep_trailing_slash: bool) {
        self.waiting.push((function, endpoint, keep_trailing_slash));
    }

    /// Moves another file's mounts into these.
    pub fn append(&mut self, mut other: Mounts) {
        self.waiting.append(&mut other.waiting);
        self.calls.append(&mut other.calls);
    }

    /// The waiting endpoints, each placed at every call of its function (as written if none),
    /// at most [`MAX_PLACED`] in all: past that (a router function called from hundreds of
    /// places) the rest stay as written and the handoff says so.
    pub fn link(self) -> (Vec<Endpoint>, Option<String>) {
        let mut placed = Vec::new();
        let mut over = None;
        for (function, endpoint, keep_trailing_slash) in self.waiting {
            if placed.len() >= MAX_PLACED {
                over.get_or_insert_with(|| {
                    format!("{}: routes mounted at more places than {MAX_PLACED} routes hold; the rest are listed as written", endpoint.file)
                });
                placed.push(endpoint);
                continue;
            }
            let mut calls: Vec<&MountCall> = self.calls.iter().filter(|call| call.function == function).collect();
            calls.dedup_by(|a, b| a.prefix == b.prefix && a.guards == b.guards);
            if calls.is_empty() {
                placed.push(endpoint);
                continue;
            }
            for call in calls {
                let mut path = join(&call.prefix, &endpoint.path);
                // gin: a route "/" on a router mounted at /users is /users/.
                if keep_trailing_slash && !path.ends_with('/') {
                    path.push('/');
                }
                let mut guards = call.guards.clone();
                guards.extend(endpoint.guards.iter().cloned());
                guards.dedup();
                placed.push(Endpoint {
                    path,
                    guards,
                    ..endpoint.clone()
                });
            }
        }
        (placed, over)
    }
}
