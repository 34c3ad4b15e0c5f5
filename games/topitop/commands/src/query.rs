//! `topitop query`: the shared command, answered from Topitop's own
//! database.

use topitop_cli::cmd::query::{answer, Answer, Args};
use topitop_cli::common::bad_position;
use topitop_game_api::Game;
use topitop_serve::{respond_game, GameOver};

use crate::options::DbOptions;

/// Runs `query`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let db = args.db.open()?;
    let rules = db.rules();
    let respond_to = |text: &str| -> anyhow::Result<Answer> {
        let pos = rules.parse_position(text).map_err(bad_position)?;
        Ok(Answer {
            object: respond_game(&rules, &db, &pos, GameOver::AsStored)?,
            record: db.get(pos)?,
            reachable: rules.is_reachable(pos),
        })
    };
    answer(&args, respond_to)
}
