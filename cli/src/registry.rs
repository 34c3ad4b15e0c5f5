//! The games the command runs: each registers once, as [`tiered`] (a game
//! behind the tiered interface, over the shared solver and formats) or
//! [`with_format`] (a game with its own format and solver, read through
//! the shared reader), declaring any command it brings its own of; every
//! command is then dispatched here, by [`GameCommands`]. The binary lists
//! the games, one line a game; this crate names none.

use std::path::Path;
use std::sync::Arc;

use topitop_db::{Reader, SolvedDb};
use topitop_game_api::{conformance, GameOption, Registered, Tiered};

use crate::cmd;
use crate::common::DbArgs;
use crate::options::GameArgs;

/// Every command, for one game. The arguments are the command line's; of
/// the games' options, only those the game declares ([`Commands::options`])
/// reach it.
pub trait Commands {
    /// The game's name, as `--game` takes it.
    fn name(&self) -> &'static str;
    /// The options the game takes, with their help: the command line
    /// offers them, and refuses them for every game that does not
    /// declare them.
    fn options(&self) -> Vec<GameOption>;
    /// True when the file at `path` is one of the game's databases, as
    /// its header says.
    fn holds(&self, path: &Path) -> bool;
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
    /// `convert` for this game: rewrites a database of an older format
    /// version in today's.
    ///
    /// # Errors
    /// Those of the command.
    fn convert(&self, args: cmd::convert::Args) -> anyhow::Result<()>;
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
    /// `check` for this game: random games put through the game
    /// interface's conformance check.
    ///
    /// # Errors
    /// Those of the command, a failed check among them.
    fn check(&self, args: cmd::check::Args) -> anyhow::Result<()>;
    /// `crosscheck`: two databases of the game compared, or one with an
    /// upstream program's files, where the game has them.
    ///
    /// # Errors
    /// Those of the command; that the game has none.
    fn crosscheck(&self, args: cmd::crosscheck::Args) -> anyhow::Result<()>;
    /// The game's database files as `serve` reads them.
    ///
    /// # Errors
    /// Options the game refuses.
    fn serve(&self, args: &cmd::serve::Args) -> anyhow::Result<Shelved>;
}

/// What `serve` serves of one game: its database files in the served
/// directory, as the game reads them; the server finds, opens and reloads
/// them the same way for every game ([`topitop_serve::catalog`]).
pub type Shelved = Arc<dyn topitop_serve::catalog::Shelf>;

/// How the commands that read a database find and open a game's files:
/// the shared formats for a game behind the tiered interface
/// ([`SharedFormat`]), or a game's own format, read through the shared
/// reader.
pub trait Format<G: Registered>: 'static {
    /// The database, as the shared reader reads it.
    type Db: Reader<G> + 'static;
    /// True when the file at `path` is one of the game's databases, as
    /// its header says.
    fn holds(&self, path: &Path) -> bool;
    /// The game `args` select and its database: with `--db FILE` and no
    /// option of the game's own, the variant the file's header names;
    /// else the options', a file of another variant refused naming both.
    ///
    /// # Errors
    /// A value the game refuses, or a missing, damaged or contradicted
    /// file.
    fn open(&self, args: &DbArgs) -> anyhow::Result<(G, Self::Db)>;
    /// The game's database files as `serve` reads them.
    ///
    /// # Errors
    /// Options the game refuses.
    fn shelf(&self, args: &cmd::serve::Args) -> anyhow::Result<Shelved>;
    /// `convert` of the game's database at `path`: by default, as a file
    /// of the shared formats.
    ///
    /// # Errors
    /// A file already current, damaged, or not written.
    fn convert(&self, path: &Path, args: &cmd::convert::Args) -> anyhow::Result<()> {
        cmd::convert::run_shared(path, args)
    }
}

/// The shared database formats (`db/FORMAT.md`), of every game behind the
/// tiered interface that has no format of its own.
pub struct SharedFormat;

impl<G: Registered + Tiered> Format<G> for SharedFormat {
    type Db = SolvedDb;

    /// A file of the shared formats whose header names this game.
    fn holds(&self, path: &Path) -> bool {
        matches!(topitop_db::peek::game_and_variant(path), Ok(Some((game, _))) if game == G::NAME)
    }

    fn open(&self, args: &DbArgs) -> anyhow::Result<(G, SolvedDb)> {
        let game = game_of_db::<G>(args)?;
        let db = cmd::open(&game, args)?;
        Ok((game, db))
    }

