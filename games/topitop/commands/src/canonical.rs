//! `topitop canonical` for Topitop: the representative of a position under
//! the 8 symmetries of the square, the form its database stores.

use games_topitop_rules::symmetry;
use topitop_cli::cmd::canonical::{answer, Args};
use topitop_cli::common::bad_position;
use topitop_game_api::Game;

use crate::options::RulesOptions;

/// Runs `canonical`.
///
/// # Errors
/// Rules options Topitop refuses, or those of [`answer`].
pub fn run(args: Args) -> anyhow::Result<()> {
    let rules = args.rules.rules()?;
    answer(&args, |p| {
        Ok(symmetry::canonical(rules.parse_position(p).map_err(bad_position)?).to_string())
    })
}
