//! Topitop served to GamesmanUni through `topitop-serve`'s
//! [`ServedVariant`](topitop_serve::ServedVariant), from Topitop's own
//! database format (its fast path): [`catalog`] finds each variant's
//! database by file name, [`reload`] serves a database file replaced while
//! the server runs, [`response`] builds Topitop's position objects (shared
//! with the command's `query` and `play`), [`theme`] and [`instructions`]
//! hold the fixed content, and [`served`] puts them behind the server's
//! interface.

pub mod art;
pub mod catalog;
pub mod instructions;
pub mod reload;
pub mod response;
pub mod served;
pub mod theme;
