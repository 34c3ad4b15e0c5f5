//! The integration tests of this crate, as one test binary: one link
//! instead of one per file (docs/architecture.md, "Building fast").

mod bellman;
mod common;

mod corruption;
mod gamesman_classic;
mod gamesman_classic_export;
mod golden;
mod naive;
mod reach;
mod reader;
mod roundtrip;
mod together;
