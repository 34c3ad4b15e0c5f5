//! `topitop solve`: one pipeline for every game's solver. The shared part
//! estimates and refuses what the machine cannot hold, claims the output
//! (directory, lock, stale temporaries), keeps checkpoints, times the
//! solve, writes each database and reports; a game's [`Solver`] does the
//! solving and writing: the framework's loop-free tier solver
//! ([`TierSolver`]) for any game behind the tiered interface, or a
//! game's own.

use std::borrow::Cow;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use topitop_db::tier_checkpoint::TierCheckpoints;
use topitop_db::tiered::{write_tiered_from, TieredMeta};
use topitop_db::DbError;
use topitop_game_api::{GameOption, Record, Tiered};
use topitop_solver::loop_free::{solve_loop_free_kept, LoopFreeSolution, TierStore};
use topitop_solver::usage::cpu_time;

use crate::common::init_threads;
use crate::options::GameArgs;
use crate::progress::CountBar;
use crate::solve_lock::{create_out_dir, SolveLock};

mod parts;

/// The checkpoints of a solve, kept from the end of its grace on: the
/// store of every solver, the framework's and a game's own.
pub struct Kept {
    /// The checkpoint directory.
    files: TierCheckpoints,
    /// When keeping starts; `None` for a grace longer than the clock can
    /// count, which keeps nothing.
    from: Option<Instant>,
    /// Parts taken from earlier runs so far.
    resumed: usize,
    /// Tiers kept in several parts (a distributed solve's), by name: each
    /// part's name and records, in order.
    split: std::collections::HashMap<String, Vec<(String, u64)>>,
}

impl Kept {
    /// The checkpoints beside the database `path` of the solve `made_from`,
    /// kept from `grace_secs` seconds on; no level file whose parts add up
    /// to more than `memory` (what the solve needs) is decompressed.
    ///
    /// # Errors
    /// A checkpoint directory of another solve, or one that cannot be read.
    pub fn open(
        path: &std::path::Path,
        made_from: &str,
        grace_secs: u64,
        memory: u64,
    ) -> anyhow::Result<Kept> {
        Ok(Kept {
            files: TierCheckpoints::open(path.with_extension("ckpt"), made_from)?.at_most(memory),
            from: Instant::now().checked_add(Duration::from_secs(grace_secs)),
            resumed: 0,
            split: Default::default(),
        })
    }

    /// The checkpoints beside the database `path` of the solve `made_from`
    /// that another process of a distributed solve opened and made
    /// ([`Kept::make`]), to keep parts beside it from the start; `memory`
    /// as for [`Kept::open`].
    ///
    /// # Errors
    /// A checkpoint directory of another solve, or one that cannot be read.
    pub fn join(path: &std::path::Path, made_from: &str, memory: u64) -> anyhow::Result<Kept> {
        Ok(Kept {
            files: TierCheckpoints::join(path.with_extension("ckpt"), made_from)?.at_most(memory),
            from: Some(Instant::now()),
            resumed: 0,
            split: Default::default(),
        })
    }

    /// Makes the checkpoint directory now, for other processes to join,
    /// and keeps everything from now on.
    ///
    /// # Errors
    /// It could not be made.
    pub fn make(&mut self) -> anyhow::Result<()> {
        self.from = Some(Instant::now());
        self.files
            .make()
            .map_err(|e| anyhow::anyhow!("cannot make the checkpoint directory: {e}"))
    }

    /// Keeps `records` as part `name` at once, and waits until the file is
    /// synced and in place, where other processes find it.
    ///
    /// # Errors
    /// It could not be written.
    pub fn keep_now(&mut self, name: &str, records: &[Record]) -> std::io::Result<()> {
        self.files.save(name, records)?;
        self.files.flush()
    }

    /// [`Kept::keep_now`] for a part in a solver's own form.
    ///
    /// # Errors
    /// It could not be written.
    pub fn keep_bytes_now(&mut self, name: &str, bytes: &[u8]) -> std::io::Result<()> {
        self.files.save_bytes(name, bytes)?;
        self.files.flush()
    }

