//! Multi-agent orchestration support: model profiles, the ledger of subagent runs, the
//! spot-check of what an agent claims, plan independence (waves) and the context payload a
//! new agent must read. The orchestrator stays thin; the bookkeeping is done here.

pub mod catalog;
pub mod claims;
pub mod hook;
pub mod ledger;
pub mod notices;
pub mod payload;
pub mod plans;
pub mod profile_config;
pub mod profiles;
pub mod verification;
pub mod verify;
pub mod waves;
