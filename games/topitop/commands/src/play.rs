//! `topitop play`: the shared game loop, answered from Topitop's database,
//! with how Topitop's moves are written and what its board letters mean.

use games_topitop_rules::explain::LEGEND;
use topitop_cli::cmd::play::{play, Args};
use topitop_serve::{respond_game, GameOver};

use crate::options::DbOptions;

/// Runs `play`, reading commands from standard input.
pub fn run(args: Args) -> anyhow::Result<()> {
    let db = args.db.open()?;
    let rules = db.rules();
    let greeting = format!(
        "Topitop, rules {} — moves like B5 (place a bucket on cell 5), S1, L1, 4-5 (slide from cell 4 to 5), None; also: hint, hints, undo, quit\nBoard letters: {LEGEND}",
        rules.ruleset()
    );
    play(&rules, &args, &greeting, |pos| {
        Ok(respond_game(&rules, &db, pos, GameOver::AsStored)?)
    })
}
