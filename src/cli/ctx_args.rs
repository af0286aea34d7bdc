//! The actions of `baton ctx` and their arguments, each defined once, on the actions that take
//! it (clap derive), with the groups several actions share. How their words are read is in
//! ctx_values.rs.

use std::path::PathBuf;

use super::json_flag::Json;
use super::values;
use crate::store::document::STATUSES;

/// `baton ctx`: one action.
#[derive(clap::Args)]
#[command(
    about = "The versioned context store agents share (.baton/context.json): get, set, inputs, history",
    before_help = super::ctx::ABOUT,
    after_help = super::ctx::DETAILS,
    subcommand_value_name = "ACTION",
    subcommand_help_heading = "Actions",
    disable_help_subcommand = true,
    arg_required_else_help = false
)]
pub struct Args {
    #[command(subcommand)]
    pub action: Action,
}

/// The actions of `baton ctx`, in the order its help lists them.
#[derive(clap::Subcommand)]
pub enum Action {
    /// Start the store (version 1), empty or from a JSON document
    Init(Init),
    /// Summarize the document: project, step, version, agents (--json: the document)
    Show {
        #[command(flatten)]
        at: At,
        #[command(flatten)]
        out: Json,
    },
    /// Print the value at PATH
    Get {
        #[command(flatten)]
        path: DocPathArg,
        /// Resolve the references in the value
        #[arg(long)]
        resolve: bool,
        #[command(flatten)]
        at: At,
        /// Print a string value without quotes
        #[arg(long)]
        raw: bool,
        #[command(flatten)]
        out: Json,
    },
    /// Write a value at PATH (JSON, else a string)
    #[command(override_usage = "baton ctx set [OPTIONS] <PATH> <VALUE|--file <F>|--stdin>")]
    Set {
        #[command(flatten)]
        path: DocPathArg,
        #[command(flatten)]
        value: ValueSource,
        #[command(flatten)]
        writer: WriterName,
        #[command(flatten)]
        out: Json,
    },
    /// Delete the value at PATH
    Delete {
        #[command(flatten)]
        path: DocPathArg,
        #[command(flatten)]
        writer: WriterName,
        #[command(flatten)]
        out: Json,
    },
    /// Set an agent's status
    Agent {
        /// The agent's name
        #[arg(value_name = "NAME", value_parser = values::text())]
        name: String,
        /// The status
        #[arg(long, value_name = "S", value_parser = clap::builder::PossibleValuesParser::new(STATUSES.iter().copied()))]
        status: String,
        #[command(flatten)]
        writer: WriterName,
        #[command(flatten)]
        out: Json,
    },
    /// Record an agent's artifact (its file, data and quality, with the time)
    Output(Output),
    /// Print the inputs of a workflow step, taken from the store
    Inputs {
        /// The workflow file, YAML or JSON
        #[arg(long, value_name = "FILE", value_parser = values::file(), allow_hyphen_values = true)]
        workflow: PathBuf,
        /// The step (its `step:` value, else its position)
        #[arg(long, value_name = "N", value_parser = values::text(), allow_hyphen_values = true)]
        step: String,
        #[command(flatten)]
        at: At,
        #[command(flatten)]
        out: Json,
    },
    /// Print the history, one line per version
    Log {
        /// How many of the newest versions (default 20)
        #[arg(short = 'n', long = "limit", value_name = "N", value_parser = values::whole::<usize>())]
        limit: Option<usize>,
        /// Every version
        #[arg(long, conflicts_with = "limit")]
        all: bool,
        #[command(flatten)]
        out: Json,
    },
    /// Print what changed from version V1 to V2 (default: the current version)
    Diff {
        /// The older version (12 or v12)
        #[arg(value_name = "V1", value_parser = values::text())]
        from: String,
        /// The newer version
        #[arg(value_name = "V2", value_parser = values::text())]
        to: Option<String>,
        #[command(flatten)]
        out: Json,
    },
    /// Write a new version equal to version V
    Rollback {
        /// The version to go back to (12 or v12)
        #[arg(value_name = "V", value_parser = values::text())]
        version: String,
        #[command(flatten)]
        writer: WriterName,
        #[command(flatten)]
        out: Json,
    },
    /// Drop the history before the newest N versions
    Compact {
        /// Keep the newest N versions, at least 1
        #[arg(long, value_name = "N", value_parser = values::whole::<u64>())]
        keep: u64,
        #[command(flatten)]
        out: Json,
    },
    /// Check the document against its journal, the proposal's shape and its references
    Validate(Json),
    /// Write one version per JSON line: {"set": PATH, "value": V} or {"delete": PATH}
    Batch {
        #[command(flatten)]
        lines: Lines,
        #[command(flatten)]
        writer: WriterName,
        #[command(flatten)]
        out: Json,
    },
}

