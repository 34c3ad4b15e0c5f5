//! Feeds arbitrary bytes to the readers of the shared formats (tiered
//! records and value databases, every version they read): they must
//! return typed errors, never panic, read out of bounds or allocate what
//! a forged header promises.
#![no_main]

use std::io::Write;

use libfuzzer_sys::fuzz_target;
use topitop_db::packed::{PackedDb, MAGIC as VALUES};
use topitop_db::tiered::TieredDb;

fuzz_target!(|data: &[u8]| {
    if data.starts_with(&VALUES) {
        // The value reader reads from a file, as a large database is
        // never held whole.
        let path = std::env::temp_dir().join(format!("read_shared-{}.db", std::process::id()));
        let written = std::fs::File::create(&path).and_then(|mut f| f.write_all(data));
        if written.is_ok() {
            if let Ok(db) = PackedDb::open(&path) {
                let _ = db.verify_blocks(|_, _| {});
                for t in 0..db.header().tiers.len() {
                    let _ = db.tier_values(t);
                    let _ = db.value(t, 0);
                }
            }
        }
        let _ = std::fs::remove_file(&path);
    } else if let Ok(db) = TieredDb::new("fuzz.db", data.to_vec()) {
        let _ = db.verify_blocks(|_, _| {});
        let _ = db.tiers();
    }
});
