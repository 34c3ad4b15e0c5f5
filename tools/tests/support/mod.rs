//! Helpers shared by the integration tests (and the load benchmark).

pub mod http;
