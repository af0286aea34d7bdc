//! `baton install`, `uninstall` and `doctor`.

use std::io::{BufRead, IsTerminal};
use std::path::PathBuf;

use super::values;
use crate::error::{Context, Error, Result};
use crate::install::{self, InstallRequest, Scope, StatuslinePolicy, doctor};

/// `baton install`.
#[derive(clap::Args)]
#[command(
    about = "Wire the statusline, hooks and slash commands into settings.json (with a backup)",
    before_help = "\
baton install: wire baton into Claude Code

Merges baton's statusLine and hooks (PostToolUse, SessionStart, PreCompact, PostCompact,
SubagentStart, SubagentStop) into settings.json and writes the slash commands (/baton:pause-work,
/baton:resume-work, /baton:progress, /baton:set-profile) under commands/baton/. Keeps every
existing key and entry, adds nothing twice, keeps a timestamped backup next to the file, and
records what it added in baton-install.json so `baton uninstall` takes out exactly that.
Entries that run another baton binary are re-pointed at this one; a slash command file you
edited is left alone. A settings.json that is a symlink is written through to its target.
A settings.json that is not plain JSON (comments, trailing commas) is refused and left
unchanged. With the baton Claude Code plugin enabled, which gives the hooks and the slash
commands, only the statusLine is wired (what the plugin's /baton:setup runs).",
    after_help = "\
Examples:
  baton install
  baton install --project . --dry-run
  npx baton-cc@latest install"
)]
pub struct Install {
    #[command(flatten)]
    scope: ScopeArgs,
    /// First copy this binary to ~/.local/bin/baton ($BATON_PREFIX/bin; on
    /// Windows %LOCALAPPDATA%\baton\baton.exe) and wire that copy: what
    /// `npx baton-cc install` and ./install.sh do. Run again to upgrade, also while
    /// sessions run it; `baton uninstall` removes the copy
    #[arg(long, verbatim_doc_comment)]
    copy: bool,
    /// Say what would change; change nothing (exits 0)
    #[arg(long)]
    dry_run: bool,
    /// Replace another tool's statusLine (uninstall puts it back)
    #[arg(long)]
    force: bool,
    /// Answer yes to questions (for scripts)
    #[arg(long)]
    yes: bool,
    /// Keep the current statusLine; wire only hooks and commands
    #[arg(long)]
    no_statusline: bool,
}

/// `baton uninstall`.
#[derive(clap::Args)]
#[command(
    about = "Take out exactly what `baton install` added",
    before_help = "\
baton uninstall: take out what baton install added

Removes the statusLine and hook entries recorded in baton-install.json (restoring a
statusLine that install replaced), the slash command files it wrote, unless you
changed them since (those are kept, and listed), and the copy of baton that
`install --copy` put in place. A backup of settings.json is kept.",
    after_help = "\
Example:
  baton uninstall --project ."
)]
pub struct Uninstall {
    #[command(flatten)]
    scope: ScopeArgs,
    /// Say what would change; change nothing
    #[arg(long)]
    dry_run: bool,
    /// Accepted for scripts, as install takes it (uninstall asks nothing)
    #[arg(long)]
    yes: bool,
}

/// `baton doctor`.
#[derive(clap::Args)]
#[command(
    about = "Check the wiring and say what to fix",
    before_help = "\
baton doctor: check the wiring

Checks that baton is on PATH and is the binary the settings run, that the statusLine and
every hook entry are present (user settings, the project's when run inside one, and an
installed baton plugin), that each wired command does what Claude Code needs (tried in a
scratch directory with a made-up session: the statusline prints one line and writes the
bridge file; the hook warns the agent at a PostToolUse with 15% context left), that the
bridge file is fresh for a session active in the last ten minutes, and that recent
transcripts show no failed baton hooks. Exits 1 when something needs fixing.",
    after_help = "\
Example:
  baton doctor"
)]
pub struct Doctor {
    /// Also check DIR/.claude/settings.json [default: the current project]
    #[arg(long, value_name = "DIR", value_parser = values::dir(), allow_hyphen_values = true)]
    project: Option<PathBuf>,
}

/// Which settings.json: the user's or a project's.
#[derive(clap::Args)]
struct ScopeArgs {
    /// ~/.claude/settings.json (or $CLAUDE_CONFIG_DIR) [default]
    #[arg(long, overrides_with = "project")]
    user: bool,
    /// DIR/.claude/settings.json
    #[arg(long, value_name = "DIR", value_parser = values::dir(), allow_hyphen_values = true, overrides_with = "user")]
    project: Option<PathBuf>,
}

impl ScopeArgs {
    fn scope(self) -> Scope {
        self.project.map_or(Scope::User, Scope::Project)
    }
}

