//! An npm registry on loopback, for installing the packed packages offline as users install
//! the published ones: `GET /<name>` answers the package document (every version published
//! here, `latest` the newest), `GET /tarballs/<file>` the tarball. Nothing else exists.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};

/// The registry, serving until dropped (its thread ends with the test process).
pub struct Registry {
    pub url: String,
    packages: Arc<Mutex<Published>>,
}

impl Registry {
    pub fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind the registry on 127.0.0.1");
        let url = format!("http://{}/", listener.local_addr().unwrap());
        let packages: Arc<Mutex<Published>> = Arc::default();
        let shared = Arc::clone(&packages);
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let shared = Arc::clone(&shared);
                std::thread::spawn(move || serve(stream, &shared));
            }
        });
        Self { url, packages }
    }

    /// Publishes a tarball `npm pack --json` described (`packed`: its `name`, `version`,
    /// `filename`, `integrity`, `shasum`), with the package.json it was packed from.
    pub fn publish(&self, packed: &Value, manifest: &Value, tarball: &Path) {
        let mut manifest = manifest.clone();
        let name = packed["name"].as_str().unwrap().to_owned();
        let version = packed["version"].as_str().unwrap().to_owned();
        manifest["dist"] = json!({
            "tarball": format!("{}tarballs/{}", self.url, packed["filename"].as_str().unwrap()),
            "integrity": packed["integrity"],
            "shasum": packed["shasum"],
        });
        self.packages
            .lock()
            .unwrap()
            .entry(name)
            .or_default()
            .insert(version, (manifest, tarball.to_path_buf()));
    }
}

/// Published packages: name → version → (manifest with `dist`, tarball path).
type Published = BTreeMap<String, BTreeMap<String, (Value, PathBuf)>>;

fn serve(stream: TcpStream, packages: &Mutex<Published>) {
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    if reader.read_line(&mut line).is_err() {
        return;
    }
    // Headers, up to the blank line (GET requests carry no body).
    let mut header = String::new();
    while reader.read_line(&mut header).is_ok_and(|n| n > 0) && header != "\r\n" {
        header.clear();
    }
    let path = line.split_whitespace().nth(1).unwrap_or("/");
    let name = path.trim_start_matches('/').replace("%2f", "/").replace("%2F", "/");
    let packages = packages.lock().unwrap();
    let (status, kind, body) = if let Some(file) = name.strip_prefix("tarballs/") {
        let found = packages
            .values()
            .flat_map(|versions| versions.values())
            .find(|(_, tarball)| tarball.file_name().is_some_and(|f| f == file));
        match found {
            Some((_, tarball)) => ("200 OK", "application/octet-stream", std::fs::read(tarball).unwrap()),
            None => ("404 Not Found", "application/json", b"{}".to_vec()),
        }
    } else if let Some(versions) = packages.get(&name) {
        let latest = versions.keys().max_by(|a, b| semver(a).cmp(&semver(b))).unwrap();
        let document = json!({
            "name": name,
            "dist-tags": {"latest": latest},
            "versions": versions.iter().map(|(v, (m, _))| (v.clone(), m.clone())).collect::<serde_json::Map<_, _>>(),
        });
        ("200 OK", "application/json", document.to_string().into_bytes())
    } else {
        (
            "404 Not Found",
            "application/json",
            br#"{"error":"not found"}"#.to_vec(),
        )
    };
    drop(packages);
    let mut stream = reader.into_inner();
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes()).and_then(|()| stream.write_all(&body));
}

/// `1.2.3` as numbers, for picking the newest.
fn semver(version: &str) -> Vec<u64> {
    version.split('.').map(|n| n.parse().unwrap_or(0)).collect()
}