    /// The `len` bytes of part `name`, kept by this solve or another
    /// process of it.
    ///
    /// # Errors
    /// The part is missing, damaged, or not `len` bytes long.
    pub fn reread_bytes(&mut self, name: &str, len: u64) -> std::io::Result<Vec<u8>> {
        self.files.reread_bytes(name, len)
    }

    /// Whether part `name` of `len` bytes is kept whole from an earlier
    /// run (read and checked; a damaged file is said and set aside).
    pub fn has_whole(&mut self, name: &str, len: u64) -> bool {
        self.files.holds(name) && self.load_with(|f| f.load_bytes(name, len)).is_some()
    }

    /// Says that the tier `name` is kept as the `parts` given (each
    /// part's name and records, in order), so that
    /// [`TierStore::reread`] reads them one after another.
    pub fn split(&mut self, name: String, parts: Vec<(String, u64)>) {
        self.split.insert(name, parts);
    }

    /// What `read` finds among the checkpoints, each file it set aside
    /// (damaged, done again) said on standard error.
    pub fn load_with<T>(&mut self, read: impl FnOnce(&mut TierCheckpoints) -> Option<T>) -> Option<T> {
        let found = read(&mut self.files);
        self.resumed += usize::from(found.is_some());
        for w in self.files.warnings() {
            eprintln!("topitop: warning: {w}");
        }
        found
    }

    /// Runs `write` on the checkpoints once the grace is over; before
    /// then nothing is kept, so a short solve leaves no files behind.
    ///
    /// # Errors
    /// Those of `write`.
    pub fn save_with(
        &mut self,
        write: impl FnOnce(&mut TierCheckpoints) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        if self.due() {
            write(&mut self.files)
        } else {
            Ok(())
        }
    }

    /// Whether the grace is over, so that what is finished is kept.
    pub fn due(&self) -> bool {
        self.from.is_some_and(|from| Instant::now() >= from)
    }

    /// Waits for the last file kept to be synced in place.
    ///
    /// # Errors
    /// It could not be.
    pub fn flush(&mut self) -> std::io::Result<()> {
        self.files.flush()
    }

    /// Removes the checkpoints once the database `db` is in place.
    ///
    /// # Errors
    /// The checkpoints cannot be removed.
    pub fn finish(self, db: &std::path::Path) -> anyhow::Result<()> {
        self.files.remove().map_err(|e| {
            anyhow::anyhow!(
                "cannot remove the checkpoints after writing {}: {e}",
                db.display()
            )
        })
    }
}

impl TierStore for Kept {
    fn load(&mut self, name: &str, size: u64) -> Option<Vec<Record>> {
        self.load_with(|files| files.load(name, size))
    }

    fn save(&mut self, name: &str, records: &[Record]) -> std::io::Result<bool> {
        let due = self.due();
        self.save_with(|files| files.save(name, records))?;
        Ok(due)
    }

    fn reread(&mut self, name: &str, size: u64) -> std::io::Result<Vec<Record>> {
        let Some(parts) = self.split.get(name) else {
            return self.files.reread(name, size);
        };
        let mut records = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
        for (part, n) in parts.clone() {
            records.extend(self.files.reread(&part, n)?);
        }
        Ok(records)
    }
}

/// One database a solve writes.
pub struct Target {
    /// Where it goes.
    pub path: PathBuf,
    /// What its solve is made from, as its checkpoints record it: anything
    /// that changes a record, so that checkpoints of another solve, or of
    /// another build of the program, are never resumed.
    pub made_from: String,
}

/// What a solve needs, estimated from counts alone before anything large
/// is made.
pub struct Needs {
    /// Peak memory, in bytes.
    pub memory: u64,
    /// Disk at the peak in the output folder (checkpoints, then the
    /// databases), in bytes.
    pub disk: u64,
    /// The size of the solve in words, for the messages about it, e.g.
    /// "65,040,532 indices in 40 tiers, the largest 8,000,000".
    pub what: String,
}

