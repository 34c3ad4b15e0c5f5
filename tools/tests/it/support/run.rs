//! Running the `topitop` binary from tests.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// Runs `topitop args` to completion.
pub fn topitop(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_topitop"))
        .args(args)
        .output()
        .expect("run topitop")
}

/// Runs `topitop args` to completion with the environment variables
/// `vars` set.
pub fn topitop_with_env(args: &[&str], vars: &[(&str, &str)]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_topitop"))
        .args(args)
        .envs(vars.iter().copied())
        .output()
        .expect("run topitop")
}

/// Runs `topitop args` with `input` on standard input.
pub fn topitop_with_input(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_topitop"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run topitop");
    let mut stdin = child.stdin.take().expect("piped");
    let input = input.to_vec();
    // Fed from a thread: a large input would otherwise fill the pipe while
    // the command waits for its own full output pipe to be read. The
    // command may stop reading early (that is what some tests check).
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("wait for topitop");
    feeder.join().expect("the feeder does not panic");
    out
}

/// Standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A fresh, empty directory under the target's temporary directory.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("hardening-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The names of the entries of `dir`, sorted.
pub fn listing(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}
