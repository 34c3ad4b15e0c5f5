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

    /// A file of an older version rewritten in today's: every record read,
    /// written again, read back and compared.
    fn convert(&self, path: &Path, args: &cmd::convert::Args) -> anyhow::Result<()> {
        use games_topitop_solved::store::header::VERSION;
        let to = args.out.clone().unwrap_or_else(|| path.to_path_buf());
        let old = Database::open(path)?;
        let h = old.header().clone();
        let mut done = topitop_db::convert::Converted {
            from_version: h.version,
            to_version: VERSION,
            old_bytes: old.file_len(),
            new_bytes: old.file_len(),
            path: to.clone(),
        };
        if h.version == VERSION {
            done.path = path.to_path_buf();
            return cmd::convert::say(&done);
        }
        let bar = topitop_cli::progress::CountBar::new("converting", "blocks");
        let (_, new_bytes) = topitop_db::convert::rewrite(path, &to, |staging| {
            let solution = old.to_solution(|d, t| bar.set(d as u64, t as u64))?;
            let defaults = games_topitop_solved::WriteOptions::default();
            let options = games_topitop_solved::WriteOptions {
                level: args.zstd_level.unwrap_or(defaults.level),
                // The records are the solve's: its program and its way
                // of solving still describe them.
                solver: h.solver.clone(),
                solved_with_symmetry: Some(h.symmetric),
                ..defaults
            };
            games_topitop_solved::write(staging, &solution, &options, |_, _| {})?;
            let new = Database::open(staging)?;
            let again = new.to_solution(|_, _| {})?;
            if again.records() != solution.records() {
                return Err(topitop_db::DbError::corrupt(
                    "records",
                    "the new file's records differ from the old file's",
                )
                .in_file(staging));
            }
            Ok((old.file_len(), new.file_len()))
        })?;
        bar.finish();
        done.new_bytes = new_bytes;
        cmd::convert::say(&done)
    }
}
