//! Topitop's commands: its own solver, database format, GamesmanClassic
//! files and GamesmanUni catalog behind the command line every game
//! shares ([`topitop_cli`]). The binary registers them with
//! [`commands`].

#![forbid(unsafe_code)]

pub mod canonical;
pub mod crosscheck;
pub mod export;
pub mod options;
pub mod play;
pub mod query;
pub mod scan;
pub mod serve;
pub mod show;
pub mod solve;
pub mod stats;

use topitop_cli::cmd;
use topitop_cli::registry::{Commands, Shelved};
use topitop_game_api::GameOption;

use crate::options::RulesOptions;

/// Topitop's commands, for the binary's list of games.
pub fn commands() -> Box<dyn Commands> {
    Box::new(Topitop)
}

struct Topitop;

impl Commands for Topitop {
    fn name(&self) -> &'static str {
        "topitop"
    }
    fn options(&self) -> Vec<GameOption> {
        options::declared()
    }
    /// Its own format, by the magic number that opens every file of it.
    fn holds(&self, path: &std::path::Path) -> bool {
        topitop_db::peek::magic(path).is_ok_and(|m| m == games_topitop_solved::store::header::MAGIC)
    }
    fn perft(&self, args: cmd::perft::Args) -> anyhow::Result<()> {
        cmd::perft::run(args.rules.rules()?, args)
    }
    fn show(&self, args: cmd::show::Args) -> anyhow::Result<()> {
        show::run(args)
    }
    fn solve(&self, args: cmd::solve::Args) -> anyhow::Result<()> {
        solve::run(args)
    }
    fn verify(&self, args: cmd::verify::Args) -> anyhow::Result<()> {
        let db = options::DbOptions::open(&args.db)?;
        cmd::verify::run(&db.rules(), &db, args)
    }
    fn query(&self, args: cmd::query::Args) -> anyhow::Result<()> {
        query::run(args)
    }
    fn export(&self, args: cmd::export::Args) -> anyhow::Result<()> {
        export::run(args)
    }
    fn stats(&self, args: cmd::stats::Args) -> anyhow::Result<()> {
        stats::run(args)
    }
    fn play(&self, args: cmd::play::Args) -> anyhow::Result<()> {
        play::run(args)
    }
    fn canonical(&self, args: cmd::canonical::Args) -> anyhow::Result<()> {
        canonical::run(args)
    }
    /// Against the game interface's contract: Topitop's ranks are its
    /// own store's, checked by its own tests, so the rules alone here.
    fn check(&self, args: cmd::check::Args) -> anyhow::Result<()> {
        let rules = args.rules.rules()?;
        let title = format!("topitop {}", topitop_game_api::Game::variant(&rules));
        cmd::check::run(&title, &args, |s| {
            topitop_game_api::conformance::check_game(&rules, s)
        })
    }
    fn crosscheck(&self, args: cmd::crosscheck::Args) -> anyhow::Result<()> {
        crosscheck::run(args)
    }
    fn serve(&self, args: &cmd::serve::Args) -> anyhow::Result<Shelved> {
        serve::shelf(args)
    }
}
