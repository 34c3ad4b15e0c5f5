//! Topitop's commands: its own solver, database format, GamesmanClassic
//! files and GamesmanUni catalog behind the command line every game
//! shares ([`topitop_cli`]). The binary registers them with
//! [`commands`].

#![forbid(unsafe_code)]

pub mod crosscheck;
pub mod export;
pub mod options;
pub mod scan;
pub mod show;
pub mod solve;
pub mod stats;

use std::path::Path;
use std::sync::Arc;

use games_topitop_rules::Rules;
use games_topitop_solved::catalog::Files;
use games_topitop_solved::Database;
use topitop_cli::cmd;
use topitop_cli::common::DbArgs;
use topitop_cli::registry::{with_format, Commands, Format, Shelved};

use crate::options::DbOptions;

/// Topitop's commands, for the binary's list of games: the shared ones
/// over its own format, and its own solve, export, stats, crosscheck and
/// `show` details.
pub fn commands() -> Box<dyn Commands> {
    with_format(TopitopFormat, |_, args| solve::run(args))
        .options(options::declared())
        .details(Box::new(show::Topitop))
        .exporter(export::run)
        .stats(stats::run)
        .crosscheck(crosscheck::run)
        .boxed()
}

/// Topitop's database format, read through the shared reader.
struct TopitopFormat;

impl Format<Rules> for TopitopFormat {
    type Db = Database;

    /// By the magic number that opens every file of it.
    fn holds(&self, path: &Path) -> bool {
        topitop_db::peek::magic(path).is_ok_and(|m| m == games_topitop_solved::store::header::MAGIC)
    }

    /// The rules are the file's (the options, where given, must agree).
    fn open(&self, args: &DbArgs) -> anyhow::Result<(Rules, Database)> {
        let db = args.open()?;
        Ok((db.rules(), db))
    }

    /// Every variant's file with the budget of `serve --budget`.
    fn shelf(&self, args: &cmd::serve::Args) -> anyhow::Result<Shelved> {
        Ok(Arc::new(Files {
            budget: options::served_budget(&args.games)?,
        }))
    }
}
