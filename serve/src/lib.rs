//! The GamesmanUni backend: GamesmanUni's JSON API over Topitop databases.
//!
//! [`catalog`] finds the databases, [`routes`] answers each route from them
//! (a pure function of path and query, tested without a socket),
//! [`response`] builds the position object (shared with the command's
//! `query` and `play`), [`theme`] and [`instructions`] hold the fixed
//! content, [`reload`] serves a database file replaced while the server
//! runs, [`gate`] checks request heads before hyper sees them, [`server`]
//! is the HTTP layer (CORS, access log, timeouts, graceful shutdown), and
//! [`log`] is a log output that never makes the server wait.
//!
//! The databases are read into memory, never mapped, so nothing that
//! happens to their files can disturb the server; a replaced file is read
//! again and served if it is valid.
#![forbid(unsafe_code)]

pub mod catalog;
pub mod gate;
pub mod instructions;
pub mod log;
pub mod reload;
pub mod response;
pub mod routes;
pub mod server;
pub mod theme;

pub use catalog::{Catalog, CatalogError};
pub use response::{respond, respond_as, GameOver, PositionResponse};
pub use routes::{App, Reply};
pub use server::Limits;
