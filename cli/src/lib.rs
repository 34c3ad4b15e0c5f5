//! The `topitop` command, for any game: its arguments, the commands of
//! every game behind the game interface ([`cmd`]), and what the commands
//! share (options, output files, progress, reports). The binary registers
//! the games ([`registry::Games`]) and calls [`main`]; this crate names
//! none.

#![forbid(unsafe_code)]

pub mod cmd;
pub mod common;
pub mod distributed;
pub mod lines;
pub mod options;
pub mod output;
pub mod parquet;
pub mod progress;
pub mod registry;
pub mod report;
pub mod solve_lock;

use std::io::Write;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::options::GameArgs;
use crate::registry::{Commands, Games};

/// The program's version as `--version` prints it, and as databases and
/// checkpoints record what made them: the package version and the git
/// commit, if any.
pub const VERSION: &str = env!("TOPITOP_VERSION");

#[derive(Parser)]
#[command(
    name = "topitop",
    version = VERSION,
    about = "Solve board games strongly (every position's value and remoteness), \
             then query, check, export, study, play and serve the results",
    long_about = None
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count move sequences and distinct positions at each depth from the start.
    Perft(cmd::perft::Args),
    /// Show a position: board, turn, primitive value, moves.
    Show(cmd::show::Args),
    /// Solve every position (value and remoteness) and write the result.
    Solve(cmd::solve::Args),
    /// Check a database: checksums, then every record against forward move generation.
    Verify(cmd::verify::Args),
    /// A position's value and remoteness and every move's, as GamesmanUni shows them.
    Query(cmd::query::Args),
    /// Write remoteness tables (TSV, CSV, JSON Lines, Parquet) or their summary.
    Export(cmd::export::Args),
    /// Counts by value, longest games, branching factor, hash efficiency.
    Stats(cmd::stats::Args),
    /// Compare two databases, or a database with GamesmanClassic's tier files.
    Crosscheck(cmd::crosscheck::Args),
    /// Rewrite a database of an older format version in today's (smaller) one.
    Convert(cmd::convert::Args),
    /// Play against the perfect player or another person.
    Play(cmd::play::Args),
    /// A position's symmetry-class representative: the key of its row in a database and its exports.
    Canonical(cmd::canonical::Args),
    /// Play random games and check every position and move against the game interface's contract.
    Check(cmd::check::Args),
    /// Serve GamesmanUni's API (games, variants, positions, instructions) over HTTP.
    Serve(cmd::serve::Args),
}

/// The exit status of a command whose output was cut short by a closed
/// pipe before its work was done: 128 + SIGPIPE, as a shell reports a
/// process that signal ended.
const CUT_SHORT: u8 = 141;

impl Command {
    /// True for the commands whose output is their whole work, so that a
    /// reader who stops reading (`| head`) has all it wanted: as ripgrep
    /// does, they end with success. A check, a comparison, a solve or a
    /// server cut short has not done its work, and says so.
    fn only_prints(&self) -> bool {
        matches!(
            self,
            Command::Perft(_)
                | Command::Show(_)
                | Command::Query(_)
                | Command::Export(_)
                | Command::Stats(_)
                | Command::Play(_)
                | Command::Canonical(_)
        )
    }

    /// The command's game options, and its `--db FILE` if it reads one;
    /// `None` for a command of every game at once.
    fn game_args(&self) -> Option<(&GameArgs, Option<&std::path::Path>)> {
        Some(match self {
            Command::Perft(a) => (&a.rules, None),
            Command::Show(a) => (&a.rules, None),
            Command::Solve(a) => (&a.rules, None),
            Command::Canonical(a) => (&a.rules, None),
            Command::Check(a) => (&a.rules, None),
            Command::Verify(a) => (&a.db.rules, a.db.db.as_deref()),
            Command::Query(a) => (&a.db.rules, a.db.db.as_deref()),
            Command::Export(a) => (&a.db.rules, a.db.db.as_deref()),
            Command::Stats(a) => (&a.db.rules, a.db.db.as_deref()),
            Command::Crosscheck(a) => (
                &a.db.rules,
                a.db.db.as_deref().or(a.files.first().map(|f| f.as_path())),
            ),
            Command::Play(a) => (&a.db.rules, a.db.db.as_deref()),
            Command::Convert(a) => (&a.db.rules, a.db.db.as_deref()),
            Command::Serve(_) => return None,
        })
    }

    /// Runs the command on `game`, or on every game of `games` (`serve`).
    fn run(self, game: &dyn Commands, games: &Games) -> anyhow::Result<()> {
        match self {
            Command::Perft(a) => game.perft(a),
            Command::Show(a) => game.show(a),
            Command::Solve(a) => game.solve(a),
            Command::Verify(a) => game.verify(a),
            Command::Query(a) => game.query(a),
            Command::Export(a) => game.export(a),
            Command::Stats(a) => game.stats(a),
            Command::Crosscheck(a) => game.crosscheck(a),
            Command::Convert(a) => game.convert(a),
            Command::Play(a) => game.play(a),
            Command::Canonical(a) => game.canonical(a),
            Command::Check(a) => game.check(a),
            Command::Serve(a) => cmd::serve::run(games, a),
        }
    }
}