// The arguments of `init`. (Flattened and variant structs carry plain comments: a doc comment
// would become the about of the command they are in.)
#[derive(clap::Args)]
pub struct Init {
    /// project_name (default: the directory's name)
    #[arg(long, value_name = "NAME", value_parser = values::text(), allow_hyphen_values = true)]
    pub project: Option<String>,
    /// workflow_type
    #[arg(long, value_name = "TYPE", value_parser = values::text(), allow_hyphen_values = true)]
    pub workflow: Option<String>,
    /// Start from this JSON document
    #[arg(long, value_name = "FILE", value_parser = values::file(), allow_hyphen_values = true)]
    pub from: Option<PathBuf>,
    #[command(flatten)]
    pub writer: WriterName,
    #[command(flatten)]
    pub out: Json,
}

// The arguments of `output`.
#[derive(clap::Args)]
pub struct Output {
    /// The agent's name
    #[arg(value_name = "AGENT", value_parser = values::text())]
    pub agent: String,
    /// The artifact's name
    #[arg(value_name = "ARTIFACT", value_parser = values::text())]
    pub artifact: String,
    /// The artifact's file (file_path)
    #[arg(long, value_name = "P", value_parser = values::file(), allow_hyphen_values = true)]
    pub file: Option<PathBuf>,
    /// Its structured_data (JSON)
    #[arg(long, value_name = "JSON", value_parser = values::text(), allow_hyphen_values = true)]
    pub data: Option<String>,
    /// Read its structured_data from stdin
    #[arg(long, conflicts_with = "data")]
    pub stdin: bool,
    /// Its quality_score (a number)
    #[arg(long, value_name = "Q", value_parser = values::number(), allow_hyphen_values = true)]
    pub quality: Option<f64>,
    #[command(flatten)]
    pub writer: WriterName,
    #[command(flatten)]
    pub out: Json,
}

// PATH, the place in the document an action reads or writes.
#[derive(clap::Args)]
pub struct DocPathArg {
    /// Dotted like agents.pm.status, or a JSON Pointer like /agents/pm/status
    #[arg(value_name = "PATH", value_parser = values::text())]
    pub path: String,
}

// `--at V`: the version an action reads.
#[derive(clap::Args)]
pub struct At {
    /// Read version V instead of the current one
    #[arg(long, value_name = "V", value_parser = values::whole::<u64>())]
    pub at: Option<u64>,
}

// `--as NAME`: who writes, as the journal records it.
#[derive(clap::Args)]
pub struct WriterName {
    /// The writer the journal records (default $BATON_AGENT, else unknown)
    #[arg(long = "as", value_name = "NAME", value_parser = values::text(), allow_hyphen_values = true)]
    pub as_name: Option<String>,
}

// VALUE | --file F | --stdin: where `set` takes its value, exactly one of them.
#[derive(clap::Args)]
#[group(required = true, multiple = false)]
pub struct ValueSource {
    /// The value: JSON, else a string
    #[arg(value_name = "VALUE", value_parser = values::text(), allow_negative_numbers = true)]
    pub value: Option<String>,
    /// Read the value from file F
    #[arg(long, value_name = "F", value_parser = values::file(), allow_hyphen_values = true)]
    pub file: Option<PathBuf>,
    /// Read the value from stdin
    #[arg(long)]
    pub stdin: bool,
}

// --stdin | --file F: where `batch` reads its lines, exactly one of them.
#[derive(clap::Args)]
#[group(required = true, multiple = false)]
pub struct Lines {
    /// Read the lines from file F
    #[arg(long, value_name = "F", value_parser = values::file(), allow_hyphen_values = true)]
    pub file: Option<PathBuf>,
    /// Read the lines from stdin
    #[arg(long)]
    pub stdin: bool,
}
