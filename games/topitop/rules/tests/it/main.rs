//! The integration tests of this crate, as one test binary: one link
//! instead of one per file (docs/architecture.md, "Building fast").

mod gchash;
mod index;
mod interface;
mod notation;
mod parse_errors;
mod perft;
mod rank;
mod rules;
mod symmetry;
mod unmove;
