//! The distributed solve on loopback: `mpirun -np 3 topitop solve ...`
//! writes the database a single process writes, byte for byte (Topple
//! through the tier solver's whole loopy tiers, the test game through
//! loop-free tiers cut into parts, Topolo through its small games); a worker
//! killed mid-run ends the run, and the rerun resumes from the units kept
//! to the same database; a second run on the same directory is refused.
//! Needs Open MPI (`libopenmpi-dev`, `openmpi-bin`) and the `mpi` and
//! `toy` features: `cargo test -p topitop --features mpi,toy --test it -- mpi::`.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use support::run::{stderr, stdout, temp_dir, topitop};

/// `mpirun` as CI runs it: as root, more processes than cores.
fn mpirun(np: usize, args: &[&str]) -> Command {
    let mut c = Command::new("mpirun");
    c.args(["--allow-run-as-root", "--oversubscribe", "-np", &np.to_string()])
        .arg(env!("CARGO_BIN_EXE_topitop"))
        .args(args);
    c
}

fn run_mpi(np: usize, args: &[&str]) -> Output {
    mpirun(np, args)
        .output()
        .expect("mpirun is installed (Debian: openmpi-bin)")
}

/// The one database file in `dir`.
fn db_in(dir: &Path) -> PathBuf {
    let dbs: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "db"))
        .collect();
    assert_eq!(dbs.len(), 1, "{dbs:?}");
    dbs[0].clone()
}

/// Solves `game` alone and on three processes, and compares the files.
fn same_on_three(name: &str, game: &[&str]) -> String {
    let dir = temp_dir(&format!("mpi-{name}"));
    let (one, three) = (dir.join("one"), dir.join("three"));
    let alone = topitop(&[&["solve", "--out", one.to_str().unwrap()][..], game].concat());
    assert!(alone.status.success(), "{}", stderr(&alone));
    let shared = run_mpi(
        3,
        &[
            &["solve", "--threads", "1", "--out", three.to_str().unwrap()][..],
            game,
        ]
        .concat(),
    );
    let said = format!("{}{}", stdout(&shared), stderr(&shared));
    assert!(shared.status.success(), "{said}");
    assert!(said.contains("on 3 processes"), "{said}");
    let (a, b) = (db_in(&one), db_in(&three));
    assert_eq!(a.file_name(), b.file_name());
    assert!(
        std::fs::read(&a).unwrap() == std::fs::read(&b).unwrap(),
        "{} and {} differ",
        a.display(),
        b.display()
    );
    // Only the database is left: no checkpoints, no lock.
    assert_eq!(std::fs::read_dir(&three).unwrap().count(), 1);
    said
}

/// A game whose solver does not split (Topitop's) is solved by process 0
/// alone, with the `--threads` given: the worker pool is sized once, not
/// refused the second time.
#[test]
fn a_solver_that_does_not_split_runs_on_process_0_with_its_threads() {
    let dir = temp_dir("mpi-alone");
    let (one, two) = (dir.join("one"), dir.join("two"));
    let budget = ["--budget", "2/1/2/2"];
    let alone = topitop(&[&["solve", "--out", one.to_str().unwrap()][..], &budget].concat());
    assert!(alone.status.success(), "{}", stderr(&alone));
    let shared = run_mpi(
        2,
        &[
            &["solve", "--threads", "1", "--out", two.to_str().unwrap()][..],
            &budget,
        ]
        .concat(),
    );
    let said = format!("{}{}", stdout(&shared), stderr(&shared));
    assert!(shared.status.success(), "{said}");
    assert!(said.contains("solved by one process"), "{said}");
    let (a, b) = (db_in(&one), db_in(&two));
    assert_eq!(a.file_name(), b.file_name());
    assert!(std::fs::read(&a).unwrap() == std::fs::read(&b).unwrap());
}

#[test]
fn topple_3x3_s8_on_three_processes_is_the_single_solve() {
    let said = same_on_three(
        "topple",
        &["--game", "topple", "--board", "3x3", "--variant", "s8"],
    );
    assert!(
        said.contains("start position .../.../... r s8 r8 b8: draw"),
        "{said}"
    );
}

#[test]
fn tic_tac_toe_in_parts_of_fifty_on_three_processes_is_the_single_solve() {
    // Its tiers (by pieces placed) are loop-free, up to 756 indices: parts
    // of 50 cut them into many units.
    let said = same_on_three("toy", &["--game", "tictactoe", "--part-size", "50"]);
    assert!(said.contains("start position ---/---/---: tie 9"), "{said}");
}

#[test]
fn topolo_3x4_in_small_units_on_three_processes_is_the_single_solve() {
    // Topolo's own solver: units of its small games (full first classes),
    // here of about a thousand states each.
    let said = same_on_three(
        "topolo",
        &["--game", "topolo", "--board", "3x4", "--part-size", "1000"],
    );
    assert!(said.contains("start position ..../..../....: tie 12"), "{said}");
}