/// What solving one database found, as `solve` reports it.
pub struct Solved {
    /// The first line: what was solved, "game NAME variant VARIANT
    /// symmetry on" as the tier solver writes it.
    pub what: String,
    /// Positions solved by value: win, lose, tie, draw.
    pub counts: [u64; 4],
    /// Whether one position per symmetry class was solved.
    pub symmetric: bool,
    /// The size of what was solved, e.g. "65040532 indices in 40 tiers".
    pub size: String,
    /// The game's own lines, after the counts by value.
    pub lines: Vec<String>,
    /// The start position and its result, e.g. "... : win in 5".
    pub start: String,
    /// The largest remoteness.
    pub max_remoteness: u16,
    /// Bytes of the database written.
    pub bytes: u64,
}

impl Solved {
    /// Prints the report of the database at `path`: with `time` (how long
    /// the solve took) when it was solved alone.
    fn print(
        &self,
        out: &mut impl Write,
        resumed: usize,
        time: Option<&str>,
        path: &Path,
        replaced: bool,
    ) -> std::io::Result<()> {
        if resumed > 0 {
            writeln!(out, "resumed {resumed} finished parts from checkpoints")?;
        }
        writeln!(out, "{}", self.what)?;
        let c = self.counts;
        writeln!(
            out,
            "solved {} positions{}{} ({})",
            c.iter().sum::<u64>(),
            if self.symmetric {
                " (one per symmetry class)"
            } else {
                ""
            },
            time.unwrap_or(""),
            self.size
        )?;
        writeln!(
            out,
            "by value: {} win, {} lose, {} tie, {} draw",
            c[0], c[1], c[2], c[3]
        )?;
        for l in &self.lines {
            writeln!(out, "{l}")?;
        }
        writeln!(out, "start position {}", self.start)?;
        writeln!(out, "largest remoteness: {}", self.max_remoteness)?;
        writeln!(
            out,
            "wrote {} ({}){}",
            path.display(),
            file_size(self.bytes),
            if replaced {
                ", in place of the database that was there"
            } else {
                ""
            }
        )
    }
}

/// A game's solver behind `solve`: the shared part around it claims the
/// output, keeps the checkpoints and reports.
pub trait Solver {
    /// What messages call this solve: the game and its variant.
    fn title(&self) -> String;

    /// The databases it writes into `out`.
    fn targets(&self, out: &Path) -> Vec<Target>;

    /// What it will need (called once the worker threads are set).
    ///
    /// # Errors
    /// A game too large to solve here at all, said with what it would take.
    fn needs(&mut self) -> anyhow::Result<Needs>;

    /// Solves every target, resuming from and keeping finished parts in
    /// its checkpoints (`kept`, one a target, in the order of
    /// [`Solver::targets`]), with a progress bar.
    ///
    /// # Errors
    /// A checkpoint that cannot be written, or the solver's own.
    fn solve(&mut self, kept: &mut [Kept]) -> anyhow::Result<()>;

    /// Writes the database of target `k` to `path` at zstd `level` (none:
    /// the format's own default), reading what the solve left in its
    /// checkpoints `kept`.
    ///
    /// # Errors
    /// The database cannot be written.
    fn write(&mut self, k: usize, path: &Path, level: Option<i32>, kept: &mut Kept)
        -> anyhow::Result<Solved>;

    /// Its solve split into units that processes solve apart, for a
    /// distributed solve; `None` for a solver that runs in one process
    /// only.
    fn units(&mut self) -> Option<&mut dyn crate::distributed::Units> {
        None
    }
}

