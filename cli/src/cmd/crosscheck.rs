//! The arguments of `topitop crosscheck`: two databases of one game
//! compared, or a database against an upstream program's files. A game
//! behind the game interface compares two files position by position
//! ([`generic`]); a game may bring its own (see
//! [`Commands::crosscheck`](crate::registry::Commands::crosscheck)), with
//! options it declares for `crosscheck` (Topitop's `--gamesman-classic`
//! and `--report`), refused for the other games while parsing.

use std::path::PathBuf;

use crate::common::DbArgs;

/// Arguments of `crosscheck`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Two database files to compare (A B).
    #[arg(value_name = "DB", num_args = 0..=2)]
    pub files: Vec<PathBuf>,
    /// Where the database is.
    #[command(flatten)]
    pub db: DbArgs,
    /// A B: Topitop: examples for this many of the most common transitions
    /// of each cause (default 3); other games: differing positions to print
    /// each way (default 10). --gamesman-classic: differing positions to
    /// print (default 10).
    #[arg(long, value_name = "N")]
    pub examples: Option<usize>,
    /// A B: list every tier with differences (default: the 15 with most).
    #[arg(long)]
    pub all_tiers: bool,
    /// Print JSON (A B: the schema in tools/crosscheck.schema.json).
    #[arg(long)]
    pub json: bool,
}

pub mod generic;