/// A part size beyond the board's (the largest there is) asks for no more
/// memory than the largest unit holds: the run is not refused.
#[test]
fn topolo_with_the_largest_part_size_is_the_single_solve() {
    let said = same_on_three(
        "topolo-whole-parts",
        &[
            "--game",
            "topolo",
            "--board",
            "3x3",
            "--part-size",
            "18446744073709551615",
        ],
    );
    assert!(said.contains("start position .../.../...: win 9"), "{said}");
}

/// The processes whose command line names `dir` and whose MPI rank is
/// `rank`.
fn ranks_named(dir: &Path, rank: usize) -> Vec<u32> {
    let dir = dir.to_str().unwrap();
    let wanted = format!("OMPI_COMM_WORLD_RANK={rank}");
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            let cmd = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            let env = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
            let has = |hay: &[u8], needle: &str| hay.split(|&b| b == 0).any(|w| w == needle.as_bytes());
            has(&cmd, dir) && has(&env, &wanted) && !has(&cmd, "mpirun")
        })
        .collect()
}

/// Level files kept so far in `ckpt`.
fn kept(ckpt: &Path) -> usize {
    std::fs::read_dir(ckpt)
        .map(|d| {
            d.filter_map(Result::ok)
                .filter(|e| e.path().extension().is_some_and(|x| x == "level"))
                .count()
        })
        .unwrap_or(0)
}

fn wait(child: Child) -> Output {
    child.wait_with_output().expect("wait for mpirun")
}

#[test]
fn a_killed_worker_ends_the_run_and_the_rerun_resumes_to_the_same_database() {
    let dir = temp_dir("mpi-kill");
    let (one, three) = (dir.join("one"), dir.join("three"));
    let game = ["--game", "topple", "--board", "3x3", "--variant", "s9"];
    let alone = topitop(&[&["solve", "--out", one.to_str().unwrap()][..], &game].concat());
    assert!(alone.status.success(), "{}", stderr(&alone));
    let args = [
        &["solve", "--threads", "1", "--out", three.to_str().unwrap()][..],
        &game,
    ]
    .concat();
    let child = mpirun(3, &args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("mpirun is installed (Debian: openmpi-bin)");
    // Some units kept, most not: then process 1 is killed.
    let ckpt = three.join("topple_3x3-s9.ckpt");
    let start = Instant::now();
    while kept(&ckpt) < 20 {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no units kept in two minutes"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let victims = ranks_named(&three, 1);
    assert_eq!(victims.len(), 1, "one process of rank 1: {victims:?}");
    let killed = Command::new("kill")
        .args(["-KILL", &victims[0].to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = wait(child);
    assert!(!out.status.success(), "the run goes on without a process");
    let said = stderr(&out);
    assert!(
        said.contains("signal 9"),
        "mpirun says which process died: {said}"
    );
    assert!(!three.join("topple_3x3-s9.db").exists());
    let before = kept(&ckpt);
    assert!(before >= 20, "the units kept stay: {before}");
    // The rerun takes the units kept and solves the rest.
    let again = run_mpi(3, &args);
    let again_said = format!("{}{}", stdout(&again), stderr(&again));
    assert!(again.status.success(), "{again_said}");
    let resumed: usize = again_said
        .lines()
        .find_map(|l| l.strip_prefix("resumed ")?.split(' ').next()?.parse().ok())
        .unwrap_or_else(|| panic!("the rerun resumes: {again_said}"));
    assert!(
        (20..202).contains(&resumed),
        "{resumed} of 202 units resumed: {again_said}"
    );
    assert!(
        std::fs::read(db_in(&one)).unwrap() == std::fs::read(db_in(&three)).unwrap(),
        "the resumed run's database differs from the single solve's"
    );
}

#[test]
fn a_second_run_on_the_same_directory_is_refused() {
    let dir = temp_dir("mpi-twice");
    let out = dir.to_str().unwrap();
    let game = ["--game", "topple", "--board", "3x3", "--variant", "s9"];
    let args = [&["solve", "--threads", "1", "--out", out][..], &game].concat();
    let first = mpirun(2, &args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("mpirun is installed (Debian: openmpi-bin)");
    let start = Instant::now();
    while kept(&dir.join("topple_3x3-s9.ckpt")) < 1 {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "the first run keeps nothing"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let second = run_mpi(2, &args);
    assert!(!second.status.success());
    let said = stderr(&second);
    assert!(said.contains("another solve is writing"), "{said}");
    let first = wait(first);
    assert!(first.status.success(), "{}", stderr(&first));
    assert!(dir.join("topple_3x3-s9.db").exists());
}
