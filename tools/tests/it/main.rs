//! The integration tests of this crate, as one test binary: one link
//! instead of one per file (docs/architecture.md, "Building fast").

mod support;

mod cli;
mod convert;
mod crosscheck;
mod export_stream;
mod hardening;
mod hostile;
mod limits;
#[cfg(all(feature = "mpi", feature = "toy"))]
mod mpi;
mod options;
mod page;
mod page_games;
mod parquet;
mod report;
mod serve;
mod shapes;
mod study;
mod topolo;
mod topple;
mod toppo;
#[cfg(feature = "toy")]
mod toy;
