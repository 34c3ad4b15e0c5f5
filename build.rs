//! Build script of the GamesmanClassic module: the Rust view of the C ABI
//! (ffi/include/gamesman_topitop.h) is the committed ffi/src/bindings.rs,
//! or, with the `bindgen` feature, what bindgen generates from the header.
//!
//! With the feature but without libclang the committed bindings are used
//! still, said in a warning; set TOPITOP_REQUIRE_BINDGEN=1 to make a failed
//! generation an error (CI does).

use std::path::{Path, PathBuf};

#[cfg(feature = "bindgen")]
include!("ffi/bindgen_config.rs");

/// The header, relative to the workspace root.
#[cfg(not(feature = "bindgen"))]
const HEADER: &str = "ffi/include/gamesman_topitop.h";

/// The committed copy of the generated bindings.
#[cfg(not(feature = "bindgen"))]
const COMMITTED: &str = "ffi/src/bindings.rs";

/// Without the `bindgen` feature there is nothing to generate with.
#[cfg(not(feature = "bindgen"))]
fn generate_bindings_text(_header: &str) -> Result<String, String> {
    Err("built without the `bindgen` feature".into())
}

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
            if cfg!(not(feature = "bindgen")) {
                copy_committed(&out);
                return;
            }
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
            copy_committed(&out);
        }
    }
}

/// The committed bindings, as the script's output `out`.
fn copy_committed(out: &Path) {
    std::fs::copy(Path::new(COMMITTED), out)
        .unwrap_or_else(|e| panic!("cannot copy {COMMITTED} to {}: {e}", out.display()));
}
