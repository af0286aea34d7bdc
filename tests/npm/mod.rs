//! The npm distribution as users get it, offline: every package under `npm/` packed with
//! `npm pack` (this platform's package holding the binary the tests run), served by a registry
//! on loopback, and installed with `npx baton-cc install` into a fresh HOME (`…/Jane Doé`: a
//! space and a non-ASCII letter) and npm cache with no Rust on PATH. Then what was wired runs as
//! Claude Code runs it (a statusline render, a PostToolUse hook, `baton doctor`, and a slash
//! command with an apostrophe in its argument through the real client), an upgrade to a newer release lands while a copy of the
//! old binary is running, and `npx baton-cc uninstall` takes it all out again.

mod registry;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

use crate::common::*;
use registry::Registry;

/// The npm platform package for this system (`npm/platforms/<os>-<cpu>`).
fn host_package() -> String {
    let os = match std::env::consts::OS {
        "macos" => "darwin",
        "windows" => "win32",
        other => other,
    };
    let cpu = match std::env::consts::ARCH {
        "x86_64" => "x64",
        "aarch64" => "arm64",
        other => other,
    };
    format!("{os}-{cpu}")
}

fn exe_name() -> &'static str {
    if cfg!(windows) { "baton.exe" } else { "baton" }
}

/// A fresh npm world: the sandbox's HOME (a folder named `Jane Doé`), an empty npm cache and
/// global prefix, a PATH of node, npm, npx and sh only, and the registry.
struct World {
    sandbox: Sandbox,
    registry: Registry,
    work: tempfile::TempDir,
    path: PathBuf,
}

impl World {
    fn new() -> Self {
        assert!(
            which("npm").is_some(),
            "npm is not on PATH: the npm packages are tested with it"
        );
        let work = tempfile::tempdir().unwrap();
        let path = work.path().join("path");
        std::fs::create_dir_all(&path).unwrap();
        for tool in ["node", "npm", "npx", "sh"] {
            let found = which(tool).unwrap_or_else(|| panic!("{tool} is not on PATH"));
            os::symlink(found, path.join(tool));
        }
        for rust in ["cargo", "rustc", "rustup"] {
            assert!(!path.join(rust).exists());
        }
        let mut sandbox = Sandbox::new();
        sandbox.home = sandbox.home.join("Jane Doé");
        std::fs::create_dir_all(&sandbox.home).unwrap();
        Self {
            sandbox,
            registry: Registry::start(),
            work,
            path,
        }
    }

    /// `program args…` (node, npm, npx, or an installed binary) in the world's environment.
    fn command(&self, program: impl AsRef<std::ffi::OsStr>, args: &[&str]) -> Command {
        let mut command = Command::new(program);
        command
            .args(args)
            .env_clear()
            .env("PATH", &self.path)
            .env("HOME", &self.sandbox.home)
            .env("TMPDIR", &self.sandbox.tmp)
            .env("SHELL", "/bin/sh")
            .env("npm_config_registry", &self.registry.url)
            .env("npm_config_cache", self.work.path().join("npm-cache"))
            .env("npm_config_prefix", self.work.path().join("npm-prefix"))
            .env("npm_config_update_notifier", "false")
            .env("npm_config_audit", "false")
            .env("npm_config_fund", "false")
            .env("npm_config_fetch_retries", "0")
            .env("npm_config_yes", "true")
            .current_dir(&self.sandbox.project)
            .stdin(Stdio::null());
        command
    }

    /// Runs it; panics with what it said unless it succeeds.
    #[track_caller]
    fn run(&self, program: impl AsRef<std::ffi::OsStr>, args: &[&str]) -> String {
        let shown = format!("{} {}", program.as_ref().to_string_lossy(), args.join(" "));
        crate::e2e::client::succeeded(self.command(program, args).output().unwrap(), &shown)
    }

