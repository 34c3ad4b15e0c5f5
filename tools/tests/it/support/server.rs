//! `topitop serve` run as a child process on loopback.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running server; killed on drop.
pub struct Server {
    /// The process.
    pub child: Child,
    /// Where it listens.
    pub addr: SocketAddr,
    /// Its standard error.
    pub log: PathBuf,
}

impl Server {
    /// Starts `topitop serve` on the databases in `dir` with `extra`
    /// options, logging to `dir/<name>.log`.
    pub fn start(dir: &Path, name: &str, extra: &[&str]) -> Server {
        let log = dir.join(format!("{name}.log"));
        let mut child = Command::new(env!("CARGO_BIN_EXE_topitop"))
            .args(["serve", "--dir", dir.to_str().unwrap()])
            .args(["--bind", "127.0.0.1:0"])
            .args(if extra.contains(&"--threads") {
                &[][..]
            } else {
                &["--threads", "2"][..]
            })
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .trim()
            .strip_prefix("open http://")
            .and_then(|a| a.split_once("/ui/"))
            .map(|(a, _)| a)
            .unwrap_or_else(|| {
                panic!(
                    "no address in {line:?}: {}",
                    std::fs::read_to_string(&log).unwrap_or_default()
                )
            })
            .parse()
            .unwrap();
        Server { child, addr, log }
    }

    /// What it has logged so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap()
    }

    /// Sends it the signal `name` (e.g. `TERM`).
    pub fn signal(&self, name: &str) {
        let status = Command::new("kill")
            .args([&format!("-{name}"), &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
    }

    /// Waits up to `limit` for the server to exit.
    pub fn wait(&mut self, limit: Duration) -> Option<std::process::ExitStatus> {
        let start = Instant::now();
        while start.elapsed() < limit {
            if let Some(s) = self.child.try_wait().unwrap() {
                return Some(s);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
