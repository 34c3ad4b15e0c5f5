//! Build script of the GamesmanClassic module: generates the Rust view of
//! the C ABI (ffi/include/gamesman_topitop.h) with bindgen.
//!
//! Without libclang the committed bindings (ffi/src/bindings.rs) are used
//! instead, so a build never needs libclang; set TOPITOP_REQUIRE_BINDGEN=1 to
//! make a failed generation an error (CI does).

use std::path::{Path, PathBuf};

include!("ffi/bindgen_config.rs");

fn main() {
    generate_bindings();
}

/// Writes OUT_DIR/bindings.rs from the header, or from the committed copy
/// when libclang cannot be loaded.
fn generate_bindings() {
    println!("cargo:rerun-if-changed={HEADER}");
    println!("cargo:rerun-if-changed={COMMITTED}");
    println!("cargo:rerun-if-changed=ffi/bindgen_config.rs");
    println!("cargo:rerun-if-env-changed=TOPITOP_REQUIRE_BINDGEN");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("bindings.rs");
    // The harness's test compares fresh bindings with the committed copy
    // through this cfg and the generated text, so that bindgen is built
    // once, for this script, and not again for a test.
    println!("cargo::rustc-check-cfg=cfg(bindings_from_bindgen)");
    match generate_bindings_text(HEADER) {
        Ok(text) => {
            std::fs::write(&out, text).unwrap_or_else(|e| {
                panic!("cannot write {}: {e}", out.display());
            });
            println!("cargo::rustc-cfg=bindings_from_bindgen");
        }
        Err(e) => {
            if std::env::var("TOPITOP_REQUIRE_BINDGEN").is_ok_and(|v| v == "1") {
                panic!(
                    "bindgen could not generate bindings from {HEADER}: {e}. \
                     Install libclang (Debian: apt-get install libclang-dev) or unset TOPITOP_REQUIRE_BINDGEN."
                );
            }
            println!(
                "cargo:warning=bindgen unavailable, using the committed {COMMITTED} \
                 (install libclang-dev to regenerate): {}",
                e.lines().next().unwrap_or_default()
            );
            std::fs::copy(Path::new(COMMITTED), &out)
                .unwrap_or_else(|e| panic!("cannot copy {COMMITTED} to {}: {e}", out.display()));
        }
    }
}
