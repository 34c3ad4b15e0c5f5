//! What `topitop serve` serves of Topitop: the database of every variant
//! of GamesmanUni's table in the directory, with the piece budget of
//! `--budget`; the server's shared catalog reads and reloads them.

use std::sync::Arc;

use games_topitop_solved::catalog::Files;
use topitop_cli::cmd::serve::Args;
use topitop_cli::registry::Shelved;

/// Topitop's database files of the budget `args` name.
///
/// # Errors
/// A malformed `--budget`.
pub fn shelf(args: &Args) -> anyhow::Result<Shelved> {
    Ok(Arc::new(Files {
        budget: crate::options::served_budget(&args.games)?,
    }))
}
