//! Helpers shared by the integration tests (and the load benchmark).

// Each test crate uses some of the helpers.
#[allow(dead_code)]
pub mod browser;
pub mod http;
// Each test crate uses some of the helpers.
#[allow(dead_code)]
pub mod page;
// Each test crate uses some of the helpers.
#[allow(dead_code)]
pub mod run;
// Each test crate uses some of the helpers.
#[allow(dead_code)]
pub mod server;
// Each test crate uses some of the helpers.
#[allow(dead_code)]
pub mod webdriver;
