//! `topitop query`: a position's value and remoteness and every move's,
//! as GamesmanUni shows them.

use topitop_cli::cmd::query::{answer_lines, answer_one, Args};
use topitop_game::parse_position;
use topitop_game_solved::respond;

use crate::options::DbOptions;

/// Runs `query`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let db = args.db.open()?;
    let rules = db.rules();
    match &args.position {
        Some(p) => {
            let pos = parse_position(p, rules.budget())?;
            answer_one(args.json, respond(&db, rules, pos)?, CHILD_WIDTH)
        }
        None => answer_lines(args.json, |text| {
            let pos = parse_position(text, rules.budget())?;
            let r = respond(&db, rules, pos)?;
            Ok((db.get(pos)?, r))
        }),
    }
}

/// Wide enough for every Topitop position string, so that the columns of
/// every answer line up.
const CHILD_WIDTH: usize = 16;
