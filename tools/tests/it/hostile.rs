//! Regression tests for the defects a hostile trial found (issue 24): a
//! wrong answer from foreign checkpoints, outputs written over their
//! inputs, signals, special files, closed pipes, lying exit statuses and
//! misleading errors. Each test is named after what it pins.

use crate::support;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use support::run::{listing, stderr, stdout, temp_dir, topitop, topitop_with_input};

/// Small enough to solve in a second.
const SMALL: &str = "2/1/2/2";

/// A small board of each of the other games.
const TOPOLO: [&str; 4] = ["--game", "topolo", "--board", "3x3"];
const TOPPLE: [&str; 6] = ["--game", "topple", "--board", "3x3", "--variant", "s6"];

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_topitop"))
}

/// A solved database of `args` (a budget and rules options) in `dir`.
fn solved(dir: &Path, args: &[&str]) -> PathBuf {
    let o = topitop(&[&["solve", "--out", dir.to_str().unwrap()][..], args].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let line = stdout(&o);
    let path = line
        .lines()
        .find_map(|l| l.strip_prefix("wrote "))
        .and_then(|l| l.split(" (").next())
        .expect("solve names its file");
    PathBuf::from(path)
}

/// The standard game's database, solved once for the tests that need a
/// command to run long enough to be interrupted.
fn standard() -> &'static Path {
    static DB: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DB.get_or_init(|| solved(&temp_dir("standard"), &[]))
}

