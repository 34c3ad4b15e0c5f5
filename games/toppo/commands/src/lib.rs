//! Toppo's commands, the exception to the game interface: Toppo is played
//! in real time with hidden, shuffled cards, so no solver serves it. It
//! brings `topitop toppo odds` (exact odds, [`odds`]), `topitop toppo
//! simulate` (games between bots, [`simulate`]) and a game against bots in
//! the browser page of `topitop serve` ([`pages`]); the binary registers
//! it with [`tool`].
#![forbid(unsafe_code)]

pub mod odds;
pub mod pages;
pub mod simulate;

use std::sync::Arc;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use topitop_cli::registry::Tool;

/// Toppo, the card game: exact odds of a line against the display, and
/// simulated games between bots (its game against bots is in the page of
/// `topitop serve`, at /ui/toppo/).
#[derive(Parser)]
#[command(name = "toppo")]
struct Toppo {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Exact chances that a line tops the display, tops it as dealt, or
    /// matches a card of it.
    Odds(odds::Args),
    /// Games between bots in simulated time: game length, penalty points,
    /// what a faster reaction is worth.
    Simulate(simulate::Args),
}

struct ToppoTool {
    pages: Arc<pages::ToppoPages>,
}

/// Toppo's tool, for the binary: its subcommand and its pages.
pub fn tool() -> Box<dyn Tool> {
    Box::new(ToppoTool {
        pages: Arc::new(pages::ToppoPages::default()),
    })
}

impl Tool for ToppoTool {
    fn command(&self) -> clap::Command {
        Toppo::command()
    }

    fn run(&self, args: &clap::ArgMatches) -> anyhow::Result<()> {
        let t = Toppo::from_arg_matches(args)?;
        match t.command {
            Command::Odds(a) => odds::run(a),
            Command::Simulate(a) => simulate::run(a),
        }
    }

    fn pages(&self) -> Option<Arc<dyn topitop_serve::extra::Pages>> {
        Some(self.pages.clone())
    }
}
