//! `topitop query`: the shared command, answered from Topitop's own
//! database.

use games_topitop_solved::respond;
use topitop_cli::cmd::query::{answer, Answer, Args};
use topitop_cli::common::bad_position;
use topitop_game_api::Game;

use crate::options::DbOptions;

/// Runs `query`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let db = args.db.open()?;
    let rules = db.rules();
    let respond_to = |text: &str| -> anyhow::Result<Answer> {
        let pos = rules.parse_position(text).map_err(bad_position)?;
        Ok(Answer {
            object: respond(&db, rules, pos)?,
            record: db.get(pos)?,
            reachable: rules.is_reachable(pos),
        })
    };
    answer(&args, respond_to)
}