/// Runs `solve` with `solver`: refuses what the machine cannot hold, takes
/// every target's lock (all or none), clears what killed writers left,
/// solves with checkpoints, then writes and reports each database. Started
/// by an MPI launcher (`mpirun`, `srun`) in a build with MPI, the processes
/// share the solve instead ([`crate::distributed`]).
///
/// # Errors
/// Those of the solver, an output that cannot be claimed or written, or a
/// solve the machine cannot hold.
pub fn run_solver(solver: &mut dyn Solver, args: &Args) -> anyhow::Result<()> {
    match crate::distributed::launched(solver, args) {
        Some(outcome) => outcome,
        None => run_alone(solver, args),
    }
}

/// [`run_solver`] in this process alone.
///
/// # Errors
/// As [`run_solver`].
pub fn run_alone(solver: &mut dyn Solver, args: &Args) -> anyhow::Result<()> {
    init_threads(args.threads)?;
    let needs = solver.needs()?;
    check_memory(&solver.title(), &needs, args.ignore_memory_estimate)?;
    let mut claim = Claim::take(solver, args, &needs)?;
    let clock = Clock::start();
    solver.solve(&mut claim.kept)?;
    claim.write(solver, args, &clock)
}

/// When a solve started, on the wall clock and in CPU time.
pub struct Clock {
    start: Instant,
    cpu: Option<Duration>,
    /// CPU time other processes of the solve spent on it.
    others: Duration,
}

impl Clock {
    /// Now.
    pub fn start() -> Clock {
        Clock {
            start: Instant::now(),
            cpu: cpu_time(),
            others: Duration::ZERO,
        }
    }

    /// Counts `cpu`, the CPU time another process of the solve spent.
    pub fn add_cpu(&mut self, cpu: Duration) {
        self.others += cpu;
    }
}

/// What a solve holds while it runs: its databases, their locks and
/// their checkpoints.
pub struct Claim {
    targets: Vec<Target>,
    /// For each target, whether a database was there already: solving
    /// again replaces it, and says so.
    existed: Vec<bool>,
    locks: Vec<SolveLock>,
    /// The checkpoints, one store a target.
    pub kept: Vec<Kept>,
}

impl Claim {
    /// Claims `solver`'s output in `args.out`: the folder made, room for
    /// the disk it `needs` checked, every target's lock taken (all or
    /// none), and what killed writers left cleared.
    ///
    /// # Errors
    /// The output cannot be claimed: a directory in a database's place,
    /// too little disk, another solve holding a lock.
    pub fn take(solver: &dyn Solver, args: &Args, needs: &Needs) -> anyhow::Result<Claim> {
        create_out_dir(&args.out)?;
        let targets = solver.targets(&args.out);
        if let Some(t) = targets.iter().find(|t| t.path.is_dir()) {
            anyhow::bail!(
                "{} is a directory: solve writes its database there; remove it or choose another --out",
                t.path.display()
            );
        }
        topitop_files::ensure_space(
            &args.out,
            needs.disk,
            "this solve (checkpoints, then the database)",
        )?;
        let mut locks = Vec::with_capacity(targets.len());
        for t in &targets {
            match SolveLock::take(&t.path) {
                Ok(lock) => locks.push(lock),
                Err(e) => {
                    locks.into_iter().for_each(SolveLock::release);
                    return Err(e);
                }
            }
        }
        let existed: Vec<bool> = targets.iter().map(|t| t.path.is_file()).collect();
        for t in targets.iter().zip(&existed).filter(|(_, &e)| e).map(|(t, _)| t) {
            eprintln!(
                "topitop: {} is there already: solving again replaces it when done (Ctrl-C keeps it)",
                t.path.display()
            );
        }
        let kept = targets
            .iter()
            .map(|t| {
                topitop_db::remove_stale_temps(&t.path)?;
                Kept::open(&t.path, &t.made_from, args.checkpoint_after, needs.memory)
            })
            .collect::<anyhow::Result<Vec<Kept>>>()?;
        Ok(Claim {
            targets,
            existed,
            locks,
            kept,
        })
    }

