//! Toppo, Reiner Knizia's real-time card game, as a program can hold it:
//! the cards ([`card`]), what a line does to the display ([`check`]), one
//! game with timestamped actions and every penalty ([`game`]), the exact
//! odds of a line against a display ([`odds`]), and games between bots in
//! simulated time ([`sim`]). No I/O. docs/toppo.md gives the rules made
//! exact and every assumption.
#![forbid(unsafe_code)]

pub mod card;
pub mod check;
pub mod game;
pub mod odds;
pub mod sim;

pub use card::{parse_cards, Card, Colour, DeckSpec, Symbol};
pub use game::{Action, Event, Game, Rules, Timed, Totals};
pub use odds::Odds;
pub use sim::{Bot, Matching, Outcome};
