//! The integration tests of this crate, as one test binary: one link
//! instead of one per file (docs/architecture.md, "Building fast").

mod damage;
mod integrity;
