//! What is wrong with the model keys of `.planning/config.json`, as a typed error: the file is
//! named by [`crate::error::Error::Contents`], whose source this is.

use serde_json::Value;

use super::profile_config::KEY;

/// Why config.json's model keys cannot be read or `model_profile` cannot be edited.
#[derive(Debug, thiserror::Error)]
pub enum ConfigProblem {
    #[error("not valid JSON ({0}); fix the file by hand")]
    NotJson(#[source] serde_json::Error),
    #[error("must hold a JSON object {{ … }}; fix the file by hand")]
    NotAnObject,
    #[error("\"{KEY}\" must be a string, found {0}")]
    ProfileNotAString(Value),
    #[error(
        "\"model_overrides\".\"{agent}\" must be a model alias (opus, sonnet, haiku, inherit) or a model id, \
         found {model}"
    )]
    OverrideNotAModel { agent: String, model: Value },
    #[error("\"model_overrides\" must be an object {{agent: model}}, found {0}")]
    OverridesNotAnObject(Value),
    #[error("could not locate the top-level object")]
    NoTopLevelObject,
    #[error("editing \"{KEY}\" would change other keys; fix the file by hand")]
    EditWouldChangeOtherKeys,
}
