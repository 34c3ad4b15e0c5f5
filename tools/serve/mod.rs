//! The GamesmanUni backend: GamesmanUni's JSON API over our databases.
//!
//! [`catalog`] finds the databases, [`routes`] answers each route from them,
//! [`theme`] and [`instructions`] hold the fixed content, and [`server`] is
//! the HTTP layer (CORS, access log, timeouts, graceful shutdown).

pub mod catalog;
pub mod instructions;
pub mod routes;
pub mod server;
pub mod theme;
