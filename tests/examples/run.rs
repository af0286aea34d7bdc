//! One step of an example run as the reader's terminal would: the built binary for `baton`,
//! in the page's sandbox, stdout and stderr into one stream as a terminal shows them (its
//! text: colours are not compared), and the sandbox's paths written as the pages write them
//! (`/home/u`, the project `/home/u/proj`, `/tmp`, and the binary's folder, first on PATH, as
//! `/home/u/.local/bin` where install puts it), so that only the temporary directory's name is
//! left out of the comparison.

use std::io::Read;
use std::path::Path;
use std::process::Stdio;
use std::time::Instant;

use super::console::Step;
use crate::common::{HANG_LIMIT, Sandbox, baton_bin, native, plain};

/// The home directory the pages show.
pub const HOME: &str = "/home/u";
/// The project directory the pages show.
pub const PROJECT: &str = "/home/u/proj";
/// The folder of the binary the pages show.
pub const BIN: &str = "/home/u/.local/bin";

/// What `step` prints in `sandbox` (stdout and stderr as they came), with the sandbox's paths
/// as the pages show them; an error when the step is not a baton command.
pub fn output(sandbox: &Sandbox, step: &Step) -> Result<String, String> {
    let (program, args) = step.words.split_first().ok_or("an empty command")?;
    if program != "baton" {
        return Err(format!("`{program}` is not baton: only baton's commands are run"));
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut command = sandbox.command(&args);
    // Where install puts baton, then the binary under test: both are on the reader's PATH.
    let bin_dir = Path::new(baton_bin()).parent().unwrap();
    let first = [sandbox.home.join(".local/bin"), bin_dir.to_path_buf()];
    let inherited = std::env::var_os("PATH").unwrap_or_default();
    let path = std::env::join_paths(first.into_iter().chain(std::env::split_paths(&inherited))).unwrap();
    command
        .env("PATH", path)
        .env("TZ", "UTC")
        .envs(step.env.iter().map(|(k, v)| (k, v)));
    let (mut reader, writer) = std::io::pipe().unwrap();
    let stdin = match &step.stdin {
        Some(file) => {
            let opened = std::fs::File::open(sandbox.project.join(file));
            Stdio::from(opened.map_err(|e| format!("`{}`: {file}: {e}", step.shown))?)
        }
        None => Stdio::null(),
    };
    command.stdin(stdin).stdout(writer.try_clone().unwrap()).stderr(writer);
    let started = Instant::now();
    let mut child = command.spawn().unwrap();
    drop(command);
    let collector = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        reader.read_to_end(&mut bytes).map(|_| bytes)
    });
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > HANG_LIMIT {
            let _ = child.kill();
            return Err(format!("`{}` hung for over {HANG_LIMIT:?}", step.shown));
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let bytes = collector.join().unwrap().unwrap();
    Ok(as_the_pages_show(sandbox, &plain(&String::from_utf8_lossy(&bytes))))
}

/// `printed` with the sandbox's directories replaced by the ones the pages show.
fn as_the_pages_show(sandbox: &Sandbox, printed: &str) -> String {
    let mut shown = printed.to_owned();
    let bin_dir = Path::new(baton_bin()).parent().unwrap();
    let dirs = [
        (bin_dir, BIN),
        (&sandbox.project, PROJECT),
        (&sandbox.home, HOME),
        (&sandbox.tmp, "/tmp"),
    ];
    for (dir, page) in dirs {
        let real = std::fs::canonicalize(dir).unwrap();
        for spelling in [native(&real), native(dir)] {
            shown = shown.replace(&spelling, page);
        }
    }
    shown
}