    fn shelf(&self, args: &cmd::serve::Args) -> anyhow::Result<Shelved> {
        Ok(Arc::new(topitop_serve::served::TieredShelf::<G>::new(
            std::time::Duration::from_millis(args.search_ms),
        )))
    }
}

/// The commands of a game behind the tiered interface: every command is
/// the shared one, over the shared formats, but those the game declares
/// its own of on the value returned ([`GameCommands::solver`],
/// [`GameCommands::verifier`], [`GameCommands::options`], ...). Box it
/// for the binary's list with [`GameCommands::boxed`].
///
/// # Panics
/// A game whose [`Game::name`](topitop_game_api::Game::name) is not its
/// [`Registered::NAME`]: the game is written wrong, and its files and
/// addresses would carry one name and the command line another.
pub fn tiered<G: Registered + Tiered>() -> GameCommands<G, SharedFormat> {
    let mut commands = GameCommands::new(SharedFormat, cmd::solve::run::<G>);
    commands.check = conformance::check_registered::<G>;
    commands.crosscheck = Some(crosscheck_files::<G>);
    commands
}

/// The commands of a game with a database format of its own, read
/// through the shared reader (`format`), and its own solver (`solve`),
/// which writes that format; every other command is the shared one, but
/// those declared on the value returned.
///
/// # Panics
/// As [`tiered`].
pub fn with_format<G: Registered, F: Format<G>>(format: F, solve: SolveFn<G>) -> GameCommands<G, F> {
    GameCommands::new(format, solve)
}

/// A game's own `solve`: the game, and the command's arguments.
pub type SolveFn<G> = fn(G, cmd::solve::Args) -> anyhow::Result<()>;

/// A command a game brings its own of, given the command's arguments.
pub type OwnFn<A> = fn(A) -> anyhow::Result<()>;

/// A game's own `verify` of the database files it tells by `holds`: the
/// game, the file, and the command's arguments.
pub struct VerifyFn<G> {
    /// True for a file this verifies; the generic check takes the rest.
    pub holds: fn(&Path) -> bool,
    /// The check.
    pub run: fn(G, &Path, cmd::verify::Args) -> anyhow::Result<()>,
}

/// The commands of one game ([`tiered`], [`with_format`]): the shared
/// ones, and the game's own where it declared them.
pub struct GameCommands<G: Registered, F> {
    format: F,
    options: Vec<GameOption>,
    solve: SolveFn<G>,
    verify: Option<VerifyFn<G>>,
    check: fn(&G, conformance::Settings) -> conformance::Report,
    details: Option<Box<dyn cmd::show::Details<G>>>,
    export: Option<OwnFn<cmd::export::Args>>,
    stats: Option<OwnFn<cmd::stats::Args>>,
    crosscheck: Option<OwnFn<cmd::crosscheck::Args>>,
}

impl<G: Registered, F: Format<G>> GameCommands<G, F> {
    fn new(format: F, solve: SolveFn<G>) -> Self {
        let default = G::from_options(&topitop_game_api::Options::new()).ok();
        if let Some(g) = &default {
            assert_eq!(g.name(), G::NAME, "Game::name and Registered::NAME differ");
        }
        let mut options = G::OPTIONS.to_vec();
        // The solvers' flag, for a game with symmetries to leave out.
        if default.is_some_and(|g| g.has_symmetries()) {
            options.push(cmd::solve::NO_SYMMETRY);
        }
        GameCommands {
            format,
            options,
            solve,
            verify: None,
            check: conformance::check_presented::<G>,
            details: None,
            export: None,
            stats: None,
            crosscheck: None,
        }
    }

    /// The options offered: by default the game's own, and the solvers'
    /// `--no-symmetry` for a game with symmetries; a game whose own
    /// commands take more names them all.
    #[must_use]
    pub fn options(mut self, options: Vec<GameOption>) -> Self {
        self.options = options;
        self
    }

    /// The game's own solver in place of the generic one.
    #[must_use]
    pub fn solver(mut self, solve: SolveFn<G>) -> Self {
        self.solve = solve;
        self
    }

    /// The game's own check of the files its solver writes.
    #[must_use]
    pub fn verifier(mut self, verify: VerifyFn<G>) -> Self {
        self.verify = Some(verify);
        self
    }