    /// Packs every package of `npm/` at `version` (this platform's holding `binary`) and
    /// publishes the tarballs to the registry.
    fn publish(&self, version: &str, binary: &[u8]) {
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("npm");
        let staged = self.work.path().join("staged").join(version);
        let tarballs = self.work.path().join("tarballs");
        std::fs::create_dir_all(&tarballs).unwrap();
        let mut dirs = vec![(repo.join("baton-cc"), staged.join("baton-cc"))];
        for entry in std::fs::read_dir(repo.join("platforms")).unwrap() {
            let entry = entry.unwrap();
            dirs.push((entry.path(), staged.join(entry.file_name())));
        }
        for (from, to) in dirs {
            copy_package(&from, &to, version);
            if to.file_name().unwrap().to_string_lossy() == host_package() {
                let bin = to.join(exe_name());
                std::fs::write(&bin, binary).unwrap();
                os::make_executable(&bin);
            }
            let out = self.run(
                "npm",
                &[
                    "pack",
                    "--json",
                    "--pack-destination",
                    tarballs.to_str().unwrap(),
                    to.to_str().unwrap(),
                ],
            );
            let json_start = out
                .find('[')
                .unwrap_or_else(|| panic!("npm pack printed no JSON: {out}"));
            let packed: Value = serde_json::Deserializer::from_str(&out[json_start..])
                .into_iter()
                .next()
                .unwrap()
                .unwrap();
            let manifest: Value = serde_json::from_slice(&std::fs::read(to.join("package.json")).unwrap()).unwrap();
            let tarball = tarballs.join(packed[0]["filename"].as_str().unwrap());
            self.registry.publish(&packed[0], &manifest, &tarball);
        }
    }

    /// The settings.json `npx baton-cc install` wrote.
    fn settings(&self) -> Value {
        let path = self.sandbox.home.join(".claude/settings.json");
        serde_json::from_slice(&std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))).unwrap()
    }

    /// Runs a command line from settings.json as Claude Code does on Unix (`sh -c`), with
    /// `payload` on stdin.
    fn run_wired(&self, command: &str, payload: &Value) -> Outcome {
        let started = std::time::Instant::now();
        let mut child = self
            .command("sh", &["-c", command])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::io::Write::write_all(&mut child.stdin.take().unwrap(), payload.to_string().as_bytes()).unwrap();
        let out = child.wait_with_output().unwrap();
        outcome(out, started)
    }
}

impl World {
    /// Runs the real Claude Code client (the end-to-end tests' copy) headless with `args`, in the
    /// world's HOME and project, against a Messages API mock on loopback, with the system's
    /// folders after the world's PATH (its Bash tool runs bash); returns what it printed.
    fn claude(&self, args: &[&str]) -> String {
        use crate::e2e::client::{API_KEY, MODEL, claude_bin, isolate, output_within, succeeded};
        use crate::e2e::mock::{Mock, Reply};
        let mock = Mock::start(|_| Reply::text(2_000, "Noted."));
        crate::e2e::sandbox::skip_first_run_dialogs(&self.sandbox.home, &self.sandbox.project, API_KEY);
        let mut command = Command::new(claude_bin());
        isolate(&mut command, &self.sandbox.home, &self.sandbox.tmp);
        let path = [self.path.as_path(), Path::new("/usr/bin"), Path::new("/bin")];
        command
            .args(args)
            .args(["--model", MODEL])
            .current_dir(&self.sandbox.project)
            .env("PATH", std::env::join_paths(path).unwrap())
            .env("ANTHROPIC_BASE_URL", mock.base_url())
            .env("ANTHROPIC_API_KEY", API_KEY);
        let out = output_within(command, std::time::Duration::from_secs(150));
        succeeded(out, &format!("claude {}", args.join(" ")))
    }
}

fn outcome(out: Output, started: std::time::Instant) -> Outcome {
    Outcome {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        elapsed: started.elapsed(),
    }
}

/// Copies a package directory's package.json at `version` (and its other committed files).
fn copy_package(from: &Path, to: &Path, version: &str) {
    std::fs::create_dir_all(to).unwrap();
    for entry in walk(from) {
        let rel = entry.strip_prefix(from).unwrap();
        let name = rel.to_string_lossy();
        if name == exe_name() {
            continue; // a binary staged by npm/stamp.mjs --stage, not for this test
        }
        let dest = to.join(rel);
        std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
        if name == "package.json" {
            let mut json: Value = serde_json::from_slice(&std::fs::read(&entry).unwrap()).unwrap();
            json["version"] = json!(version);
            if let Some(deps) = json["optionalDependencies"].as_object_mut() {
                for v in deps.values_mut() {
                    *v = json!(version);
                }
            }
            std::fs::write(&dest, serde_json::to_vec_pretty(&json).unwrap()).unwrap();
        } else {
            std::fs::copy(&entry, &dest).unwrap();
        }
    }
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}

