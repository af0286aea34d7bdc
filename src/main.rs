//! The `baton` binary: argv in, exit code out. Everything else lives in the library.

fn main() -> std::process::ExitCode {
    baton::cli::main(std::env::args_os().skip(1).collect())
}
