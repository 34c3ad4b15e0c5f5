//! `topitop query`: a position's value and remoteness and every move's,
//! as GamesmanUni shows them.

use topitop_cli::cmd::query::{answer_lines, answer_one, Answer, Args};
use topitop_rules::parse_position;
use topitop_solved::respond;

use crate::options::DbOptions;

/// Runs `query`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let db = args.db.open()?;
    let rules = db.rules();
    let answer = |text: &str| -> anyhow::Result<Answer> {
        let pos = parse_position(text, rules.budget())?;
        Ok(Answer {
            object: respond(&db, rules, pos)?,
            record: db.get(pos)?,
            reachable: rules.is_reachable(pos),
        })
    };
    match &args.position {
        Some(p) => answer_one(args.json, &answer(p)?, CHILD_WIDTH),
        None => answer_lines(args.json, answer),
    }
}

/// Wide enough for every Topitop position string, so that the columns of
/// every answer line up.
const CHILD_WIDTH: usize = 16;
