//! `baton profile`: show, set and resolve model profiles (`.planning/config.json`).

use serde_json::json;

use super::json_flag::Json;
use crate::agents::profile_config::{self, ModelSettings};
use crate::agents::profiles::{self, Profile, Resolution, Tier};
use crate::error::Result;
use crate::planning::Project;

/// `baton profile`: an action, `show` when none is named.
#[derive(clap::Args)]
#[command(
    about = "Show, set or resolve the model profile of the project's agents",
    before_help = "baton profile: which model each agent runs, resolved by a program once per orchestration",
    after_help = "\
Profiles: quality, balanced (the default), budget, adaptive (heavy agents opus, standard
sonnet, light haiku), inherit (every agent uses the session's model: the right choice when
ANTHROPIC_BASE_URL points at a non-Anthropic endpoint).

Resolution: .planning/config.json \"model_overrides\" {agent: alias or model id} first, then
the profile's column, then inherit. Agents named only in model_overrides are known too.

  show      the profile, the overrides and every agent's model, tier and source (`baton
            profile` alone, or with --json, is `baton profile show`)
  set       writes \"model_profile\" into .planning/config.json under a lock, changing only
            that value (the key is added when missing; the file is created when absent)
  resolve   every agent (or the named ones) as `agent model` lines; with exactly one
            AGENT, just its model. --json: {\"profile\", \"models\": {agent: model}, \"agents\": [...]}

Examples:
  baton profile set budget
  baton profile resolve gsd-executor           # sonnet
  baton profile resolve gsd-planner gsd-verifier --json",
    args_conflicts_with_subcommands = true,
    subcommand_value_name = "ACTION",
    subcommand_help_heading = "Actions",
    disable_help_subcommand = true
)]
pub struct Args {
    #[command(subcommand)]
    action: Option<Action>,
    // `baton profile --json` is `baton profile show --json`.
    #[command(flatten)]
    show: Json,
}

/// The actions of `baton profile`.
#[derive(clap::Subcommand)]
enum Action {
    /// Show the profile, the overrides and every agent's model (the default action)
    Show(Json),
    /// Set the project's model profile
    Set {
        /// One of quality, balanced, budget, adaptive, inherit
        #[arg(value_name = "PROFILE", value_parser = super::values::text())]
        profile: String,
    },
    /// Print the model of every agent, or of the agents named
    Resolve {
        /// The agents (default: every agent the catalog and model_overrides know)
        #[arg(value_name = "AGENT", value_parser = super::values::text())]
        agents: Vec<String>,
        #[command(flatten)]
        out: Json,
    },
}

pub fn run(args: Args) -> Result<()> {
    match args.action {
        None => show(args.show.json),
        Some(Action::Show(out)) => show(out.json),
        Some(Action::Set { profile }) => set(&profile),
        Some(Action::Resolve { agents, out }) => resolve(&agents, out.json),
    }
}

/// The project's model settings, or the defaults outside a project.
fn settings() -> Result<(Option<Project>, ModelSettings)> {
    match crate::planning::Project::current() {
        Ok(project) => {
            let settings = profile_config::read(&project)?;
            Ok((Some(project), settings))
        }
        Err(_) => Ok((None, ModelSettings::default())),
    }
}

fn show(json: bool) -> Result<()> {
    let (project, settings) = settings()?;
    let profile = settings.profile()?;
    let resolved = profiles::resolve_many(&[], profile, &settings.overrides);
    if json {
        return print_json(&settings, profile, &resolved);
    }
    let origin = match (&project, &settings.profile) {
        (None, _) => "default; not inside a project".to_owned(),
        (Some(_), Some(_)) => format!("from {}", settings.path.display()),
        (Some(_), None) if !settings.path.exists() => format!("default; there is no {}", settings.path.display()),
        (Some(_), None) => format!("default; {} sets no \"model_profile\"", settings.path.display()),
    };
    let mut text = format!("Model profile: {} ({origin})\n", profile.name());
    text.push_str(&table(&resolved));
    if let Some(advice) = advice(profile) {
        text.push_str(&format!("\nNote: {advice}\n"));
    }
    super::print(&text)
}

fn set(name: &str) -> Result<()> {
    let profile = Profile::parse(name)?;
    let project = crate::planning::Project::current()?;
    let previous = profile_config::set_profile(&project, profile)?;
    let settings = profile_config::read(&project)?;
    let resolved = profiles::resolve_many(&[], profile, &settings.overrides);
    let was = match previous {
        Some(p) if p == profile.name() => " (unchanged)".to_owned(),
        Some(p) => format!(" (was {p})"),
        None => " (was unset: balanced)".to_owned(),
    };
    let mut text = format!(
        "Model profile: {}{was} in {}\n",
        profile.name(),
        settings.path.display()
    );
    text.push_str(&table(&resolved));
    if let Some(advice) = advice(profile) {
        text.push_str(&format!("\nNote: {advice}\n"));
    }
    super::print(&text)
}

fn resolve(agents: &[String], json: bool) -> Result<()> {
    let (_, settings) = settings()?;
    let profile = settings.profile()?;
    let resolved = profiles::resolve_many(agents, profile, &settings.overrides);
    if json {
        return print_json(&settings, profile, &resolved);
    }
    for r in resolved.iter().filter(|r| r.source == profiles::Source::Fallback) {
        eprintln!(
            "baton profile: note: '{}' is not one of the catalog's agents ({}), so it gets the {} profile's \
             general choice, as gsd-core gives it; name it under \"model_overrides\" to choose",
            r.agent,
            profiles::known_agents(&settings.overrides.agents).join(", "),
            profile.name()
        );
    }
    if let [one] = resolved.as_slice()
        && agents.len() == 1
    {
        return super::print(&format!("{}\n", one.model));
    }
    let width = resolved.iter().map(|r| r.agent.len()).max().unwrap_or(0);
    let lines: String = resolved
        .iter()
        .map(|r| format!("{:<width$} {}\n", r.agent, r.model))
        .collect();
    super::print(&lines)
}

fn table(resolved: &[Resolution]) -> String {
    let width = resolved.iter().map(|r| r.agent.len()).max().unwrap_or(5).max(5);
    let mut text = format!("{:<width$}  {:<8}  {:<16}  source\n", "agent", "tier", "model");
    for r in resolved {
        let tier = Tier::of(&r.agent).map_or("-", Tier::name);
        text.push_str(&format!(
            "{:<width$}  {tier:<8}  {:<16}  {}\n",
            r.agent,
            r.model,
            r.source.name()
        ));
    }
    text
}

fn advice(profile: Profile) -> Option<String> {
    let base_url = std::env::var("ANTHROPIC_BASE_URL").ok();
    profiles::endpoint_advice(base_url.as_deref(), profile)
}

fn print_json(settings: &ModelSettings, profile: Profile, resolved: &[Resolution]) -> Result<()> {
    let models: serde_json::Map<String, serde_json::Value> =
        resolved.iter().map(|r| (r.agent.clone(), json!(r.model))).collect();
    let agents: Vec<serde_json::Value> = resolved
        .iter()
        .map(|r| {
            let mut agent = json!({"agent": r.agent, "model": r.model, "source": r.source, "tier": Tier::of(&r.agent)});
            if r.source == profiles::Source::Fallback {
                agent["unknown_agent"] = json!(true);
            }
            agent
        })
        .collect();
    let out = json!({
        "profile": profile.name(),
        "profile_source": if settings.profile.is_some() { "config" } else { "default" },
        "config": (!settings.path.as_os_str().is_empty()).then_some(&settings.path),
        "models": models,
        "agents": agents,
        "advice": advice(profile),
    });
    super::print(&format!("{out:#}\n"))
}