/// The argument of `e` that reads as a database file given without `--db`
/// (`topitop stats data/topolo_3x3.db`): an unexpected argument that is a
/// file or ends in `.db`.
fn positional_file(e: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() != ErrorKind::UnknownArgument {
        return None;
    }
    match e.get(ContextKind::InvalidArg)? {
        ContextValue::String(a)
            if !a.starts_with('-') && (a.ends_with(".db") || std::path::Path::new(a).is_file()) =>
        {
            Some(a.clone())
        }
        _ => None,
    }
}

/// Runs the command line on `games`, the first the default of `--game`:
/// the whole of the `topitop` binary.
pub fn main(games: Games) -> ExitCode {
    // The games' commands with the games' options, and each tool's own
    // subcommand beside them.
    let mut command = options::offer(Cli::command(), games.all()).after_help(games_help(&games));
    for t in games.tools() {
        command = command.subcommand(t.command());
    }
    let matches = match command.try_get_matches_from_mut(std::env::args_os()) {
        Ok(m) => m,
        Err(e) => {
            let _ = e.print();
            if let Some(file) = positional_file(&e) {
                eprintln!("\nhint: a command names its database with --db: --db {file}");
            }
            std::process::exit(e.exit_code());
        }
    };
    if let Some((name, args)) = matches.subcommand() {
        if let Some(tool) = games.tools().iter().find(|t| t.command().get_name() == name) {
            if let Err(e) = topitop_files::temps::remove_on_signals() {
                eprintln!("topitop: warning: cannot watch for signals ({e})");
            }
            return match tool.run(args) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) if common::is_broken_pipe(&e) => ExitCode::SUCCESS,
                Err(e) => {
                    let _ = writeln!(std::io::stderr(), "topitop: error: {}", common::error_text(&e));
                    ExitCode::from(2)
                }
            };
        }
    }
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(c) => c,
        Err(e) => e.exit(),
    };
    // The one place a game's options are checked against the game, before
    // anything runs: a usage error, as clap's own.
    let game = match cli.command.game_args() {
        None => games.all()[0].as_ref(),
        Some((args, db)) => {
            let name = matches.subcommand_name().unwrap_or_default();
            let picked = games
                .select(args, db)
                .and_then(|(game, chosen)| options::check(name, game, &chosen, args).map(|()| game));
            match picked {
                Ok(game) => game,
                Err(message) => usage_error(&mut command, name, message),
            }
        }
    };
    // The server shuts down on signals itself; every other command removes
    // its unfinished outputs and ends.
    if !matches!(cli.command, Command::Serve(_)) {
        if let Err(e) = topitop_files::temps::remove_on_signals() {
            eprintln!("topitop: warning: cannot watch for signals ({e}); an interrupted command may leave temporary files");
        }
    }
    let only_prints = cli.command.only_prints();
    // Neither --game nor a --db file said which game: the default's.
    let defaulted = cli
        .command
        .game_args()
        .is_some_and(|(args, db)| args.game.is_none() && db.is_none());
    match cli.command.run(game, &games) {
        Ok(()) => ExitCode::SUCCESS,
        // Quietly: the reader has gone, and there is no one to tell.
        Err(e) if common::is_broken_pipe(&e) && only_prints => ExitCode::SUCCESS,
        Err(e) if common::is_broken_pipe(&e) => ExitCode::from(CUT_SHORT),
        // Like `diff`: the report on standard output says what differs,
        // and the status that something does.
        Err(e) if e.downcast_ref::<common::Differ>().is_some() => ExitCode::from(1),
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "topitop: error: {}", common::error_text(&e));
            // Only text the default game cannot read at all may be another
            // game's: a position it reads but finds unreachable is its own.
            let unread = e
                .downcast_ref::<common::BadPosition>()
                .is_some_and(|b| b.0.kind() == topitop_game_api::ErrorKind::Notation);
            if defaulted && unread {
                let names = games.names();
                let _ = writeln!(
                    std::io::stderr(),
                    "hint: without --game, positions are read as {}'s; another game's need --game NAME ({})",
                    names[0],
                    names[1..].join(", ")
                );
            }
            ExitCode::from(2)
        }
    }
}

/// The games `--game` takes, the default first: the end of `topitop
/// --help` (a newcomer did not find them).
fn games_help(games: &Games) -> String {
    let names = games.names();
    format!(
        "Games (--game NAME, or told from the header of a database given with --db): {} (the default){}",
        names[0],
        names[1..].iter().map(|n| format!(", {n}")).collect::<String>()
    )
}

/// Ends the program as clap ends it for a usage error: `message` and the
/// usage of the subcommand `name` on standard error, exit status 2.
fn usage_error(command: &mut clap::Command, name: &str, message: String) -> ! {
    let bin = command.get_name().to_string();
    let sub = command
        .find_subcommand_mut(name)
        .expect("the subcommand just parsed");
    let mut sub = sub.clone().bin_name(format!("{bin} {name}"));
    sub.error(clap::error::ErrorKind::ArgumentConflict, message)
        .exit()
}
