//! `topitop`: the command-line tool of the project. The commands live in
//! `topitop-cli`, which names no game; this file registers the games, one
//! line each, Topitop first (the default of `--game`).

#![deny(unsafe_code)]

mod heap;
#[cfg(feature = "mpi")]
mod mpi_link;

use std::process::ExitCode;

use topitop_cli::registry::Games;

fn main() -> ExitCode {
    // Only the tier solver gains: Topolo's solver ran 7-12% slower with
    // it (docs/benchmarks.md).
    let _ = topitop_cli::cmd::solve::TIER_SOLVER_HEAP.set(heap::return_large_blocks);
    let _ = topitop_cli::cmd::serve::RETURN_FREE_MEMORY.set(heap::return_free_memory);
    #[cfg(feature = "mpi")]
    let _ = topitop_cli::distributed::MPI_LINK.set(mpi_link::start);
    topitop_cli::main(
        Games::new(vec![
            games_topitop_commands::commands(),
            games_topolo_solved::commands(),
            games_topple_commands::commands(),
            #[cfg(feature = "toy")]
            topitop_cli::registry::tiered::<games_tictactoe::TicTacToe>().boxed(),
            #[cfg(feature = "toy")]
            topitop_cli::registry::tiered::<games_nim::Nim>().boxed(),
        ])
        // Toppo: no solver serves it; its own commands and pages.
        .with_tools(vec![games_toppo_commands::tool()]),
    )
}
