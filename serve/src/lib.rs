//! The GamesmanUni backend: GamesmanUni's JSON API over the databases of
//! every game.
//!
//! [`routes`] answers each route (a pure function of path and query,
//! tested without a socket) from the served variants, each a
//! [`ServedVariant`]: [`served`] serves any game behind the game interface
//! from its database, read through the shared reader (whatever the file's
//! format), or by its search. [`catalog`]
//! finds every game's database files in the served directory, through the
//! game's [`catalog::Shelf`], and reloads them as they change. [`response`]
//! builds the position object (shared with the command's `query` and
//! `play`), [`gate`] checks request heads before hyper sees them,
//! [`server`] is the HTTP layer (CORS, access log, timeouts, graceful
//! shutdown), [`searches`] limits the searches run at once, [`socket`]
//! lets a search learn that its client has gone, and [`log`] is a log
//! output that never makes the server wait.
//! [`page`] is the browser page under `/ui/`, beside GamesmanUni's routes.
//!
//! No game is named here. The databases are read into memory, never
//! mapped, so nothing that happens to their files can disturb the server.
#![forbid(unsafe_code)]

pub mod catalog;
pub mod draw_levels;
pub mod extra;
pub mod gate;
pub mod log;
pub mod page;
pub mod response;
pub mod routes;
pub mod searches;
pub mod served;
pub mod server;
pub mod socket;
pub mod variant;

pub use hyper::StatusCode;
pub use response::{respond_game, GameOver, MoveResponse, PositionResponse};
pub use routes::{App, Reply};
pub use server::Limits;
pub use variant::{Notes, PositionError, ServedGame, ServedVariant};
