//! `baton completions`: shell completions, generated from the command table and each
//! command's help (the options are the `--flag` lines of its help), so they never drift from
//! the parser's docs.

use super::{COMMANDS, Command};
use crate::error::{Error, Result};

pub const COMPLETIONS: Command = Command {
    name: "completions",
    summary: "Print shell completions (bash, zsh or fish)",
    help: "\
baton completions: print a completion script

Usage: baton completions bash|zsh|fish

Examples:
  baton completions bash > ~/.local/share/bash-completion/completions/baton
  baton completions zsh > ~/.zfunc/_baton
  baton completions fish > ~/.config/fish/completions/baton.fish
",
    run: Some(run_completions),
};

fn run_completions(parser: &mut lexopt::Parser) -> Result<()> {
    let shell = match parser.next()? {
        Some(lexopt::Arg::Value(s)) => s.to_string_lossy().into_owned(),
        Some(other @ (lexopt::Arg::Long(_) | lexopt::Arg::Short(_))) => return Err(other.unexpected().into()),
        _ => {
            return Err(Error::Usage("name a shell: bash, zsh or fish".into()));
        }
    };
    if let Some(extra) = parser.next()? {
        return Err(extra.unexpected().into());
    }
    let script =
        script(&shell).ok_or_else(|| Error::Usage(format!("unknown shell '{shell}'; use bash, zsh or fish")))?;
    super::print(&script)
}

/// The `--flags` a command's help lists.
pub fn flags(help: &str) -> Vec<String> {
    let mut flags: Vec<String> = help
        .lines()
        .map(str::trim_start)
        .filter(|l| l.starts_with("--"))
        .filter_map(|l| l.split([' ', ',', '=']).next().map(str::to_owned))
        .collect();
    flags.push("--help".to_owned());
    flags.dedup();
    flags
}

/// The completion script for `shell`, or `None` for a shell baton does not know.
pub fn script(shell: &str) -> Option<String> {
    let names: Vec<&str> = COMMANDS.iter().map(|c| c.name).collect();
    match shell {
        "bash" => {
            let mut cases = String::new();
            for c in COMMANDS {
                cases.push_str(&format!(
                    "        {}) opts=\"{}\" ;;\n",
                    c.name,
                    flags(c.help).join(" ")
                ));
            }
            Some(format!(
                "# bash completion for baton\n_baton() {{\n    local cur=\"${{COMP_WORDS[COMP_CWORD]}}\" opts\n    \
                 if [ \"$COMP_CWORD\" -eq 1 ]; then\n        COMPREPLY=($(compgen -W \"{} --help --version\" -- \"$cur\"))\n        \
                 return\n    fi\n    case \"${{COMP_WORDS[1]}}\" in\n{cases}        *) opts=\"--help\" ;;\n    esac\n    \
                 COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n}}\ncomplete -o default -F _baton baton\n",
                names.join(" ")
            ))
        }
        "zsh" => {
            let mut cases = String::new();
            for c in COMMANDS {
                cases.push_str(&format!(
                    "        {}) compadd -- {} ;;\n",
                    c.name,
                    flags(c.help).join(" ")
                ));
            }
            let described: Vec<String> = COMMANDS
                .iter()
                .map(|c| format!("'{}:{}'", c.name, c.summary.replace('\'', "").replace(':', " -")))
                .collect();
            Some(format!(
                "#compdef baton\n_baton() {{\n    if (( CURRENT == 2 )); then\n        local -a commands=({})\n        \
                 _describe 'command' commands\n        return\n    fi\n    case $words[2] in\n{cases}    esac\n}}\n_baton \"$@\"\n",
                described.join(" ")
            ))
        }
        "fish" => {
            let mut out = String::from("# fish completion for baton\ncomplete -c baton -f\n");
            for c in COMMANDS {
                out.push_str(&format!(
                    "complete -c baton -n '__fish_use_subcommand' -a {} -d '{}'\n",
                    c.name,
                    c.summary.replace('\'', "")
                ));
                for flag in flags(c.help) {
                    out.push_str(&format!(
                        "complete -c baton -n '__fish_seen_subcommand_from {}' -l {}\n",
                        c.name,
                        flag.trim_start_matches("--")
                    ));
                }
            }
            Some(out)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_come_from_the_help_text() {
        let help = "Options:\n  --note TEXT   x\n  --json        y\n  -h, --help\n";
        assert_eq!(flags(help), ["--note", "--json", "--help"]);
        for shell in ["bash", "zsh", "fish"] {
            let s = script(shell).unwrap();
            assert!(s.contains("statusline") && s.contains("pause"), "{shell}");
        }
        assert!(script("tcsh").is_none());
    }
}
