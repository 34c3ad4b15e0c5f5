//! `topitop solve --game NAME`: the framework's loop-free tier solver, and
//! the game's database.

use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use topitop_db::tier_checkpoint::TierCheckpoints;
use topitop_db::tiered::{write_tiered, TieredMeta};
use topitop_game_api::{GameOption, Record, Tiered};
use topitop_solver::loop_free::{solve_loop_free_kept, TierStore};
use topitop_solver::usage::cpu_time;

use crate::common::init_threads;
use crate::options::GameArgs;
use crate::progress::CountBar;
use crate::solve_lock::{create_out_dir, SolveLock};

/// The checkpoints of a solve, kept from the end of its grace on: the
/// store of every game's tier solver and of Topolo's own.
pub struct Kept {
    /// The checkpoint directory.
    files: TierCheckpoints,
    /// When keeping starts; `None` for a grace longer than the clock can
    /// count, which keeps nothing.
    from: Option<Instant>,
}

impl Kept {
    /// The checkpoints beside the database `path` of the solve `made_from`,
    /// kept from `grace_secs` seconds on.
    ///
    /// # Errors
    /// A checkpoint directory of another solve, or one that cannot be read.
    pub fn open(path: &std::path::Path, made_from: &str, grace_secs: u64) -> anyhow::Result<Kept> {
        Ok(Kept {
            files: TierCheckpoints::open(path.with_extension("ckpt"), made_from)?,
            from: Instant::now().checked_add(Duration::from_secs(grace_secs)),
        })
    }

