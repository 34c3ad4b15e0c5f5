//! The games the command runs: each is a [`Commands`], either a game's own
//! (Topitop's, with its own solver and formats) or [`tiered`] over a game
//! behind the game interface. The binary lists them, one line a game; this
//! crate names none.

use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use topitop_game_api::Registered;
use topitop_serve::{App, ServedGame};

use crate::cmd;
use crate::common::{DbArgs, RulesArgs};

/// Every command, for one game. The arguments are the command line's, the
/// same for every game; a game refuses the options it does not take.
pub trait Commands {
    /// The game's name, as `--game` takes it.
    fn name(&self) -> &'static str;
    /// `perft` for this game: counts the positions and moves at each depth from the start.
    ///
    /// # Errors
    /// Those of the command.
    fn perft(&self, args: cmd::perft::Args) -> anyhow::Result<()>;
    /// `show` for this game: draws a position and lists its moves.
    ///
    /// # Errors
    /// Those of the command.
    fn show(&self, args: cmd::show::Args) -> anyhow::Result<()>;
    /// `solve` for this game: works out every position's value and remoteness and writes the database.
    ///
    /// # Errors
    /// Those of the command.
    fn solve(&self, args: cmd::solve::Args) -> anyhow::Result<()>;
    /// `verify` for this game: checks a database file against the game.
    ///
    /// # Errors
    /// Those of the command.
    fn verify(&self, args: cmd::verify::Args) -> anyhow::Result<()>;
    /// `query` for this game: looks positions up in a database.
    ///
    /// # Errors
    /// Those of the command.
    fn query(&self, args: cmd::query::Args) -> anyhow::Result<()>;
    /// `export` for this game: writes a database's records as a table.
    ///
    /// # Errors
    /// Those of the command.
    fn export(&self, args: cmd::export::Args) -> anyhow::Result<()>;
    /// `stats` for this game: counts a database's positions by value, remoteness and tier.
    ///
    /// # Errors
    /// Those of the command.
    fn stats(&self, args: cmd::stats::Args) -> anyhow::Result<()>;
    /// `play` for this game: plays a game at the terminal, against the database or a search.
    ///
    /// # Errors
    /// Those of the command.
    fn play(&self, args: cmd::play::Args) -> anyhow::Result<()>;
    /// `canonical` for this game: prints a position's canonical form under the game's symmetries.
    ///
    /// # Errors
    /// Those of the command.
    fn canonical(&self, args: cmd::canonical::Args) -> anyhow::Result<()>;
    /// `crosscheck`: only a game with more than one ruleset or an upstream
    /// database to compare with has it.
    ///
    /// # Errors
    /// Those of the command; by default, that the game has none.
    fn crosscheck(&self, args: cmd::crosscheck::Args) -> anyhow::Result<()> {
        let _ = args;
        anyhow::bail!(
            "--game {} has no crosscheck: it is for a game with rulesets to compare or an upstream program's files to check against",
            self.name()
        )
    }
    /// What `serve` serves of this game from the directory `args` name.
    ///
    /// # Errors
    /// Options the game refuses, or a failure that must stop the server.
    fn serve(&self, args: &cmd::serve::Args) -> anyhow::Result<Found>;
}

/// What `serve` found of one game.
pub enum Found {
    /// Variants to serve, with what keeps them fresh.
    Served(Served),
    /// Nothing: why, and how to make a database.
    Missing(String),
    /// Databases are there, but every one is damaged: why. The server
    /// refuses to start rather than serve without them.
    Damaged(String),
}

/// A game's served variants.
pub struct Served {
    /// The game and its variants.
    pub game: ServedGame,
    /// Watches the game's files and replaces its variants in the server
    /// when they change, every given interval; `None` when the game's
    /// files are read once.
    pub reload: Option<Reload>,
    /// How many of the variants a database answers (the others are
    /// answered by the game's search).
    pub databases: usize,
}

/// Starts a watch over a game's files; the future runs as long as the
/// server.
pub type Reload = Box<dyn FnOnce(Arc<App>, Duration) -> Pin<Box<dyn Future<Output = ()> + Send>> + Send>;

/// The [`Commands`] of a game behind the game interface: every command is
/// the generic one of [`crate::cmd`].
pub fn tiered<G: Registered + 'static>() -> Box<dyn Commands> {
    Box::new(TieredCommands::<G>(PhantomData))
}

struct TieredCommands<G>(PhantomData<fn() -> G>);

impl<G: Registered + 'static> TieredCommands<G> {
    /// The game `args` select.
    fn game(&self, args: &RulesArgs) -> anyhow::Result<G> {
        anyhow::ensure!(
            args.rules.is_none() && args.budget.is_none(),
            "--rules and --budget are not options of --game {}; it takes --board and --variant",
            G::NAME
        );
        G::from_options(args.board.as_deref(), args.variant.as_deref()).map_err(anyhow::Error::msg)
    }

    /// The game of a command that reads a database: with `--db FILE` and
    /// no option of the game's own, the variant the file's header names
    /// (its own rules apply); otherwise as [`Self::game`], a file that
    /// holds another variant then being refused naming both.
    fn game_of_db(&self, args: &DbArgs) -> anyhow::Result<G> {
        let r = &args.rules;
        let unset = r.board.is_none() && r.variant.is_none() && r.rules.is_none() && r.budget.is_none();
        if let (Some(file), true) = (&args.db, unset) {
            // A file this cannot read is the command's to report, as it
            // reports it for any option.
            if let Ok(Some((game, variant))) = topitop_db::peek::game_and_variant(file) {
                if game == G::NAME {
                    return G::from_variant(&variant).map_err(|e| {
                        anyhow::anyhow!(
                            "{} names the variant {variant:?} of {game}, which this program does not know: {e}",
                            file.display()
                        )
                    });
                }
            }
        }
        self.game(r)
    }
}