/// Waits for `child` to end, for at most `limit`.
fn wait_at_most(child: &mut Child, limit: Duration) -> Option<ExitStatus> {
    let start = Instant::now();
    while start.elapsed() < limit {
        if let Some(s) = child.try_wait().unwrap() {
            return Some(s);
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let _ = child.kill();
    None
}

fn signal(child: &Child, name: &str) {
    let ok = Command::new("kill")
        .args([&format!("-{name}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
}

#[test]
fn a_checkpoint_of_another_variant_is_never_resumed() {
    let dir = temp_dir("foreign-ckpt");
    let out = dir.to_str().unwrap();
    let mut child = bin()
        .args(["solve", "--out", out, "--budget", "2/2/2/2", "--variant", "4"])
        .args(["--checkpoint-after", "0"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let ckpt4 = dir.join("topitop_v1_4_2-2-2-2.ckpt");
    let levels = || std::fs::read_dir(&ckpt4).map_or(0, |d| d.count());
    while levels() < 4 {
        assert!(child.try_wait().unwrap().is_none(), "ended before it was killed");
        std::thread::sleep(Duration::from_millis(1));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    // What the hostile user did: the misère checkpoints renamed as variant 0's.
    let _ = std::fs::remove_file(dir.join("topitop_v1_4_2-2-2-2.db.lock"));
    let ckpt0 = dir.join("topitop_v1_0_2-2-2-2.ckpt");
    std::fs::rename(&ckpt4, &ckpt0).unwrap();
    let o = topitop(&[
        "solve",
        "--out",
        out,
        "--budget",
        "2/2/2/2",
        "--checkpoint-after",
        "0",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}{}", stdout(&o), stderr(&o));
    let e = stderr(&o);
    assert!(
        e.contains("v1/4") && e.contains("v1/0") && e.contains("never resumed"),
        "{e}"
    );
    assert!(
        !dir.join("topitop_v1_0_2-2-2-2.db").exists(),
        "no database from them"
    );
    assert!(ckpt0.exists(), "the user's files are left for the user to judge");
    // Removed as the message says, the solve gives the truth.
    std::fs::remove_dir_all(&ckpt0).unwrap();
    let db = solved(&dir, &["--budget", "2/2/2/2"]);
    let o = topitop(&["verify", "--db", db.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stdout(&o));
    assert!(stdout(&o).contains(": 0 violations"), "{}", stdout(&o));
}

#[test]
fn an_output_that_is_an_input_is_refused_by_any_name() {
    let dir = temp_dir("output-is-input");
    let db = solved(&dir, &["--budget", SMALL]);
    let v0 = solved(&dir, &["--budget", SMALL, "--rules", "v0"]);
    let before = std::fs::read(&db).unwrap();
    std::os::unix::fs::symlink(&db, dir.join("soft.db")).unwrap();
    std::fs::hard_link(&db, dir.join("hard.db")).unwrap();
    let d = db.to_str().unwrap();
    for target in [
        d,
        dir.join("soft.db").to_str().unwrap(),
        dir.join("hard.db").to_str().unwrap(),
    ] {
        for args in [
            vec!["stats", "--db", d, "--report", target],
            vec!["export", "--db", d, "--tier", "0", "-o", target],
            vec!["export", "--db", d, "--format", "parquet", "-o", target],
            vec!["crosscheck", v0.to_str().unwrap(), d, "--report", target],
        ] {
            let o = topitop(&args);
            assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
            assert!(stderr(&o).contains("is the input"), "{args:?}: {}", stderr(&o));
            assert_eq!(
                std::fs::read(&db).unwrap(),
                before,
                "{args:?} changed the database"
            );
        }
    }
    let mut names = listing(&dir);
    names.retain(|n| n.contains(".tmp"));
    assert!(names.is_empty(), "left behind: {names:?}");
}

#[test]
fn a_signal_leaves_no_temporary_file_behind() {
    let db = standard().to_str().unwrap().to_string();
    for (signal_name, code, args) in [
        ("INT", 130, vec!["export", "-o", "out.tsv"]),
        (
            "TERM",
            143,
            vec!["export", "--format", "parquet", "-o", "out.parquet"],
        ),
        (
            "INT",
            130,
            vec!["export", "--format", "gamesman-classic", "-o", "."],
        ),
        ("HUP", 129, vec!["stats", "--report", "r.html"]),
    ] {
        let dir = temp_dir(&format!("signal-{}", args[args.len() - 1].replace('.', "")));
        let mut child = bin()
            .args(&args)
            .args(["--db", &db])
            .current_dir(&dir)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Once the temporary output exists, the signal.
        let start = Instant::now();
        while !listing(&dir).iter().any(|n| n.contains(".tmp")) {
            assert!(child.try_wait().unwrap().is_none(), "{args:?} ended first");
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "{args:?}: no temporary"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        std::thread::sleep(Duration::from_millis(200));
        signal(&child, signal_name);
        let status = wait_at_most(&mut child, Duration::from_secs(20)).expect("it ends");
        let mut err = String::new();
        child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
        assert_eq!(status.code(), Some(code), "{args:?}: {err}");
        assert!(err.contains("interrupted by SIG"), "{args:?}: {err}");
        assert_eq!(listing(&dir), Vec::<String>::new(), "{args:?} left files: {err}");
    }
}

#[test]
fn fifos_and_devices_as_databases_are_refused_at_once() {
    let dir = temp_dir("special");
    let fifo = dir.join("fifo.db");
    if !Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success())
    {
        eprintln!("mkfifo is not available: skipped");
        return;
    }
    for db in [fifo.to_str().unwrap(), "/dev/zero", "/dev/urandom"] {
        for args in [
            vec!["query", "1_---------", "--db", db],
            vec!["verify", "--db", db],
            vec!["stats", "--db", db],
            vec!["export", "--db", db],
            // Each game's own commands, which peek at a file's kind first.
            [&["verify"][..], &TOPOLO, &["--db", db]].concat(),
            [&["stats"][..], &TOPOLO, &["--db", db]].concat(),
            [&["verify"][..], &TOPPLE, &["--db", db]].concat(),
            [&["query"][..], &TOPPLE, &["--db", db]].concat(),
        ] {
            let mut child = bin()
                .args(&args)
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            let status = wait_at_most(&mut child, Duration::from_secs(10));
            let status = status.unwrap_or_else(|| panic!("{args:?} hung"));
            let mut err = String::new();
            child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
            assert_eq!(status.code(), Some(2), "{args:?}: {err}");
            assert!(err.contains("not a regular file"), "{args:?}: {err}");
        }
    }
    // serve starts on the other databases and leaves the FIFO out.
    let _ = std::fs::remove_file(&fifo);
    let good = solved(&dir, &["--budget", SMALL]);
    let misere = dir.join("topitop_v1_4_2-1-2-2.db");
    assert!(Command::new("mkfifo").arg(&misere).status().unwrap().success());
    let mut child = bin()
        .args(["serve", "--dir", dir.to_str().unwrap(), "--budget", SMALL])
        .args(["--bind", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = [0u8; 16];
    let read = child.stdout.as_mut().unwrap().read_exact(&mut line);
    signal(&child, "TERM");
    let _ = wait_at_most(&mut child, Duration::from_secs(10));
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    assert!(read.is_ok(), "serve did not start: {err}");
    assert!(err.contains("not a regular file"), "{err}");
    assert!(good.exists());
}

#[test]
fn a_closed_pipe_ends_quietly_and_the_status_tells_unfinished_work() {
    let dir = temp_dir("pipe");
    let db = solved(&dir, &["--budget", SMALL]);
    let misere = solved(&dir, &["--budget", SMALL, "--variant", "4"]);
    let d = db.to_str().unwrap();
    let big = standard().to_str().unwrap();
    // (arguments, the statuses allowed when the reader stops after 10 bytes)
    for (args, allowed) in [
        // A check cut short says so.
        (vec!["verify", "--db", big, "--checksums-only"], &[141][..]),
        (vec!["verify", "--db", d], &[141]),
        // Cut short, or done into the pipe's buffer: the sides differ.
        (
            vec!["crosscheck", misere.to_str().unwrap(), d, "--json"],
            &[141, 1],
        ),
        // Commands that only print: the reader has what it wanted.
        (vec!["perft", "7"], &[0]),
        (vec!["export", "--db", d], &[0]),
        (vec!["stats", "--db", d], &[0]),
    ] {
        let mut child = bin()
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = [0u8; 10];
        child.stdout.as_mut().unwrap().read_exact(&mut first).unwrap();
        drop(child.stdout.take());
        let status = wait_at_most(&mut child, Duration::from_secs(60)).expect("it ends");
        let mut err = String::new();
        child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        let code = status.code().unwrap_or(-1);
        assert!(allowed.contains(&code), "{args:?}: {status:?} {err}");
        if code != 2 {
            assert!(err.trim().is_empty(), "{args:?} is not quiet: {err}");
        }
    }
}

#[test]
fn a_solve_whose_output_is_closed_writes_its_database_and_says_it_was_cut_short() {
    let dir = temp_dir("solve-pipe");
    let mut child = bin()
        .args(["solve", "--budget", SMALL, "--out", dir.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let status = wait_at_most(&mut child, Duration::from_secs(60)).expect("it ends");
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    assert_eq!(status.code(), Some(141), "{err}");
    assert!(!err.contains("panicked") && !err.contains("error"), "{err}");
    assert_eq!(
        listing(&dir),
        ["topitop_v1_0_2-1-2-2.db"],
        "the database, and nothing else"
    );
}

#[test]
fn serve_with_a_closed_standard_output_serves_and_says_so() {
    let dir = temp_dir("serve-closed");
    solved(&dir, &["--budget", SMALL]);
    let log = dir.join("serve.log");
    let mut child = bin()
        .args(["serve", "--dir", dir.to_str().unwrap(), "--budget", SMALL])
        .args(["--bind", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let start = Instant::now();
    let addr = loop {
        let text = std::fs::read_to_string(&log).unwrap();
        if let Some(a) = text
            .lines()
            .find(|l| l.contains("listening") && l.contains("addr="))
            .and_then(|l| l.split("addr=").nth(1))
            .and_then(|a| a.split_whitespace().next())
        {
            break a.to_string();
        }
        assert!(child.try_wait().unwrap().is_none(), "serve ended: {text}");
        assert!(start.elapsed() < Duration::from_secs(20), "no address: {text}");
        std::thread::sleep(Duration::from_millis(20));
    };
    let r = support::http::get(addr.parse().unwrap(), "/topitop/regular/positions/?p=1_---------");
    assert_eq!(r.status, 200);
    assert!(std::fs::read_to_string(&log).unwrap().contains("serving anyway"));
    signal(&child, "TERM");
    let status = wait_at_most(&mut child, Duration::from_secs(10)).expect("it stops");
    assert!(status.success(), "{status:?}");
}

#[test]
fn bulk_query_gives_one_escaped_row_per_input_line() {
    let dir = temp_dir("query-rows");
    let db = solved(&dir, &["--budget", SMALL]);
    let input = b"a\tb\tc\n\n# note\n1_---------\n\x1b[31mx\rx\n\0\nzz\\\n";
    let o = topitop_with_input(&["query", "--db", db.to_str().unwrap()], input);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let text = stdout(&o);
    let rows: Vec<&str> = text.lines().collect();
    let lines = input.split(|&b| b == b'\n').count() - 1;
    assert_eq!(rows.len(), 1 + lines, "a header and a row a line: {text:?}");
    for row in &rows {
        assert_eq!(row.split('\t').count(), 7, "{row:?}");
        assert!(!row.chars().any(|c| c.is_control() && c != '\t'), "{row:?}");
    }
    assert!(rows[1].starts_with("a\\tb\\tc\terror\t"), "{}", rows[1]);
    assert_eq!(rows[2], "\tskipped\tblank line\t\t\t\t");
    assert_eq!(rows[3], "# note\tskipped\tcomment\t\t\t\t");
    assert!(rows[4].starts_with("1_---------\t"), "{}", rows[4]);
    assert!(rows[5].starts_with("\\x1b[31mx\\rx\terror\t"), "{}", rows[5]);
    assert!(rows[6].starts_with("\\x00\terror"), "{}", rows[6]);
    assert!(rows[7].starts_with("zz\\\\\terror"), "{}", rows[7]);
}

#[test]
fn rules_options_that_contradict_the_file_are_refused() {
    let dir = temp_dir("contradict");
    let v0 = solved(&dir, &["--budget", SMALL, "--rules", "v0"]);
    let v0 = v0.to_str().unwrap();
    let o = topitop(&["query", "1_---------", "--db", v0, "--rules", "v1"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("solves rules v0") && stderr(&o).contains("--rules v1"),
        "{}",
        stderr(&o)
    );
    let o = topitop(&["query", "1_---------", "--db", v0, "--budget", "2/2/4/4"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    // Options that agree with the file, or none, are fine.
    for extra in [&[][..], &["--rules", "v0"][..], &["--budget", SMALL][..]] {
        let o = topitop(&[&["query", "1_---------", "--db", v0][..], extra].concat());
        assert!(o.status.success(), "{extra:?}: {}", stderr(&o));
    }
}

#[test]
fn errors_name_what_is_wrong() {
    let dir = temp_dir("messages");
    let db = solved(&dir, &["--budget", SMALL]);
    let d = db.to_str().unwrap();
    std::fs::create_dir(dir.join("adir.db")).unwrap();
    let o = topitop(&["crosscheck", d, dir.join("adir.db").to_str().unwrap()]);
    assert!(
        stderr(&o).contains("is a directory, not a database file"),
        "{}",
        stderr(&o)
    );
    assert!(!stderr(&o).contains("--db"), "no --db was given: {}", stderr(&o));
    std::os::unix::fs::symlink("loop2", dir.join("loop1")).unwrap();
    std::os::unix::fs::symlink("loop1", dir.join("loop2")).unwrap();
    let looped = dir.join("loop1");
    for args in [
        vec!["query", "1_---------", "--db", looped.to_str().unwrap()],
        vec!["solve", "--budget", SMALL, "--out", looped.to_str().unwrap()],
    ] {
        let o = topitop(&args);
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).contains("symbolic links"), "{args:?}: {}", stderr(&o));
    }
    let o = topitop(&["crosscheck", "--gamesman-classic", "/nonexistent", "--db", d]);
    assert!(stderr(&o).contains("No such file or directory"), "{}", stderr(&o));
    let nodir = dir.join("nodir/sub");
    let o = topitop(&[
        "export",
        "--db",
        d,
        "--format",
        "gamesman-classic",
        "-o",
        nodir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("does not exist"), "{}", stderr(&o));
    assert!(!dir.join("nodir").exists(), "no parents made");
}

/// A small tmpfs mounted at a new folder, or `None` (with a message) where
/// mounting is refused; unmounted on drop.
struct SmallDisk(PathBuf);

impl SmallDisk {
    fn mount(name: &str, size: &str) -> Option<SmallDisk> {
        let dir = temp_dir(name);
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(&dir)
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            eprintln!(
                "cannot mount a tmpfs here (not root, or no permission): the full-disk case is skipped"
            );
            return None;
        }
        Some(SmallDisk(dir))
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

/// `--out` a symbolic link to nothing: named, with its target, rather
/// than "File exists".
#[test]
fn an_out_that_links_to_nothing_is_named_with_its_target() {
    let dir = temp_dir("dangling-out");
    let link = dir.join("out");
    std::os::unix::fs::symlink(dir.join("gone"), &link).unwrap();
    let o = topitop(&["solve", "--budget", SMALL, "--out", link.to_str().unwrap()]);
    let said = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{said}");
    assert!(
        said.contains("is a symbolic link to") && said.contains("gone"),
        "{said}"
    );
    assert!(!said.contains("File exists"), "{said}");
}

#[test]
fn a_full_disk_is_named_and_checked_before_a_solve() {
    let Some(disk) = SmallDisk::mount("full-disk", "256k") else {
        return;
    };
    let dir = temp_dir("full-disk-src");
    let db = solved(&dir, &["--budget", "2/2/2/2"]);
    let out = disk.0.join("out.tsv");
    let o = topitop(&[
        "export",
        "--db",
        db.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains("No space left on device") && e.contains("out.tsv"),
        "{e}"
    );
    let o = topitop(&["solve", "--budget", "2/2/2/2", "--out", disk.0.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("free space"), "{}", stderr(&o));
    assert!(!stdout(&o).contains("solved"), "refused before any work");
    assert_eq!(listing(&disk.0), Vec::<String>::new(), "nothing left behind");
}