    /// Writes and reports every database once `solver` has solved them,
    /// with the time since `clock`, then lets go of each one's
    /// checkpoints and lock.
    ///
    /// # Errors
    /// A database or report that cannot be written.
    pub fn write(self, solver: &mut dyn Solver, args: &Args, clock: &Clock) -> anyhow::Result<()> {
        let secs = clock.start.elapsed().as_secs_f64();
        let cpu = clock
            .cpu
            .zip(cpu_time())
            .map(|(a, b)| (b.saturating_sub(a) + clock.others).as_secs_f64());
        let time = format!(
            " in {secs:.1} s{}",
            cpu.map_or(String::new(), |c| format!(", {c:.1} CPU-s"))
        );
        let Claim {
            targets,
            existed,
            locks,
            kept,
        } = self;
        let several = targets.len() > 1;
        let mut positions = 0;
        let mut out = std::io::stdout().lock();
        for (k, (((target, mut kept), lock), replaced)) in
            targets.iter().zip(kept).zip(locks).zip(existed).enumerate()
        {
            let solved = solver.write(k, &target.path, args.zstd_level, &mut kept)?;
            let resumed = kept.resumed;
            // The database is in place: what it was made from goes before
            // anything is printed, so a closed standard output leaves nothing.
            kept.finish(&target.path)?;
            lock.release();
            positions += solved.counts.iter().sum::<u64>();
            solved.print(
                &mut out,
                resumed,
                (!several).then_some(&time),
                &target.path,
                replaced,
            )?;
            if several {
                writeln!(out)?;
            }
        }
        if several {
            writeln!(
                out,
                "solved {} databases together{time} ({:.1} M positions/s)",
                targets.len(),
                positions as f64 / secs / 1e6
            )?;
        }
        out.flush()?;
        Ok(())
    }
}

/// Refuses a solve whose estimated peak memory is beyond what the machine
/// has free (unless `ignore`), and states the estimate before it starts.
///
/// # Errors
/// The estimate exceeds the memory available.
pub(crate) fn check_memory(title: &str, needs: &Needs, ignore: bool) -> anyhow::Result<()> {
    if let Some(avail) = crate::common::available_memory().filter(|&a| needs.memory > a) {
        anyhow::ensure!(
            ignore,
            "solving {title} needs about {} of memory ({}), but only {} is available; solve a smaller variant, or pass --ignore-memory-estimate to try anyway",
            human_bytes(needs.memory),
            needs.what,
            human_bytes(avail)
        );
    }
    eprintln!(
        "solving {title}: {}; estimated peak: {} of memory, {} of disk",
        needs.what,
        human_bytes(needs.memory),
        human_bytes(needs.disk)
    );
    Ok(())
}

/// A file's size to three figures or so: `812 bytes`, `49.9 kB`,
/// `7.3 MB`, `1.25 GB` (a small database is not "0.0 MB").
pub fn file_size(bytes: u64) -> String {
    let b = bytes as f64;
    if b >= 1e9 {
        format!("{:.2} GB", b / 1e9)
    } else if b >= 1e6 {
        format!("{:.1} MB", b / 1e6)
    } else if b >= 1e3 {
        format!("{:.1} kB", b / 1e3)
    } else {
        format!("{bytes} bytes")
    }
}

/// `bytes` in kB, MB or GB, as a person reads a size.
pub(crate) fn human_bytes(bytes: u64) -> String {
    let b = bytes as f64;
    if b >= 1e9 {
        format!("{:.1} GB", b / 1e9)
    } else if b >= 1e6 {
        format!("{:.0} MB", b / 1e6)
    } else {
        format!("{:.0} kB", (b / 1e3).max(1.0))
    }
}

/// "on" or "off", as `solve` reports symmetry.
pub fn on_off(symmetric: bool) -> &'static str {
    if symmetric {
        "on"
    } else {
        "off"
    }
}

