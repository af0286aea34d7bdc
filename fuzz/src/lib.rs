//! What the fuzz targets share: a private sandbox (HOME, TMPDIR, the Claude folder and a GSD
//! project) that each input starts afresh, outside paths confined to it, the capture of what a
//! call writes to stdout and stderr, the first-object reader hooks use, transcripts built from
//! an input, and the check that a parser stays linear on a long input.

pub mod sandbox;
pub mod scene;
pub mod transcript;

use std::cell::RefCell;
use std::fs::File;
use std::io::Write;
use std::os::fd::AsRawFd;
use std::panic::AssertUnwindSafe;
use std::time::{Duration, Instant};

pub use sandbox::{Sandbox, sandbox};

/// The context meter's widest form, `██████████ 100%`: a line may be this wide whatever the
/// columns (the meter always stays).
pub const METER_CELLS: usize = 15;

/// The fixed "now" every target passes baton (Unix seconds, 2026-11-30): runs of one input
/// behave alike.
pub const NOW: u64 = 1_796_000_000;

/// What a call wrote to the process's stdout and stderr.
#[derive(Debug, Default)]
pub struct Output {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

thread_local! {
    static PANIC_MESSAGE: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Runs `body` with file descriptors 1 and 2 pointing at files of the sandbox, and returns
/// what it wrote there. A panic inside is raised again once the descriptors are back, so
/// libFuzzer reports it on the real stderr.
pub fn captured<T>(body: impl FnOnce() -> T) -> (T, Output) {
    let dir = sandbox().io.clone();
    let out_path = dir.join("stdout.capture");
    let err_path = dir.join("stderr.capture");
    let out = File::create(&out_path).expect("stdout capture file");
    let err = File::create(&err_path).expect("stderr capture file");
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    // SAFETY: dup/dup2 on descriptors this process owns; restored below before returning.
    let saved = unsafe { [libc::dup(1), libc::dup(2)] };
    assert!(saved.iter().all(|fd| *fd >= 0), "dup of stdout/stderr failed");
    unsafe {
        libc::dup2(out.as_raw_fd(), 1);
        libc::dup2(err.as_raw_fd(), 2);
    }
    let previous_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|info| {
        PANIC_MESSAGE.with(|m| *m.borrow_mut() = Some(info.to_string()));
    }));
    let result = std::panic::catch_unwind(AssertUnwindSafe(|| {
        let value = body();
        let _ = std::io::stdout().flush();
        let _ = std::io::stderr().flush();
        value
    }));
    std::panic::set_hook(previous_hook);
    unsafe {
        libc::dup2(saved[0], 1);
        libc::dup2(saved[1], 2);
        libc::close(saved[0]);
        libc::close(saved[1]);
    }
    match result {
        Ok(value) => {
            let output = Output {
                stdout: std::fs::read(&out_path).unwrap_or_default(),
                stderr: std::fs::read(&err_path).unwrap_or_default(),
            };
            (value, output)
        }
        Err(_) => {
            let message = PANIC_MESSAGE.with(|m| m.borrow_mut().take()).unwrap_or_default();
            panic!("baton panicked: {message}");
        }
    }
}

/// The first JSON object of `input` as the hooks' stdin reader takes it, with where it
/// starts in `input`; `Err` says why there is none.
pub fn first_object(input: &[u8]) -> Result<(usize, Vec<u8>), baton::hook::stdin::ReadFailure> {
    let path = sandbox().io.join("stdin");
    std::fs::write(&path, input).expect("stdin file");
    let file = File::open(&path).expect("stdin file");
    let mut source = baton::platform::stdin::TimedReader::from_file(file);
    let bytes = baton::hook::stdin::read_object(&mut source, Duration::from_secs(1), 1 << 24)?;
    let begin = input
        .iter()
        .position(|&b| b == b'{')
        .expect("an object was read, so the input has a brace");
    Ok((begin, bytes))
}

/// FNV-1a of `bytes`: a choice made from an input that stays the same for that input.
pub fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// Size a linear parser handles in well under [`LINEAR_BUDGET`].
pub const LINEAR_BYTES: usize = 512 * 1024;
/// Time allowed for [`LINEAR_BYTES`]: hundreds of times what a linear parser needs here,
/// far less than a quadratic one takes.
pub const LINEAR_BUDGET: Duration = Duration::from_secs(2);

/// For one input in 32 (chosen by its hash), runs `parse` on the input repeated up to
/// [`LINEAR_BYTES`] and fails when that takes longer than [`LINEAR_BUDGET`]: a parser that
/// is quadratic in some construct shows it once the construct repeats.
pub fn check_linear(what: &str, input: &[u8], parse: impl Fn(&[u8])) {
    if input.is_empty() || !fnv(input).is_multiple_of(32) {
        return;
    }
    let long = input.repeat(LINEAR_BYTES.div_ceil(input.len()));
    let started = Instant::now();
    parse(&long);
    let took = started.elapsed();
    assert!(
        took <= LINEAR_BUDGET,
        "{what}: {} bytes ({} repeats of the input) took {took:?}, over {LINEAR_BUDGET:?}: not linear",
        long.len(),
        long.len() / input.len()
    );
}
