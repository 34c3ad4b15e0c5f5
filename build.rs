//! Build script: generates the Rust view of the GamesmanClassic C ABI with
//! bindgen, and stamps the version the `topitop` binary reports.
//!
//! Without libclang the committed bindings (ffi/src/bindings.rs) are used
//! instead, so a build never needs libclang; set TOPITOP_REQUIRE_BINDGEN=1 to
//! make a failed generation an error (CI does).

use std::path::{Path, PathBuf};
use std::process::Command;

include!("ffi/bindgen_config.rs");

fn main() {
    stamp_version();
    generate_bindings();
}

/// Sets TOPITOP_VERSION to the package version and the git commit, if any.
fn stamp_version() {
    println!("cargo:rerun-if-changed=.git/HEAD");
    println!("cargo:rerun-if-changed=.git/refs");
    let pkg = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let commit = git_commit().map_or_else(String::new, |c| format!(" ({c})"));
    println!("cargo:rustc-env=TOPITOP_VERSION={pkg}{commit}");
}

/// The short commit hash, if this is a git checkout and git is installed.
fn git_commit() -> Option<String> {
    let out = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
        .filter(|s| !s.is_empty())
}

/// Writes OUT_DIR/bindings.rs from the header, or from the committed copy
/// when libclang cannot be loaded.
fn generate_bindings() {
    println!("cargo:rerun-if-changed={HEADER}");
    println!("cargo:rerun-if-changed={COMMITTED}");
    println!("cargo:rerun-if-changed=ffi/bindgen_config.rs");
    println!("cargo:rerun-if-env-changed=TOPITOP_REQUIRE_BINDGEN");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("bindings.rs");
    match generate_bindings_text(HEADER) {
        Ok(text) => std::fs::write(&out, text).unwrap_or_else(|e| {
            panic!("cannot write {}: {e}", out.display());
        }),
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