/// The binary under test, as the package will hold it: without its debug information and
/// symbols when `strip` is there (a debug build is 120 MB, and packing, caching and unpacking
/// it dominates the test's time; what runs is the same code).
fn package_binary(work: &Path) -> Vec<u8> {
    let stripped = work.join("stripped-baton");
    let ran = which("strip").and_then(|strip| {
        Command::new(strip)
            .arg("-o")
            .arg(&stripped)
            .arg(baton_bin())
            .stdin(Stdio::null())
            .output()
            .ok()
    });
    match ran {
        Some(out) if out.status.success() => std::fs::read(&stripped).unwrap(),
        _ => std::fs::read(baton_bin()).unwrap(),
    }
}

/// `path` as a POSIX shell word (the sandbox's HOME holds a space: always quoted here).
fn shell_word(path: &Path) -> String {
    format!("'{}'", path.display().to_string().replace('\'', "'\\''"))
}

fn which(tool: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(tool))
        .find(|p| p.is_file())
}

#[test]
fn npx_installs_the_native_binary_and_claude_code_runs_it_without_node() {
    let world = World::new();
    let binary = package_binary(world.work.path());
    world.publish("0.1.0", &binary);

    let said = world.run("npx", &["baton-cc", "install"]);
    let installed = world.sandbox.home.join(".local/bin").join(exe_name());
    assert!(
        said.contains(&format!(
            "Installed baton {} to {}",
            env!("CARGO_PKG_VERSION"),
            installed.display()
        )),
        "{said}"
    );
    assert!(said.contains("is not on your PATH"), "{said}");
    assert_eq!(
        std::fs::read(&installed).unwrap(),
        binary,
        "the native binary itself, not the launcher"
    );

    // What Claude Code runs is the copy, by its absolute path: no Node, no npm cache.
    let settings = world.settings();
    let statusline = settings["statusLine"]["command"].as_str().unwrap().to_owned();
    let hook = settings["hooks"]["PostToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_owned();
    let program = shell_word(&installed);
    assert_eq!(statusline, format!("{program} statusline"));
    assert_eq!(hook, format!("{program} hook"));
    let commands = std::fs::read_to_string(world.sandbox.home.join(".claude/commands/baton/progress.md")).unwrap();
    assert!(
        commands.contains(&format!("```!\n{program} progress --args-stdin")),
        "{commands}"
    );

    // A statusline render and a PostToolUse hook through the wired command lines.
    let sandbox = &world.sandbox;
    let payload = sandbox.statusline_payload_in_project(latest_fixture("statusline.json"));
    let line = world.run_wired(&statusline, &payload).assert_one_line();
    assert!(line.contains("Sonnet 4.5") && line.contains('%'), "{line}");
    let transcript = sandbox.transcript("npx", "claude-sonnet-4-5", 140_000);
    let warned = world
        .run_wired(
            &hook,
            &post_tool_use(sandbox, "8f6d1c1e-5a8f-4f43-9c1f-0d6f3c9a4e21", Some(&transcript)),
        )
        .context_text();
    assert!(
        warned.starts_with("CONTEXT WARNING: Usage at 70%. Remaining: 30%."),
        "{warned}"
    );

    // doctor, run from the copy with its folder on PATH as the hint says.
    let mut doctor = world.command(&installed, &["doctor"]);
    doctor.env(
        "PATH",
        std::env::join_paths([installed.parent().unwrap(), world.path.as_path()]).unwrap(),
    );
    let out = doctor.output().unwrap();
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && report.contains("All good."),
        "{report}{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // A slash command with an apostrophe in its argument, through the real client headless:
    // its permission check passes for the quoted path, and the note arrives whole.
    let said = world.claude(&["-p", "/baton:pause-work don't forget the tests"]);
    for failure in ["permission check failed", "Shell command failed", "requires approval"] {
        assert!(!said.contains(failure), "{said}");
    }
    let handoff = sandbox.read_json(&sandbox.project.join(".planning/HANDOFF.json"));
    assert_eq!(handoff["context_notes"], "don't forget the tests", "{said}");

    // A newer release, installed while a copy of the old binary runs (a `ctx set` waiting on
    // stdin, as a statusline or hook would be mid-run): the running copy finishes unharmed.
    world.run(&installed, &["ctx", "init"]);
    let mut running = world
        .command(&installed, &["ctx", "set", "upgrade", "--stdin"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut newer = binary.clone();
    newer.extend_from_slice(b"\0baton 0.1.1");
    world.publish("0.1.1", &newer);
    let said = world.run("npx", &["baton-cc@latest", "install"]);
    assert!(said.contains("Installed baton"), "{said}");
    assert_eq!(std::fs::read(&installed).unwrap(), newer, "the upgrade is in place");
    #[cfg(target_os = "linux")]
    {
        let exe = std::fs::read_link(format!("/proc/{}/exe", running.id())).unwrap();
        assert!(
            exe.to_string_lossy().ends_with("(deleted)"),
            "the running copy's file was replaced by a new one, not rewritten: {}",
            exe.display()
        );
    }
    std::io::Write::write_all(&mut running.stdin.take().unwrap(), b"\"survived\"").unwrap();
    let out = running.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(world.run(&installed, &["ctx", "get", "upgrade"]).trim(), "\"survived\"");

    // Uninstall takes out the wiring and the copy.
    let said = world.run("npx", &["baton-cc", "uninstall"]);
    assert!(said.contains(&format!("Removed {}", installed.display())), "{said}");
    assert!(!installed.exists());
    assert!(
        !sandbox.home.join(".claude/settings.json").exists(),
        "install created it; uninstall took it out"
    );
}

#[test]
fn a_global_npm_install_runs_through_the_launcher_and_its_install_copies_the_binary() {
    let world = World::new();
    let binary = package_binary(world.work.path());
    world.publish("0.1.0", &binary);
    world.run("npm", &["install", "--global", "baton-cc"]);
    let prefix = world.work.path().join("npm-prefix");
    let launcher = prefix.join("bin/baton");
    assert_eq!(
        world.run(&launcher, &["--version"]).trim(),
        format!("baton {}", env!("CARGO_PKG_VERSION"))
    );
    // Only this platform's package came down; the others' os/cpu did not match.
    let scope = prefix.join("lib/node_modules/baton-cc/node_modules/@baton-cc");
    let scope = if scope.exists() {
        scope
    } else {
        prefix.join("lib/node_modules/@baton-cc")
    };
    let mut got: Vec<String> = std::fs::read_dir(&scope)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    got.sort();
    assert_eq!(got, [host_package()]);

    let said = world.run(&launcher, &["install"]);
    let installed = world.sandbox.home.join(".local/bin").join(exe_name());
    assert!(said.contains(&format!("to {}", installed.display())), "{said}");
    let settings = world.settings();
    assert_eq!(
        settings["statusLine"]["command"],
        format!("{} statusline", shell_word(&installed)),
        "the settings run the copy, never the launcher in the npm prefix"
    );
}

/// A copy of what npm/stamp.mjs reads and writes (Cargo.toml, npm/, the plugin's manifest) with
/// Cargo.toml at `version`.
fn stamp_sandbox(version: &str) -> tempfile::TempDir {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    for rel in [
        "npm/stamp.mjs",
        "plugin/.claude-plugin/plugin.json",
        "npm/baton-cc/package.json",
    ] {
        std::fs::create_dir_all(dir.path().join(rel).parent().unwrap()).unwrap();
        std::fs::copy(repo.join(rel), dir.path().join(rel)).unwrap();
    }
    for entry in std::fs::read_dir(repo.join("npm/platforms")).unwrap() {
        let name = entry.unwrap().file_name();
        let rel = Path::new("npm/platforms").join(&name).join("package.json");
        std::fs::create_dir_all(dir.path().join(&rel).parent().unwrap()).unwrap();
        std::fs::copy(repo.join(&rel), dir.path().join(&rel)).unwrap();
    }
    let cargo = std::fs::read_to_string(repo.join("Cargo.toml")).unwrap();
    let bumped = cargo.replacen(
        &format!("version = \"{}\"", env!("CARGO_PKG_VERSION")),
        &format!("version = \"{version}\""),
        1,
    );
    std::fs::write(dir.path().join("Cargo.toml"), bumped).unwrap();
    dir
}

fn node(dir: &Path, args: &[&str]) -> Output {
    Command::new("node")
        .arg(dir.join("npm/stamp.mjs"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

#[test]
fn every_package_and_the_plugin_take_their_version_from_cargo_toml() {
    // As committed: in step.
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = node(repo, &["--check"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));

    // A new version in Cargo.toml: --check names every file behind it, a stamp brings them along.
    let dir = stamp_sandbox("2.3.4");
    let out = node(dir.path(), &["--check"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr.lines().count(),
        8,
        "the plugin, the main package and six platforms:\n{stderr}"
    );
    assert!(node(dir.path(), &[]).status.success());
    assert!(node(dir.path(), &["--check"]).status.success());
    let read = |rel: &str| -> Value { serde_json::from_slice(&std::fs::read(dir.path().join(rel)).unwrap()).unwrap() };
    assert_eq!(read("plugin/.claude-plugin/plugin.json")["version"], "2.3.4");
    let main = read("npm/baton-cc/package.json");
    assert_eq!(main["version"], "2.3.4");
    let deps = main["optionalDependencies"].as_object().unwrap();
    assert_eq!(deps.len(), 6);
    assert!(deps.values().all(|v| v == "2.3.4"), "{deps:?}");
    for name in deps.keys() {
        let platform = name.strip_prefix("@baton-cc/").unwrap();
        let package = read(&format!("npm/platforms/{platform}/package.json"));
        assert_eq!((&package["name"], &package["version"]), (&json!(name), &json!("2.3.4")));
        assert!(
            package.get("libc").is_none(),
            "a static binary serves glibc and musl alike: {name}"
        );
    }
}

#[test]
fn staging_copies_each_release_binary_into_its_package_only_when_its_sum_matches() {
    let dir = stamp_sandbox(env!("CARGO_PKG_VERSION"));
    let dist = dir.path().join("dist");
    std::fs::create_dir_all(&dist).unwrap();
    let targets = node(dir.path(), &["--targets"]);
    let targets = String::from_utf8(targets.stdout).unwrap();
    assert_eq!(targets.lines().count(), 6, "{targets}");
    let mut sums = String::new();
    for target in targets.lines() {
        let exe = if target.contains("windows") { ".exe" } else { "" };
        let name = format!("baton-{}-{target}{exe}", env!("CARGO_PKG_VERSION"));
        std::fs::write(dist.join(&name), target).unwrap();
        let sum = Command::new("sha256sum").arg(dist.join(&name)).output().unwrap();
        let sum = String::from_utf8(sum.stdout).unwrap();
        sums.push_str(&format!("{}  {name}\n", sum.split_whitespace().next().unwrap()));
    }
    std::fs::write(dist.join("SHA256SUMS"), &sums).unwrap();
    let out = node(dir.path(), &["--stage", dist.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let staged = |rel: &str| std::fs::read_to_string(dir.path().join("npm/platforms").join(rel)).unwrap();
    assert_eq!(staged("linux-arm64/baton"), "aarch64-unknown-linux-musl");
    assert_eq!(staged("darwin-x64/baton"), "x86_64-apple-darwin");
    assert_eq!(staged("win32-arm64/baton.exe"), "aarch64-pc-windows-gnullvm");
    assert_eq!(os::mode(&dir.path().join("npm/platforms/darwin-arm64/baton")), 0o755);

    // A binary that is not the one the sums name is refused.
    let linux = dist.join(format!("baton-{}-x86_64-unknown-linux-musl", env!("CARGO_PKG_VERSION")));
    std::fs::write(&linux, "tampered").unwrap();
    let out = node(dir.path(), &["--stage", dist.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not the one in SHA256SUMS"));
}
