//! The commands: each module holds one command's arguments, the same for
//! every game, and its implementation for any game behind the game
//! interface, over a database read through the shared reader (a game
//! brings its own command where it has one, declared where it registers:
//! [`crate::registry`]).

pub mod canonical;
pub mod check;
pub mod convert;
pub mod crosscheck;
pub mod export;
pub mod perft;
pub mod play;
pub mod probe;
pub mod query;
pub mod serve;
pub mod show;
pub mod solve;
pub mod stats;
pub mod verify;

use std::path::{Path, PathBuf};

use topitop_db::{Reader, SolvedDb};
use topitop_game_api::{Game, Presentation, Search, Tiered};

use crate::common::DbArgs;

/// `dir/<game>_<variant>.db`: where `solve` writes `game`'s database.
pub fn db_path<G: Game>(game: &G, dir: &Path) -> PathBuf {
    dir.join(format!("{}_{}.db", game.name(), game.variant()))
}

/// Opens the database `args` name for `game` (`--db FILE`, or the file
/// `solve` writes in `--dir`), refusing one of another game or variant.
///
/// # Errors
/// A missing or damaged file, or one of another game or variant.
pub fn open<G: Tiered>(game: &G, args: &DbArgs) -> anyhow::Result<SolvedDb> {
    let path = args.db.clone().unwrap_or_else(|| db_path(game, &args.dir));
    match std::fs::metadata(&path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && game.tiers().is_empty() => anyhow::bail!(
            "{}: no such database, and none can be made: {} {} is too large to solve strongly here (its positions cannot be indexed); solve a smaller board, or play this one without values (`topitop play --game {} --computer none`)",
            path.display(),
            game.name(),
            game.variant(),
            game.name()
        ),
        // Named with --db: the file is what is missing, not an option.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && args.db.is_some() => anyhow::bail!(
            "{}: no such file (given with --db); check the path, or create it with `topitop solve --game {} --out DIR`",
            path.display(),
            game.name()
        ),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => anyhow::bail!(
            "{}: no such database; create it with `topitop solve --game {}` (same options) or name one with --db{}",
            path.display(),
            game.name(),
            others_here(game.name(), &args.dir)
        ),
        Err(e) => anyhow::bail!("{}: {e}", path.display()),
        Ok(m) if m.is_dir() => anyhow::bail!("{} is a directory, not a database file", path.display()),
        Ok(_) => {}
    }
    let db = SolvedDb::open(&path)?;
    db.holds(game)?;
    Ok(db)
}

/// The databases of the game `name` that the folder `dir` holds, as the
/// end of a message about one it lacks (a forgotten `--variant` once named
/// the missing file alone, not the one there): empty when there are none.
fn others_here(name: &str, dir: &Path) -> String {
    let prefix = format!("{name}_");
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|f| f.starts_with(&prefix) && f.ends_with(".db"))
        .collect();
    files.sort();
    match files.len() {
        0 => String::new(),
        _ => format!(
            "; {} holds {} of {name} (give the options it was solved with, or --db FILE)",
            dir.display(),
            files.join(", ")
        ),
    }
}

/// Where a command's answers come from: a database of the game, read
/// through the shared reader, or, for a board no database holds, the
/// game's search.
pub enum Source<R> {
    /// The database.
    Db(Box<R>),
    /// The game's search, given this long an answer.
    Search(std::time::Duration),
}

/// The default of `--search-ms`: inside the two seconds an answer may take.
pub const SEARCH_MS: u64 = 1500;

/// `--search-ms`: 10 ms (a search that has played a few games) to a
/// minute, for `query`, `play` and `serve` alike.
///
/// # Errors
/// Text that is not a number in that range; the message says the range.
pub fn search_ms(text: &str) -> Result<u64, String> {
    let range = 10..=60_000;
    match text.parse::<u64>() {
        Ok(ms) if range.contains(&ms) => Ok(ms),
        _ => Err("give 10 to 60000 milliseconds (a minute) a search answer; \
                  below 10 it plays too few games to say anything"
            .to_string()),
    }
}

/// The search that answers for `game` when `args` name no database and
/// the file `solve` would write is not there, if the game has one (a note
/// on standard error says so); none: open the database.
pub fn search_instead<G: Search, R>(game: &G, args: &DbArgs, search_ms: u64) -> Option<Source<R>> {
    let path = db_path(game, &args.dir);
    if args.db.is_none() && game.can_estimate() && !path.exists() {
        eprintln!(
            "no database {}: answering with the estimates of a {search_ms} ms search (marked as estimates)",
            path.display()
        );
        return Some(Source::Search(std::time::Duration::from_millis(search_ms)));
    }
    None
}

impl<R> Source<R> {
    /// GamesmanUni's position object of `pos`, solved or estimated.
    ///
    /// # Errors
    /// A position outside the database, or a damaged block.
    pub fn respond<G: Presentation + Search>(
        &self,
        game: &G,
        pos: &G::Position,
    ) -> anyhow::Result<topitop_serve::PositionResponse>
    where
        R: Reader<G>,
    {
        match self {
            Source::Db(db) => Ok(topitop_serve::respond_game(
                game,
                db.as_ref(),
                pos,
                topitop_serve::GameOver::AsStored,
            )?),
            Source::Search(budget) => {
                let never = std::sync::atomic::AtomicBool::new(false);
                topitop_serve::response::respond_estimated(game, pos, *budget, &never)
                    .ok_or_else(|| anyhow::anyhow!("{} has no search", game.name()))
            }
        }
    }

    /// The record of `pos`: stored, or unsolved when estimated.
    ///
    /// # Errors
    /// A position outside the database, or a damaged block.
    pub fn record<G: Game>(&self, game: &G, pos: &G::Position) -> anyhow::Result<topitop_game_api::Record>
    where
        R: Reader<G>,
    {
        match self {
            Source::Db(db) => Ok(db.lookup(game, pos)?),
            Source::Search(_) => Ok(topitop_game_api::Record::UNSOLVED),
        }
    }
}

/// GamesmanUni's name for a record's value: `win`, `lose`, `tie`, `draw`
/// or `unsolved`.
pub use topitop_serve::response::value_name;

#[cfg(test)]
mod tests {
    use super::others_here;

    #[test]
    fn a_missing_database_names_those_of_its_game_that_are_there() {
        // A forgotten --variant named the missing s9 file, not the s8 one.
        let dir = std::env::temp_dir().join(format!("topitop-others-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for f in [
            "topple_3x3-s8.db",
            "topple_3x3-s6.db",
            "topolo_2x2.db",
            "topple_notes.txt",
        ] {
            std::fs::write(dir.join(f), b"").unwrap();
        }
        let said = others_here("topple", &dir);
        assert!(
            said.contains("holds topple_3x3-s6.db, topple_3x3-s8.db of topple"),
            "{said}"
        );
        assert!(!said.contains("topolo") && !said.contains("notes"), "{said}");
        assert_eq!(others_here("tictactoe", &dir), "");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
