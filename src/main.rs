//! The `baton` binary: argv in, exit status out. Everything else lives in the library.
//!
//! `no_main`: baton runs on every prompt and tool call, and std's start-up work (finding the
//! main thread's stack guard parses /proc/self/maps, about a fifth of a statusline run) buys
//! it nothing. std still receives argv from glibc; SIGPIPE is ignored here as std would, so a
//! closed pipe is an error to handle, not a kill.
#![no_main]

#[unsafe(no_mangle)]
extern "C" fn main(_argc: i32, _argv: *const *const u8) -> i32 {
    // SAFETY: changing a signal's disposition has no preconditions.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_IGN) };
    i32::from(baton::cli::main(std::env::args_os().skip(1).collect()))
}