    /// What the game adds to `show` beyond the game interface.
    #[must_use]
    pub fn details(mut self, details: Box<dyn cmd::show::Details<G>>) -> Self {
        self.details = Some(details);
        self
    }

    /// The game's own `export` (its own columns or formats).
    #[must_use]
    pub fn exporter(mut self, export: OwnFn<cmd::export::Args>) -> Self {
        self.export = Some(export);
        self
    }

    /// The game's own `stats` (its own figures).
    #[must_use]
    pub fn stats(mut self, stats: OwnFn<cmd::stats::Args>) -> Self {
        self.stats = Some(stats);
        self
    }

    /// The game's own `crosscheck` (rulesets compared, an upstream
    /// program's files).
    #[must_use]
    pub fn crosscheck(mut self, crosscheck: OwnFn<cmd::crosscheck::Args>) -> Self {
        self.crosscheck = Some(crosscheck);
        self
    }

    /// For the binary's list of games.
    pub fn boxed(self) -> Box<dyn Commands> {
        Box::new(self)
    }

    /// Where `query` and `play` answer from: the database `args` name,
    /// or for a board no database holds, the game's search.
    fn source(&self, args: &DbArgs, search_ms: u64) -> anyhow::Result<(G, cmd::Source<F::Db>)> {
        if args.db.is_none() {
            let game = game::<G>(&args.rules)?;
            if let Some(search) = cmd::search_instead(&game, args, search_ms) {
                return Ok((game, search));
            }
        }
        let (game, db) = self.format.open(args)?;
        Ok((game, cmd::Source::Db(Box::new(db))))
    }
}

/// Two databases of one variant of a tiered game, position by position.
fn crosscheck_files<G: Registered + Tiered>(args: cmd::crosscheck::Args) -> anyhow::Result<()> {
    let first = args.files.first().map(|f| DbArgs {
        db: Some(f.clone()),
        ..args.db.clone()
    });
    let game = game_of_db::<G>(first.as_ref().unwrap_or(&args.db))?;
    cmd::crosscheck::generic::run(&game, args)
}

/// The game `args` select.
///
/// # Errors
/// A value the game refuses.
pub fn game<G: Registered>(args: &GameArgs) -> anyhow::Result<G> {
    G::from_options(&args.options).map_err(anyhow::Error::msg)
}

/// The game of a command that reads a database of the shared formats:
/// with `--db FILE` and no option of the game's own, the variant the
/// file's header names (its own rules apply); otherwise as [`game`], a
/// file that holds another variant then being refused naming both when it
/// is opened.
///
/// # Errors
/// A value the game refuses, or a file naming a variant the game does
/// not have.
pub fn game_of_db<G: Registered>(args: &DbArgs) -> anyhow::Result<G> {
    let unset = G::OPTIONS.iter().all(|o| !args.rules.options.has(o.name));
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
    game(&args.rules)
}