/// The running binary's absolute path, which the settings will call.
fn this_binary() -> Result<PathBuf> {
    let exe = std::env::current_exe().context("cannot tell where baton is installed")?;
    Ok(crate::platform::path::canonical(&exe).unwrap_or(exe))
}

pub fn run_install(args: Install) -> Result<()> {
    let running = this_binary()?;
    let (binary, copy_from) = match args.copy {
        true => (install::binary::destination()?, Some(running)),
        false => (running, None),
    };
    // Another tool's statusLine: a terminal is asked (once, when a real install would meet
    // it); otherwise, and when the answer is no, it is kept and the rest is wired, as a dry run
    // says. Every path names --force and --no-statusline.
    let ask = !args.dry_run && std::io::stdin().is_terminal();
    let mut request = InstallRequest {
        scope: args.scope.scope(),
        binary,
        copy_from,
        dry_run: args.dry_run,
        statusline: match (args.no_statusline, args.force || args.yes, ask) {
            (true, _, _) => StatuslinePolicy::Skip,
            (false, true, _) => StatuslinePolicy::Replace,
            (false, false, true) => StatuslinePolicy::Refuse,
            (false, false, false) => StatuslinePolicy::Keep,
        },
        force: args.force,
    };
    let report = match install::install(&request) {
        Err(Error::Failed(message))
            if message.contains("already has a statusLine") && request.statusline == StatuslinePolicy::Refuse =>
        {
            eprint!(
                "{}\nReplace it with baton's? (`--force` says yes, `--no-statusline` no, without asking) [y/N] ",
                message.lines().next().unwrap_or("")
            );
            let mut answer = String::new();
            std::io::stdin()
                .lock()
                .read_line(&mut answer)
                .context("cannot read the answer from stdin")?;
            request.statusline = match answer.trim() {
                "y" | "Y" | "yes" => StatuslinePolicy::Replace,
                _ => StatuslinePolicy::Keep,
            };
            install::install(&request)?
        }
        other => other?,
    };
    let mut out = String::new();
    let dry = request.dry_run;
    if let Some(placed) = &report.placed {
        out.push_str(&placed_line(placed, dry));
    }
    if report.added.is_empty() && report.updated.is_empty() {
        out.push_str(&format!(
            "{} already wires baton; nothing to add.\n",
            report.settings.display()
        ));
    }
    if !report.added.is_empty() {
        out.push_str(&format!(
            "{} to {}: {}\n",
            if dry { "Would add" } else { "Added" },
            report.settings.display(),
            report.added.join(", ")
        ));
    }
    if !report.updated.is_empty() {
        out.push_str(&format!(
            "{} in {}: {} (they ran another baton binary; now {})\n",
            if dry { "Would update" } else { "Updated" },
            report.settings.display(),
            report.updated.join(", "),
            request.binary.display()
        ));
    }
    if let Some(previous) = &report.replaced_statusline {
        out.push_str(&format!(
            "{} the statusLine `{}` (baton uninstall restores it).\n",
            if dry { "Would replace" } else { "Replaced" },
            previous["command"].as_str().unwrap_or("?")
        ));
    }
    if let Some(current) = &report.statusline_conflict {
        out.push_str(&format!(
            "{} the statusLine of another tool (`{}`), so baton's statusline is not wired (the hooks read the \
             context themselves). `baton install --force` replaces it (`baton uninstall` puts it back); \
             `baton install --no-statusline` keeps it without asking.\n",
            if dry { "Would keep" } else { "Kept" },
            current["command"].as_str().unwrap_or("?")
        ));
    }
    if let Some(plugin) = &report.plugin {
        out.push_str(&format!(
            "The baton plugin ({plugin}) gives the hooks and slash commands: only the statusLine is baton install's.\n"
        ));
        if !report.hooks_also_in_settings.is_empty() {
            out.push_str(&format!(
                "{} also runs baton for {} (an earlier baton install), so those run twice: run `baton uninstall`, \
                 then `npx baton-cc install` (which now wires only the statusLine).\n",
                report.settings.display(),
                report.hooks_also_in_settings.join(", ")
            ));
        }
    }
    if let Some(backup) = &report.backup {
        out.push_str(&format!("Backup: {}\n", backup.display()));
    }
    for path in &report.commands_written {
        out.push_str(&format!(
            "{} {}\n",
            if dry { "Would write" } else { "Wrote" },
            path.display()
        ));
    }
    for path in &report.commands_skipped {
        out.push_str(&format!("Left {} alone: it is not baton's\n", path.display()));
    }
    for path in &report.commands_edited {
        out.push_str(&format!(
            "Left {} alone: you changed it since baton wrote it (move it aside and run `baton install` \
             again for the new version)\n",
            path.display()
        ));
    }
    let wiring_changed = !report.added.is_empty() || !report.updated.is_empty() || !report.commands_written.is_empty();
    if !request.dry_run && wiring_changed {
        out.push_str("Restart Claude Code (or run /hooks) to pick up the changes; `baton doctor` checks the wiring.\n");
    }
    super::print(&out)
}