    /// What `read` finds among the checkpoints, each file it set aside
    /// (damaged, done again) said on standard error.
    pub fn load_with<T>(&mut self, read: impl FnOnce(&mut TierCheckpoints) -> Option<T>) -> Option<T> {
        let found = read(&mut self.files);
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
        if self.from.is_some_and(|from| Instant::now() >= from) {
            write(&mut self.files)
        } else {
            Ok(())
        }
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

    fn save(&mut self, name: &str, records: &[Record]) -> std::io::Result<()> {
        self.save_with(|files| files.save(name, records))
    }
}

/// What a solve of `game` is made from, as its checkpoints record it:
/// anything that changes a record.
fn made_from<G: Tiered>(game: &G, symmetric: bool) -> String {
    format!(
        "game {}; variant {}; symmetry {}; program topitop {}",
        game.name(),
        game.variant(),
        if symmetric { "on" } else { "off" },
        crate::VERSION
    )
}

/// Runs `solve` on `game`: the framework's loop-free tier solver, with
/// checkpoints, then the database.
///
/// # Errors
/// A game too large to index, options it refuses, a failed write.
pub fn run<G: Tiered>(game: G, args: Args) -> anyhow::Result<()> {
    init_threads(args.threads)?;
    let symmetric = !args.rules.options.has(NO_SYMMETRY.name);
    anyhow::ensure!(
        !game.tiers().is_empty(),
        "{} {} is too large to solve strongly here (its positions cannot be indexed); play and query it without a database",
        game.name(),
        game.variant()
    );
    create_out_dir(&args.out)?;
    let path = super::db_path(&game, &args.out);
    anyhow::ensure!(
        !path.is_dir(),
        "{} is a directory: solve writes its database there; remove it or choose another --out",
        path.display()
    );
    let needs = topitop_solver::estimate::estimate(&game);
    let slots = needs.indices;
    check_memory(&game, &needs, args.ignore_memory_estimate)?;
    // The compressed database takes well under half a byte an index
    // (1.9 MB for the 65 M indices of 3x4), and so do the checkpoints,
    // which are there with it until it is written: a bound, not an
    // estimate.
    topitop_files::ensure_space(
        &args.out,
        slots + (2 << 20),
        "this solve (checkpoints, then the database)",
    )?;
    let lock = SolveLock::take(&path)?;
    topitop_db::remove_stale_temps(&path)?;
    let start = Instant::now();
    let mut kept = Kept::open(&path, &made_from(&game, symmetric), args.checkpoint_after)?;
    let cpu_start = cpu_time();
    let bar = CountBar::new(&format!("solving {} {}", game.name(), game.variant()), "tiers");
    let (solution, resumed) =
        solve_loop_free_kept(&game, symmetric, &mut kept, |d, t| bar.set(d as u64, t as u64))?;
    bar.finish();
    let secs = start.elapsed().as_secs_f64();
    let cpu = cpu_start
        .zip(cpu_time())
        .map(|(a, b)| b.saturating_sub(a).as_secs_f64());
    let tiers: Vec<(String, &[Record])> = solution
        .tiers()
        .into_iter()
        .map(|t| (game.tier_name(t), solution.tier(t).unwrap_or(&[])))
        .collect();
    let program = format!("topitop {}", crate::VERSION);
    let (header, bytes) = write_tiered(
        &path,
        &TieredMeta {
            game: game.name(),
            variant: &game.variant(),
            program: &program,
            symmetric,
            level: args.zstd_level,
        },
        &tiers,
    )?;
    // The database is in place: what it was made from goes before
    // anything is printed, so a closed standard output leaves nothing.
    kept.finish(&path)?;
    lock.release();
    let mut out = std::io::stdout().lock();
    if resumed > 0 {
        writeln!(out, "resumed {resumed} finished tiers from checkpoints")?;
    }
    let c = header.counts;
    let solved: u64 = c.iter().sum();
    writeln!(
        out,
        "game {} variant {} symmetry {}",
        game.name(),
        game.variant(),
        if symmetric { "on" } else { "off" }
    )?;
    writeln!(
        out,
        "solved {solved} positions{} in {secs:.1} s{} ({slots} indices in {} tiers)",
        if symmetric {
            " (one per symmetry class)"
        } else {
            ""
        },
        cpu.map_or(String::new(), |c| format!(", {c:.1} CPU-s")),
        tiers.len()
    )?;
    writeln!(
        out,
        "by value: {} win, {} lose, {} tie, {} draw",
        c[0], c[1], c[2], c[3]
    )?;
    let start_rec = solution.get(&game, &game.start());
    writeln!(
        out,
        "start position {}: {start_rec}",
        game.format_position(&game.start())
    )?;
    writeln!(out, "largest remoteness: {}", header.max_remoteness)?;
    writeln!(out, "wrote {} ({:.1} MB)", path.display(), bytes as f64 / 1e6)?;
    Ok(())
}

/// Refuses a solve whose estimated peak memory is beyond what the machine
/// has free (unless `ignore`), and says what a large one takes on before
/// it starts.
///
/// # Errors
/// The estimate exceeds the memory available.
fn check_memory<G: Tiered>(
    game: &G,
    needs: &topitop_solver::estimate::Needs,
    ignore: bool,
) -> anyhow::Result<()> {
    let gb = |b: u64| b as f64 / 1e9;
    let what = format!(
        "{} indices in {} tiers, the largest {}",
        needs.indices, needs.tiers, needs.largest
    );
    if let Some(avail) = crate::common::available_memory().filter(|&a| needs.memory > a) {
        if !ignore {
            anyhow::bail!(
                "solving {} {} needs about {:.1} GB of memory ({what}), but only {:.1} GB is available; solve a smaller variant, or pass --ignore-memory-estimate to try anyway",
                game.name(),
                game.variant(),
                gb(needs.memory),
                gb(avail)
            );
        }
    }
    if needs.memory >= 1 << 30 || ignore {
        eprintln!(
            "solving {} {}: {what}; about {:.1} GB of memory at the peak",
            game.name(),
            game.variant(),
            gb(needs.memory)
        );
    }
    Ok(())
}

/// `solve --no-symmetry`, a flag of every game whose solver can solve
/// without its symmetries.
pub const NO_SYMMETRY: GameOption = GameOption::flag(
    "no-symmetry",
    "solve every position instead of one per symmetry class (for checking)",
    &["solve"],
);

/// zstd's own default level, which every game's database writer takes
/// unless told otherwise.
pub const DEFAULT_ZSTD_LEVEL: i32 = 3;

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
    /// zstd level of the database blocks, 1-22: the default (zstd's own)
    /// writes the standard database in well under a second; 19 makes it
    /// about an eighth smaller and takes seconds more.
    #[arg(long, default_value_t = DEFAULT_ZSTD_LEVEL, value_name = "N",
          value_parser = clap::value_parser!(i32).range(1..=22))]
    pub zstd_level: i32,
    /// Write no checkpoint during the first SECS seconds of solving: a solve
    /// that ends sooner leaves none behind, and from then on every level is
    /// kept as it finishes (with those finished before). 0 keeps every
    /// level from the start.
    #[arg(long, default_value_t = 10, value_name = "SECS")]
    pub checkpoint_after: u64,
    /// Solve even if the estimated memory exceeds what the machine has
    /// available.
    #[arg(long)]
    pub ignore_memory_estimate: bool,
}
