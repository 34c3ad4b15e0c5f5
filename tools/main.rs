//! `topitop`: the command-line tool of the Topitop project.

mod checkpoint;
mod cmd;
mod common;
mod progress;
mod solution_file;

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
    /// Re-check a solved result against forward move generation.
    Verify(cmd::verify::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft(args) => cmd::perft::run(args),
        Command::Show(args) => cmd::show::run(args),
        Command::Solve(args) => cmd::solve::run(args),
        Command::Verify(args) => cmd::verify::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if common::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("topitop: error: {e:#}");
            ExitCode::from(2)
        }
    }
}
