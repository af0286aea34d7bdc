//! The `baton` binary: argv in, exit status out. Everything else lives in the library.
//!
//! `no_main`: baton runs on every prompt and tool call, and std's start-up work buys it
//! nothing it does not do itself (bench/README.md, the hooks, has the measurement). What it needs
//! from that start-up is in `platform::process`: SIGPIPE ignored, the standard descriptors
//! open, and the arguments from the `argc`/`argv` given here (musl keeps them nowhere else).
//! `cli::main` catches panics (exit 101 with a message; hooks stay silent) and flushes stdout.
#![no_main]

use std::ffi::{c_char, c_int};

#[unsafe(no_mangle)]
extern "C" fn main(argc: c_int, argv: *const *const c_char) -> c_int {
    baton::platform::process::start();
    // SAFETY: these are the C runtime's own argc and argv.
    let args = unsafe { baton::platform::process::args(argc, argv) };
    c_int::from(baton::cli::main(args))
}
