//! `topitop`: the command-line tool of the Topitop project, one module per
//! subcommand in [`cmd`].

#![forbid(unsafe_code)]

mod cmd;
mod common;
mod games;
mod generic;
mod lines;
mod output;
mod progress;
mod report;
mod scan;

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Topitop, solved: a GamesmanClassic-exact rules engine and its tools.
#[derive(Parser)]
#[command(name = "topitop", version = env!("TOPITOP_VERSION"), about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count move sequences and distinct positions at each depth from the start.
    Perft(cmd::perft::Args),
    /// Show a position: board, turn, forbidden slide, primitive value, moves.
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
    /// Play against the perfect player or another person.
    Play(cmd::play::Args),
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
        )
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // The server shuts down on signals itself; every other command removes
    // its unfinished outputs and ends.
    if !matches!(cli.command, Command::Serve(_)) {
        if let Err(e) = topitop_files::temps::remove_on_signals() {
            eprintln!("topitop: warning: cannot watch for signals ({e}); an interrupted command may leave temporary files");
        }
    }
    let only_prints = cli.command.only_prints();
    let result = match cli.command {
        Command::Perft(args) => cmd::perft::run(args),
        Command::Show(args) => cmd::show::run(args),
        Command::Solve(args) => cmd::solve::run(args),
        Command::Verify(args) => cmd::verify::run(args),
        Command::Query(args) => cmd::query::run(args),
        Command::Export(args) => cmd::export::run(args),
        Command::Stats(args) => cmd::stats::run(args),
        Command::Crosscheck(args) => cmd::crosscheck::run(args),
        Command::Play(args) => cmd::play::run(args),
        Command::Serve(args) => cmd::serve::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // Quietly: the reader has gone, and there is no one to tell.
        Err(e) if common::is_broken_pipe(&e) && only_prints => ExitCode::SUCCESS,
        Err(e) if common::is_broken_pipe(&e) => ExitCode::from(CUT_SHORT),
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "topitop: error: {}", common::error_text(&e));
            ExitCode::from(2)
        }
    }
}
