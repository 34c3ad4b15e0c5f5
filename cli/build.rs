//! Build script of the `topitop` command: stamps the version it reports
//! (the package version and the git commit, if any).

use std::process::Command;

fn main() {
    stamp_version();
}

/// Sets TOPITOP_VERSION to the package version and the git commit, if any.
fn stamp_version() {
    println!("cargo:rerun-if-changed=../.git/HEAD");
    println!("cargo:rerun-if-changed=../.git/refs");
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
