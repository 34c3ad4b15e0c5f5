//! The GamesmanUni backend: GamesmanUni's JSON API over Topitop databases.
//!
//! [`catalog`] finds the databases, [`routes`] answers each route from them
//! (a pure function of path and query, tested without a socket),
//! [`response`] builds the position object (shared with the command's
//! `query` and `play`), [`theme`] and [`instructions`] hold the fixed
//! content, and [`server`] is the HTTP layer (CORS, access log, timeouts,
//! graceful shutdown).
//!
//! The databases are read into memory when the server starts, so nothing
//! that happens to their files afterwards can disturb it.
#![forbid(unsafe_code)]

pub mod catalog;
pub mod instructions;
pub mod response;
pub mod routes;
pub mod server;
pub mod theme;

pub use catalog::{Catalog, CatalogError};
pub use response::{respond, PositionResponse};
pub use routes::{App, Reply};
pub use server::Limits;