impl<G: Registered, F: Format<G>> Commands for GameCommands<G, F> {
    fn name(&self) -> &'static str {
        G::NAME
    }
    fn options(&self) -> Vec<GameOption> {
        self.options.clone()
    }
    fn holds(&self, path: &Path) -> bool {
        self.format.holds(path)
    }
    fn perft(&self, args: cmd::perft::Args) -> anyhow::Result<()> {
        cmd::perft::run(game::<G>(&args.rules)?, args)
    }
    fn show(&self, args: cmd::show::Args) -> anyhow::Result<()> {
        let game = game::<G>(&args.rules)?;
        match &self.details {
            Some(details) => cmd::show::run_with(game, args, details.as_ref()),
            None => cmd::show::run(game, args),
        }
    }
    fn solve(&self, args: cmd::solve::Args) -> anyhow::Result<()> {
        (self.solve)(game::<G>(&args.rules)?, args)
    }
    fn verify(&self, args: cmd::verify::Args) -> anyhow::Result<()> {
        if let Some(own) = &self.verify {
            let game = game_of_db::<G>(&args.db)?;
            let path = args
                .db
                .db
                .clone()
                .unwrap_or_else(|| cmd::db_path(&game, &args.db.dir));
            if (own.holds)(&path) {
                return (own.run)(game, &path, args);
            }
        }
        let (game, db) = self.format.open(&args.db)?;
        cmd::verify::run(&game, &db, args)
    }
    fn check(&self, args: cmd::check::Args) -> anyhow::Result<()> {
        let game = game::<G>(&args.rules)?;
        let title = format!("{} {}", G::NAME, game.variant());
        cmd::check::run(&title, &args, |s| (self.check)(&game, s))
    }
    fn query(&self, args: cmd::query::Args) -> anyhow::Result<()> {
        let (game, source) = self.source(&args.db, args.search_ms)?;
        cmd::query::run(game, source, args)
    }
    fn export(&self, args: cmd::export::Args) -> anyhow::Result<()> {
        if let Some(own) = self.export {
            return own(args);
        }
        let (game, db) = self.format.open(&args.db)?;
        cmd::export::run(&game, &db, &cmd::export::Plain, args)
    }
    fn convert(&self, args: cmd::convert::Args) -> anyhow::Result<()> {
        let path = match &args.db.db {
            Some(p) => p.clone(),
            None => cmd::db_path(&game_of_db::<G>(&args.db)?, &args.db.dir),
        };
        self.format.convert(&path, &args)
    }
    fn stats(&self, args: cmd::stats::Args) -> anyhow::Result<()> {
        if let Some(own) = self.stats {
            return own(args);
        }
        if let Some(n) = args.probes {
            // Room for every block the probes touch, twice over so that
            // few meet in one set of the cache: the second pass then
            // measures blocks held decoded (memory: the blocks touched, at
            // most one a probe).
            topitop_db::packed::set_cache_blocks(2 * u64::from(n));
        }
        let (game, db) = self.format.open(&args.db)?;
        cmd::stats::run(&game, &db, &cmd::stats::Plain, args)
    }
    fn play(&self, args: cmd::play::Args) -> anyhow::Result<()> {
        if cmd::play::without_values(&game::<G>(&args.db.rules)?, &args)? {
            return Ok(());
        }
        let (game, source) = self.source(&args.db, args.search_ms)?;
        cmd::play::run(game, source, args)
    }
    fn canonical(&self, args: cmd::canonical::Args) -> anyhow::Result<()> {
        cmd::canonical::run(game::<G>(&args.rules)?, args)
    }
    fn crosscheck(&self, args: cmd::crosscheck::Args) -> anyhow::Result<()> {
        match self.crosscheck {
            Some(own) => own(args),
            None => anyhow::bail!(
                "--game {} has no crosscheck: it is for a game with rulesets to compare or an upstream program's files to check against",
                G::NAME
            ),
        }
    }
    fn serve(&self, args: &cmd::serve::Args) -> anyhow::Result<Shelved> {
        self.format.shelf(args)
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

    /// The game a command runs, and how it was chosen (for messages):
    /// `--game`'s; else, for a command given `--db FILE`, the game whose
    /// database the file is; else the default.
    ///
    /// # Errors
    /// A `--game` that contradicts the file, naming both; a file of the
    /// shared formats whose header does not read (cut short, damaged),
    /// which no game can be told from: said as it is, not as a database
    /// of the default game with a bad magic number.
    pub fn select(&self, args: &GameArgs, db: Option<&Path>) -> Result<(&dyn Commands, String), String> {
        let of_file = db.and_then(|file| Some((file, self.0.iter().find(|g| g.holds(file))?)));
        if let (Some(file), None, None) = (db, &of_file, &args.game) {
            let shared = [topitop_db::packed::MAGIC, topitop_db::tiered::MAGIC];
            if topitop_db::peek::magic(file).is_ok_and(|m| shared.iter().any(|s| m == s)) {
                if let Err(e) = topitop_db::peek::game_and_variant(file) {
                    return Err(format!("{e}; no game can be told from it"));
                }
            }
        }
        match (&args.game, of_file) {
            (Some(name), Some((file, g))) if g.name() != name => Err(format!(
                "--game {name} contradicts {}, a database of {}: give --db alone, or --game {}",
                file.display(),
                g.name(),
                g.name()
            )),
            (Some(name), _) => {
                let g = self.0.iter().find(|g| g.name() == name).ok_or_else(|| {
                    format!("unknown game {name:?}: the games are {}", self.names().join(", "))
                })?;
                Ok((g.as_ref(), format!("--game {name}")))
            }
            (None, Some((file, g))) => Ok((g.as_ref(), format!("the game of {}", file.display()))),
            (None, None) => Ok((
                self.0[0].as_ref(),
                "the default game; choose another with --game".to_string(),
            )),
        }
    }
}