/// A tuning of the process's allocator that the program (which alone may
/// call the C library) sets up for the tier solver, run as it starts: its
/// working arrays are made and freed tier after tier, which the C
/// library's defaults keep resident. Other solvers keep the defaults.
pub static TIER_SOLVER_HEAP: std::sync::OnceLock<fn()> = std::sync::OnceLock::new();

/// The framework's loop-free tier solver, for any game behind the tiered
/// interface.
pub struct TierSolver<G: Tiered> {
    game: G,
    symmetric: bool,
    /// Whether finished tiers go to the checkpoints (after the grace) and
    /// leave memory, rather than staying packed in memory to the end.
    spills: bool,
    solution: Option<LoopFreeSolution<G::Tier>>,
    /// Its units, once split for a distributed solve.
    split: Option<parts::Split<G::Tier>>,
}

impl<G: Tiered> TierSolver<G> {
    /// The solve of `game` that `args` asks for.
    ///
    /// # Errors
    /// A game whose positions cannot be indexed.
    pub fn new(game: G, args: &Args) -> anyhow::Result<TierSolver<G>> {
        anyhow::ensure!(
            !game.tiers().is_empty(),
            "{} {} is too large to solve strongly here (its positions cannot be indexed); play and query it without a database",
            game.name(),
            game.variant()
        );
        // A game without symmetries has nothing to leave out.
        let symmetric = game.has_symmetries() && !args.rules.options.has(NO_SYMMETRY.name);
        Ok(TierSolver {
            game,
            symmetric,
            spills: Instant::now()
                .checked_add(Duration::from_secs(args.checkpoint_after))
                .is_some(),
            solution: None,
            split: None,
        })
    }
}

impl<G: Tiered> Solver for TierSolver<G> {
    fn title(&self) -> String {
        format!("{} {}", self.game.name(), self.game.variant())
    }

    fn targets(&self, out: &Path) -> Vec<Target> {
        let game = &self.game;
        vec![Target {
            path: super::db_path(game, out),
            made_from: format!(
                "game {}; variant {}; symmetry {}; program topitop {}",
                game.name(),
                game.variant(),
                on_off(self.symmetric),
                crate::VERSION
            ),
        }]
    }

    fn needs(&mut self) -> anyhow::Result<Needs> {
        let n = topitop_solver::estimate::estimate(&self.game, self.symmetric, !self.spills);
        Ok(Needs {
            memory: n.memory,
            // The compressed database takes well under half a byte an
            // index, and so do the checkpoints, which are there with it
            // until it is written: a bound, not an estimate.
            disk: n.indices + (2 << 20),
            what: format!(
                "{} indices in {} tiers, the largest {}",
                n.indices, n.tiers, n.largest
            ),
        })
    }

    fn solve(&mut self, kept: &mut [Kept]) -> anyhow::Result<()> {
        let [kept] = kept else {
            anyhow::bail!("one database, so one checkpoint store");
        };
        if let Some(tune) = TIER_SOLVER_HEAP.get() {
            tune();
        }
        // By indices, not tiers: Topple's tiers range from a handful of
        // indices to tens of millions, so a count of tiers makes a poor
        // estimate of the time left.
        let bar = CountBar::new(&format!("solving {}", self.title()), "indices");
        let (solution, _) = solve_loop_free_kept(&self.game, self.symmetric, kept, |d, t| bar.set(d, t))?;
        bar.finish();
        self.solution = Some(solution);
        Ok(())
    }

    fn units(&mut self) -> Option<&mut dyn crate::distributed::Units> {
        Some(self)
    }

