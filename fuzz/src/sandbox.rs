//! One private directory per fuzzing process (on tmpfs when there is one) holding HOME,
//! TMPDIR, the Claude folder and a GSD project, made anew for each input, with the
//! environment pointed at it once. Paths from an input are confined to it, so nothing a
//! hook does reaches the machine's real files.

use std::fs;
use std::path::{Component, Path, PathBuf};
use std::sync::OnceLock;

/// GSD's STATE.md and ROADMAP.md as the suite's project has them (tests/fixtures/gsd/).
const STATE_MD: &str = include_str!("../../tests/fixtures/gsd/STATE.md");
const ROADMAP_MD: &str = include_str!("../../tests/fixtures/gsd/ROADMAP.md");

/// Plan and phase files of the suite's project (`tests/common/gsd.rs`).
const PHASE_FILES: &[&str] = &[
    "phases/01-foundation/01-01-PLAN.md",
    "phases/01-foundation/01-01-SUMMARY.md",
    "phases/02-catalog/02-01-PLAN.md",
    "phases/02-catalog/02-01-SUMMARY.md",
    "phases/03-cart/03-CONTEXT.md",
    "phases/03-cart/03-01-PLAN.md",
    "phases/03-cart/03-01-SUMMARY.md",
    "phases/03-cart/03-02-PLAN.md",
    "phases/03.1-cart-hotfix/03.1-01-PLAN.md",
];

/// The sandbox of this process.
pub struct Sandbox {
    /// Never removed while the process runs.
    pub base: PathBuf,
    /// Capture files and the stdin file.
    pub io: PathBuf,
    /// Everything an input may change; removed and made again by [`Sandbox::reset`].
    pub run: PathBuf,
}

static SANDBOX: OnceLock<Sandbox> = OnceLock::new();

/// The sandbox, made (and the environment pointed at it) on first use.
pub fn sandbox() -> &'static Sandbox {
    SANDBOX.get_or_init(|| {
        let parent = std::env::var_os("BATON_FUZZ_DIR")
            .map(PathBuf::from)
            .filter(|p| p.is_dir())
            .or_else(|| Some(PathBuf::from("/dev/shm")).filter(|p| p.is_dir()))
            .unwrap_or_else(std::env::temp_dir);
        let base = parent.join(format!("baton-fuzz-{}", std::process::id()));
        let _ = fs::remove_dir_all(&base);
        fs::create_dir_all(&base).expect("sandbox directory");
        let base = base.canonicalize().expect("sandbox directory");
        let run = base.join("run");
        let io = base.join("io");
        fs::create_dir_all(&io).expect("sandbox directory");
        let sandbox = Sandbox { base, io, run };
        // SAFETY: set once, before baton runs and before any thread of ours starts.
        unsafe {
            std::env::set_var("HOME", sandbox.home());
            std::env::set_var("TMPDIR", sandbox.tmp());
            std::env::set_var("CLAUDE_CONFIG_DIR", sandbox.claude_dir());
            std::env::set_var("XDG_CONFIG_HOME", sandbox.home().join(".config"));
            std::env::set_var("CLAUDE_PROJECT_DIR", sandbox.project());
            std::env::set_var("NO_COLOR", "1");
            // No git: the sandbox is no repository, so git only fails, after a fork and exec
            // that would cost more than the rest of a hook.
            std::env::set_var("PATH", sandbox.base.join("no-programs"));
            for name in [
                "BATON_LOG",
                "BATON_CONFIG",
                "BATON_AGENT",
                "COLUMNS",
                "CLAUDE_CODE_SESSION_ID",
                "CLAUDE_CODE_DISABLE_1M_CONTEXT",
                "CLAUDE_PLUGIN_ROOT",
            ] {
                std::env::remove_var(name);
            }
        }
        sandbox.reset();
        sandbox
    })
}

impl Sandbox {
    pub fn home(&self) -> PathBuf {
        self.run.join("home")
    }

    pub fn tmp(&self) -> PathBuf {
        self.run.join("tmp")
    }

    pub fn claude_dir(&self) -> PathBuf {
        self.home().join(".claude")
    }

    /// The GSD project (`.planning/` with STATE.md, ROADMAP.md and phase directories).
    pub fn project(&self) -> PathBuf {
        self.run.join("project")
    }

    /// The session's transcript.
    pub fn transcript(&self) -> PathBuf {
        self.claude_dir().join("projects/-project/session.jsonl")
    }

    /// Empties the run directory and lays out HOME, TMPDIR and the GSD project again.
    pub fn reset(&self) {
        let _ = fs::remove_dir_all(&self.run);
        for dir in [self.tmp(), self.claude_dir(), self.home().join(".config")] {
            fs::create_dir_all(dir).expect("sandbox directory");
        }
        self.write_planning(STATE_MD, ROADMAP_MD);
        let planning = self.project().join(".planning");
        for file in PHASE_FILES {
            self.write(&planning.join(file), format!("# {file}\n").as_bytes());
        }
        fs::create_dir_all(planning.join("phases/04-payments")).expect("phase directory");
    }

    /// Writes STATE.md and ROADMAP.md of the project.
    pub fn write_planning(&self, state: &str, roadmap: &str) {
        let planning = self.project().join(".planning");
        self.write(&planning.join("STATE.md"), state.as_bytes());
        self.write(&planning.join("ROADMAP.md"), roadmap.as_bytes());
    }

    /// Writes a file, making its directory.
    pub fn write(&self, path: &Path, bytes: &[u8]) {
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir).expect("sandbox directory");
        }
        fs::write(path, bytes).expect("sandbox file");
    }

    /// `path` moved under `root`: its plain components only, so `..` cannot leave it (a
    /// relative path too: the process's own directory is not the sandbox's).
    pub fn confine(&self, path: &str, root: &Path) -> String {
        let mut confined = root.to_path_buf();
        for component in Path::new(path).components() {
            if let Component::Normal(name) = component {
                confined.push(name);
            }
        }
        confined.to_string_lossy().into_owned()
    }

    /// Entries at the top of the sandbox and of its run directory that nothing should have
    /// made: a write that escaped HOME, TMPDIR and the project (a session id with `..`, a
    /// path not confined) shows here.
    pub fn unexpected_entries(&self) -> Vec<String> {
        let list = |dir: &Path, expected: &[&str]| -> Vec<String> {
            fs::read_dir(dir)
                .map(|entries| {
                    entries
                        .flatten()
                        .map(|e| e.file_name().to_string_lossy().into_owned())
                        .filter(|name| !expected.contains(&name.as_str()))
                        .map(|name| dir.join(name).display().to_string())
                        .collect()
                })
                .unwrap_or_default()
        };
        let mut found = list(&self.base, &["io", "run"]);
        found.extend(list(&self.run, &["home", "tmp", "project"]));
        found
    }
}