impl<G: Registered + 'static> Commands for TieredCommands<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }
    fn perft(&self, args: cmd::perft::Args) -> anyhow::Result<()> {
        cmd::perft::run(self.game(&args.rules)?, args)
    }
    fn show(&self, args: cmd::show::Args) -> anyhow::Result<()> {
        cmd::show::run(self.game(&args.rules)?, args)
    }
    fn solve(&self, args: cmd::solve::Args) -> anyhow::Result<()> {
        cmd::solve::run(self.game(&args.rules)?, args)
    }
    fn verify(&self, args: cmd::verify::Args) -> anyhow::Result<()> {
        cmd::verify::run(self.game_of_db(&args.db)?, args)
    }
    fn query(&self, args: cmd::query::Args) -> anyhow::Result<()> {
        cmd::query::run(self.game_of_db(&args.db)?, args)
    }
    fn export(&self, args: cmd::export::Args) -> anyhow::Result<()> {
        cmd::export::run(self.game_of_db(&args.db)?, args)
    }
    fn stats(&self, args: cmd::stats::Args) -> anyhow::Result<()> {
        cmd::stats::run(self.game_of_db(&args.db)?, args)
    }
    fn play(&self, args: cmd::play::Args) -> anyhow::Result<()> {
        cmd::play::run(self.game_of_db(&args.db)?, args)
    }
    fn canonical(&self, args: cmd::canonical::Args) -> anyhow::Result<()> {
        cmd::canonical::run(self.game(&args.rules)?, args)
    }
    fn serve(&self, args: &cmd::serve::Args) -> anyhow::Result<Found> {
        Ok(cmd::serve::discover::<G>(&args.dir))
    }
}

/// A tool a game brings that is no solved game's (Toppo: odds, simulated
/// games, a game against bots in the browser): a subcommand of its own,
/// and pages of the server.
pub trait Tool: Send + Sync {
    /// Its subcommand, e.g. `toppo`.
    fn command(&self) -> clap::Command;
    /// Runs the subcommand with its arguments.
    ///
    /// # Errors
    /// Those of the command.
    fn run(&self, args: &clap::ArgMatches) -> anyhow::Result<()>;
    /// Its pages under `/ui/<name>/`, if any.
    fn pages(&self) -> Option<Arc<dyn topitop_serve::extra::Pages>> {
        None
    }
}

/// The registered games, the first one the default of `--game`, and the
/// tools.
pub struct Games(Vec<Box<dyn Commands>>, Vec<Box<dyn Tool>>);

impl Games {
    /// The games `list` holds, the first the default.
    ///
    /// # Panics
    /// An empty list, or two games of one name: the binary's registration
    /// is wrong.
    pub fn new(list: Vec<Box<dyn Commands>>) -> Games {
        assert!(!list.is_empty(), "no game registered");
        for (i, g) in list.iter().enumerate() {
            assert_ne!(
                g.name(),
                topitop_serve::page::PREFIX,
                "the browser page's routes take that name"
            );
            assert!(
                list[..i].iter().all(|h| h.name() != g.name()),
                "game {} registered twice",
                g.name()
            );
        }
        Games(list, Vec::new())
    }

    /// The games with `tools` too.
    #[must_use]
    pub fn with_tools(mut self, tools: Vec<Box<dyn Tool>>) -> Games {
        self.1 = tools;
        self
    }

    /// The tools.
    pub fn tools(&self) -> &[Box<dyn Tool>] {
        &self.1
    }

    /// Every game's name, as `--game` takes it, the default first.
    pub fn names(&self) -> Vec<&'static str> {
        self.0.iter().map(|g| g.name()).collect()
    }

    /// Every game, the default first.
    pub fn all(&self) -> &[Box<dyn Commands>] {
        &self.0
    }

    /// The game of a command that reads a database: `--game`'s, else the
    /// one the header of `--db FILE` names when a registered game has that
    /// name, else the default.
    ///
    /// # Errors
    /// An unknown `--game`.
    pub fn of_db(&self, args: &DbArgs) -> anyhow::Result<&dyn Commands> {
        if args.rules.game.is_none() {
            if let Some(Ok(Some((game, _)))) = args.db.as_deref().map(topitop_db::peek::game_and_variant) {
                if let Ok(g) = self.find(Some(&game)) {
                    return Ok(g);
                }
            }
        }
        self.find(args.rules.game.as_deref())
    }

    /// The game `--game` names, or the default.
    ///
    /// # Errors
    /// An unknown name, with the known ones.
    pub fn find(&self, game: Option<&str>) -> anyhow::Result<&dyn Commands> {
        let Some(name) = game else {
            return Ok(self.0[0].as_ref());
        };
        self.0
            .iter()
            .find(|g| g.name() == name)
            .map(|g| g.as_ref())
            .ok_or_else(|| {
                anyhow::anyhow!("unknown game {name:?}: the games are {}", self.names().join(", "))
            })
    }
}
