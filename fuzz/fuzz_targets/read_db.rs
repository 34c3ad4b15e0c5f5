//! Feeds arbitrary bytes to the database reader: it must return typed
//! errors, never panic or read out of bounds.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = games_topitop_solved::read_all(data);
});
