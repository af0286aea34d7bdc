//! Help for every command, the version, completions and unknown commands.

use super::ok;
use crate::common::*;

#[test]
fn every_command_has_help_with_examples_and_there_are_completions() {
    let sandbox = Sandbox::new();
    let top = ok(sandbox.run(&["--help"], b"")).stdout;
    let commands: Vec<String> = top
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(|l| l.split_whitespace().next().unwrap().to_owned())
        .collect();
    assert!(commands.len() >= 9, "{top}");
    let last = top.lines().last().unwrap();
    assert!(
        last.starts_with("Getting started: `baton install`") && last.contains("docs/introduction.md"),
        "the help ends with where to start: {top}"
    );
    for command in &commands {
        let help = ok(sandbox.run(&[command, "--help"], b"")).stdout;
        assert!(help.contains("Usage: baton "), "{command}: {help}");
        assert!(help.contains("Example"), "{command} has no example: {help}");
    }
    assert!(ok(sandbox.run(&["--version"], b"")).stdout.starts_with("baton "));
    let bash = ok(sandbox.run(&["completions", "bash"], b"")).stdout;
    let check = std::process::Command::new("bash")
        .args(["-n", "-c", &bash])
        .output()
        .unwrap();
    assert!(check.status.success(), "{}", String::from_utf8_lossy(&check.stderr));
    assert!(
        bash.contains("--json-in") && bash.contains("--no-statusline"),
        "flags come from the commands' definitions"
    );
    assert!(
        ok(sandbox.run(&["completions", "fish"], b""))
            .stdout
            .contains("-l dry-run")
    );
    assert!(
        ok(sandbox.run(&["completions", "zsh"], b""))
            .stdout
            .starts_with("#compdef baton")
    );
    let powershell = ok(sandbox.run(&["completions", "powershell"], b"")).stdout;
    assert!(
        powershell.contains("Register-ArgumentCompleter") && powershell.contains("--no-statusline"),
        "{powershell}"
    );
    let out = sandbox.run(&["frobnicate"], b"");
    assert_eq!(out.code, Some(2));
    assert!(
        out.stderr.contains("unknown command 'frobnicate'") && out.stderr.contains("baton --help"),
        "{}",
        out.stderr
    );
}

/// The `opts=` line of a case of the bash completion script (`baton__subcmd__ctx)`).
fn bash_opts<'a>(bash: &'a str, case: &str) -> &'a str {
    let start = bash
        .find(&format!("        {case})\n"))
        .unwrap_or_else(|| panic!("no case {case} in:\n{bash}"));
    bash[start..]
        .lines()
        .find(|l| l.trim_start().starts_with("opts="))
        .unwrap()
}

#[test]
fn completions_offer_the_actions_and_only_each_actions_flags() {
    let sandbox = Sandbox::new();
    let bash = ok(sandbox.run(&["completions", "bash"], b"")).stdout;
    let ctx = bash_opts(&bash, "baton__subcmd__ctx");
    assert!(ctx.contains(" rollback ") && ctx.contains(" compact "), "{ctx}");
    let compact = bash_opts(&bash, "baton__subcmd__ctx__subcmd__compact");
    assert!(compact.contains("--keep"), "{compact}");
    let set = bash_opts(&bash, "baton__subcmd__ctx__subcmd__set");
    assert!(set.contains("--stdin") && !set.contains("--keep"), "{set}");
    let profile = bash_opts(&bash, "baton__subcmd__profile");
    assert!(profile.contains(" resolve"), "{profile}");
    let agents = bash_opts(&bash, "baton__subcmd__agents");
    assert!(agents.contains(" verify ") && agents.contains(" payload"), "{agents}");
    let fish = ok(sandbox.run(&["completions", "fish"], b"")).stdout;
    assert!(
        fish.lines()
            .any(|l| l.contains("__fish_seen_subcommand_from compact") && l.contains("-l keep")),
        "fish completes compact's --keep"
    );
}
