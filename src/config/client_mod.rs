//! `"mod"`: what baton's mod (Claude Code 2.1.287+, `mod/baton.tsx`) does. On by default where
//! the client runs it; `{"mod": {"enabled": false}}` leaves everything to the hooks, `"rows"`
//! and `"band"` switch off its subagent rows and the band above the prompt.

use serde::{Deserialize, Serialize};

use super::Config;
use crate::json::lenient::lenient;

/// `"mod"` as one config file holds it.
#[derive(Debug, Default, Serialize, Deserialize, Clone)]
#[serde(default)]
pub struct ModFile {
    #[serde(deserialize_with = "lenient")]
    pub enabled: Option<bool>,
    #[serde(deserialize_with = "lenient")]
    pub rows: Option<bool>,
    #[serde(deserialize_with = "lenient")]
    pub band: Option<bool>,
}

/// The mod's settings after defaults (everything on).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ModSettings {
    /// The mod speaks for sessions (warnings at tool calls, handoffs at spawn).
    pub enabled: bool,
    /// Each running subagent's row shows its context and forecast.
    pub rows: bool,
    /// The band above the prompt shows the context and forecast.
    pub band: bool,
}

impl Config {
    /// The mod's settings, project over user.
    pub fn client_mod(&self) -> ModSettings {
        let pick = |f: fn(&ModFile) -> Option<bool>| {
            let of = |file: &super::ConfigFile| file.client_mod.as_ref().and_then(f);
            of(&self.project).or_else(|| of(&self.user)).unwrap_or(true)
        };
        ModSettings {
            enabled: pick(|m| m.enabled),
            rows: pick(|m| m.rows),
            band: pick(|m| m.band),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::ConfigFile;

    fn file(json: &str) -> ConfigFile {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn on_by_default_and_switched_key_by_key() {
        let all = ModSettings {
            enabled: true,
            rows: true,
            band: true,
        };
        assert_eq!(Config::default().client_mod(), all);
        let c = Config::from_files(
            file(r#"{"mod":{"band":false,"rows":false}}"#),
            file(r#"{"mod":{"rows":true,"enabled":"no"}}"#),
        );
        assert_eq!(
            c.client_mod(),
            ModSettings { band: false, ..all },
            "the project's rows win; a value that is not a boolean is skipped"
        );
    }
}
