//! `--json`, the flag of every action that prints data for programs.

// A flattened struct's doc comment would become the about of the command it is flattened into,
// hence plain comments on this one.
// `--json`, flattened into each action that takes it.
#[derive(clap::Args)]
pub struct Json {
    /// Print JSON
    #[arg(long)]
    pub json: bool,
}
