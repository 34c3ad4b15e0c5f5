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

/// Says that the running test did not check what it is for, and why, where
/// the test summary shows it: libtest keeps back what a passing test prints
/// with `eprintln!`, so that a test skipped for a missing browser read as
/// passed. Written to standard error directly, past libtest's capture.
#[allow(dead_code)]
pub fn skip(why: &str) {
    use std::io::Write;
    let name = std::thread::current().name().unwrap_or("a test").to_string();
    let _ = writeln!(std::io::stderr().lock(), "SKIPPED {name}: {why}");
}