    fn write(
        &mut self,
        _: usize,
        path: &Path,
        level: Option<i32>,
        kept: &mut Kept,
    ) -> anyhow::Result<Solved> {
        let level = level.unwrap_or(topitop_db::tiered::DEFAULT_LEVEL);
        let game = &self.game;
        let solution = self
            .solution
            .take()
            .ok_or_else(|| anyhow::anyhow!("nothing solved to write"))?;
        let tiers = solution.tiers();
        let names: Vec<String> = tiers.iter().map(|&t| game.tier_name(t)).collect();
        let program = format!("topitop {}", crate::VERSION);
        // Tier by tier: packed tiers are unpacked, and tiers left on disk
        // read back, one at a time.
        let (header, bytes) = write_tiered_from(
            path,
            &TieredMeta {
                game: game.name(),
                variant: &game.variant(),
                program: &program,
                symmetric: self.symmetric,
                level,
            },
            &names,
            |i| {
                solution
                    .tier_kept(game, tiers[i], kept)
                    .map(|r| Cow::Owned(r.unwrap_or_default()))
                    .map_err(|e| DbError::corrupt("solved tier", e.to_string()))
            },
        )?;
        let start = game.start();
        let start_record = solution.get_kept(game, &start, kept)?;
        Ok(Solved {
            what: format!(
                "game {} variant {} symmetry {}",
                game.name(),
                game.variant(),
                on_off(self.symmetric)
            ),
            counts: header.counts,
            symmetric: self.symmetric,
            size: format!(
                "{} indices in {} tiers",
                header.tiers.iter().map(|t| t.size).sum::<u64>(),
                tiers.len()
            ),
            lines: Vec::new(),
            start: format!("{}: {}", game.format_position(&start), start_record),
            max_remoteness: header.max_remoteness,
            bytes,
        })
    }
}

/// Runs `solve` on `game` with the framework's loop-free tier solver.
///
/// # Errors
/// A game too large to index, options it refuses, a failed write.
pub fn run<G: Tiered>(game: G, args: Args) -> anyhow::Result<()> {
    run_solver(&mut TierSolver::new(game, &args)?, &args)
}

/// `solve --no-symmetry`, a flag of every game whose solver can solve
/// without its symmetries.
pub const NO_SYMMETRY: GameOption = GameOption::flag(
    "no-symmetry",
    "solve every position instead of one per symmetry class (for checking)",
    &["solve"],
);

/// Arguments of `solve`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game and its options.
    #[command(flatten)]
    pub rules: GameArgs,
    /// Directory for the database (created if missing); the file is named
    /// by the game and its options, e.g. data/topolo_3x4.db.
    #[arg(long, default_value = "data", value_name = "DIR")]
    pub out: PathBuf,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// zstd level of the database blocks, 1-22 (default: the format's
    /// own, chosen for size against the time to write and to probe: 9 for
    /// Topitop's and for records, 3 for values alone, whose small blocks
    /// a probe decodes often); higher is smaller and slower to write.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(i32).range(1..=22))]
    pub zstd_level: Option<i32>,
    /// Write no checkpoint during the first SECS seconds of solving: a solve
    /// that ends sooner leaves none behind, and from then on what the
    /// solver finishes (a tier, a level of tiers) is kept as it finishes.
    /// 0 keeps everything from the start. The tier solver reads finished
    /// tiers back from there, so what it finishes in the grace stays in
    /// memory (packed) to the end.
    #[arg(long, default_value_t = 10, value_name = "SECS")]
    pub checkpoint_after: u64,
    /// Indices of a loop-free tier one process solves at a time when
    /// several share the solve (under `mpirun` or `srun`, in a build with
    /// MPI): smaller parts spread a large tier over more processes, and
    /// each needs less memory.
    #[arg(long, default_value_t = crate::distributed::DEFAULT_PART_SIZE, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub part_size: u64,
    /// Solve even if the estimated memory exceeds what the machine has
    /// available.
    #[arg(long)]
    pub ignore_memory_estimate: bool,
}

#[cfg(test)]
mod tests {
    use super::file_size;

    #[test]
    fn sizes_read_as_a_person_reads_them() {
        assert_eq!(file_size(812), "812 bytes");
        assert_eq!(file_size(49_923), "49.9 kB");
        assert_eq!(file_size(7_276_719), "7.3 MB");
        assert_eq!(file_size(1_254_000_000), "1.25 GB");
    }
}
