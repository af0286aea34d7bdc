//! `--session ID | --transcript FILE`: which session `report` and `window` read.

use std::path::PathBuf;

use super::values;
use crate::accounting::transcripts::SessionChoice;

/// The session's flags, shared by the commands that read a transcript.
#[derive(clap::Args)]
pub struct SessionArgs {
    /// The session (or subagent) with this id
    #[arg(long, value_name = "ID", value_parser = values::text(), allow_hyphen_values = true, conflicts_with = "transcript")]
    session: Option<String>,
    /// The session whose transcript is FILE
    #[arg(long, value_name = "FILE", value_parser = values::file(), allow_hyphen_values = true)]
    transcript: Option<PathBuf>,
}

impl SessionArgs {
    /// The session named, or the newest of the project.
    pub fn choice(self) -> SessionChoice {
        match (self.session, self.transcript) {
            (Some(id), _) => SessionChoice::Id(id),
            (None, Some(path)) => SessionChoice::Transcript(path),
            (None, None) => SessionChoice::Newest,
        }
    }
}