/// What `install --copy` did with baton's copy, and the line that puts its folder on PATH.
fn placed_line(placed: &install::binary::Placed, dry: bool) -> String {
    let version = install::identity::version_line();
    let path = placed.path.display();
    if let Some(why) = &placed.refused {
        return format!("Would stop: {why}\n");
    }
    let mut out = String::new();
    if let Some(kept) = &placed.kept_as {
        out.push_str(&format!(
            "{} the file that was at {path} as {} (it was not baton's)\n",
            if dry { "Would keep" } else { "Kept" },
            kept.display()
        ));
    }
    out += &match (&placed.previous, placed.changed) {
        (_, false) => format!("{version} is already installed at {path}\n"),
        (Some(old), true) if old != version => {
            format!(
                "{} {version} at {path} (replacing {old})\n",
                if dry { "Would install" } else { "Installed" }
            )
        }
        (_, true) => format!(
            "{} {version} to {path}\n",
            if dry { "Would install" } else { "Installed" }
        ),
    };
    if let Some(aside) = &placed.aside {
        out.push_str(&format!(
            "The old copy was running; it is now {} and goes at the next install.\n",
            aside.display()
        ));
    }
    let hint = placed.path.parent().and_then(|dir| {
        let shell = std::env::var("SHELL").ok();
        install::binary::path_hint(
            dir,
            std::env::var_os("PATH").as_deref(),
            shell.as_deref(),
            crate::platform::Family::CURRENT,
        )
    });
    if let Some(hint) = hint {
        out.push_str(&hint);
        out.push('\n');
    }
    out
}

pub fn run_uninstall(args: Uninstall) -> Result<()> {
    // --yes as install takes it, for scripts: uninstall asks nothing, so it changes nothing.
    let report = install::uninstall(&args.scope.scope(), args.dry_run)?;
    let verb = if args.dry_run { "Would remove" } else { "Removed" };
    let settings = report.settings.display();
    let mut out = match (report.settings_deleted, report.removed.is_empty()) {
        (true, _) => format!(
            "{verb} {settings}: install created it, and it held only baton's entries ({})\n",
            report.removed.join(", ")
        ),
        (false, false) => format!("{verb} from {settings}: {}\n", report.removed.join(", ")),
        (false, true) => format!("Nothing of baton's left to remove in {settings}\n"),
    };
    if !report.kept.is_empty() {
        out.push_str(&format!(
            "Left in {settings}, because you changed them since install (remove them by hand if you want \
             them gone): {}\n",
            report.kept.join(", ")
        ));
    }
    for path in &report.commands_removed {
        out.push_str(&format!("{verb} {}\n", path.display()));
    }
    for path in &report.commands_kept {
        out.push_str(&format!("Kept {} (changed since install)\n", path.display()));
    }
    if let Some((binary, why)) = &report.binary_kept {
        out.push_str(&format!("Left {} where it is: {why}\n", binary.display()));
    }
    if let Some(binary) = &report.binary_removed {
        match &report.binary_aside {
            Some(aside) => out.push_str(&format!(
                "{} was running, so it is now {}: delete that file once no Claude Code session runs baton\n",
                binary.display(),
                aside.display()
            )),
            None => out.push_str(&format!("{verb} {}\n", binary.display())),
        }
    }
    super::print(&out)
}

pub fn run_doctor(args: Doctor) -> Result<()> {
    let project = args.project.or_else(|| {
        std::env::current_dir()
            .ok()
            .and_then(|d| crate::planning::Project::find(&d))
            .map(|p| p.root)
    });
    let checks = doctor::run(&this_binary()?, project.as_deref());
    let mut out = String::new();
    for c in &checks {
        let mark = match c.status {
            doctor::Status::Ok => "ok  ",
            doctor::Status::Note => "note",
            doctor::Status::Fix => "FIX ",
        };
        out.push_str(&format!("{mark} {}\n", c.what));
        if let Some(fix) = &c.fix {
            out.push_str(&format!("     → {fix}\n"));
        }
    }
    // One verdict: "All good." on stdout, or the count of problems as the error (exit 1).
    let failed = checks.iter().filter(|c| c.status == doctor::Status::Fix).count();
    if failed == 0 {
        out.push_str("All good.\n");
    }
    super::print(&out)?;
    match failed {
        0 => Ok(()),
        n => Err(Error::Failed(format!(
            "{} to fix (each FIX line above says how)",
            crate::words::count(n, "thing", "things")
        ))),
    }
}
