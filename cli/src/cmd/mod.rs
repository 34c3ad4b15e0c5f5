//! The commands: each module holds one command's arguments, the same for
//! every game, and its implementation for any game behind the game
//! interface (a game with commands of its own, as Topitop, implements
//! [`Commands`](crate::registry::Commands) itself).

pub mod canonical;
pub mod crosscheck;
pub mod export;
pub mod perft;
pub mod play;
pub mod query;
pub mod serve;
pub mod show;
pub mod solve;
pub mod stats;
pub mod verify;

use std::path::{Path, PathBuf};

use topitop_db::SolvedDb;
use topitop_interface::Tiered;

use crate::common::DbArgs;

/// `dir/<game>_<variant>.db`: where `solve` writes `game`'s database.
pub fn db_path<G: Tiered>(game: &G, dir: &Path) -> PathBuf {
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
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => anyhow::bail!(
            "{}: no such database; create it with `topitop solve --game {}` (same options) or name one with --db",
            path.display(),
            game.name()
        ),
        Err(e) => anyhow::bail!("{}: {e}", path.display()),
        Ok(m) if m.is_dir() => anyhow::bail!("{} is a directory, not a database file", path.display()),
        Ok(_) => {}
    }
    let db = SolvedDb::open(&path)?;
    db.holds(game)?;
    Ok(db)
}

/// GamesmanUni's name for a record's value: `win`, `lose`, `tie`, `draw`
/// or `unsolved`.
pub use topitop_serve::response::value_name;
