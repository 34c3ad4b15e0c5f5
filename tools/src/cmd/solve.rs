//! `topitop solve`: solve every position and write the result.

use std::fs::{File, TryLockError};
use std::path::{Path, PathBuf};
use std::time::Instant;

use topitop_db::CheckpointDir;
use topitop_game::Budget;
use topitop_solver::usage::cpu_time;
use topitop_solver::{estimate_memory, solve_resumable, SolveOptions};

use crate::common::RulesArgs;
use crate::progress::CountBar;
use crate::progress::TierBar;

/// Arguments of `solve`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Directory for the database (created if missing); the file is named
    /// by the rules, e.g. data/topitop_v1_0.db.
    #[arg(long, default_value = "data", value_name = "DIR")]
    pub out: PathBuf,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Solve every position instead of one per symmetry class (for checking).
    #[arg(long)]
    pub no_symmetry: bool,
    /// zstd level of the database blocks, 1-22: the default writes in about
    /// a second; 19 makes the standard database about a fifth smaller.
    #[arg(long, default_value_t = topitop_db::WriteOptions::default().level, value_name = "N",
          value_parser = clap::value_parser!(i32).range(1..=22))]
    pub zstd_level: i32,
    /// Solve even if the estimated memory exceeds what the machine has
    /// available.
    #[arg(long)]
    pub ignore_memory_estimate: bool,
}

/// Runs `solve`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let rules = args.rules.rules()?;
    crate::common::init_threads(args.threads)?;
    let symmetric = !args.no_symmetry;
    check_memory(rules.budget(), symmetric, args.ignore_memory_estimate)?;
    std::fs::create_dir_all(&args.out)
        .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", args.out.display()))?;
    let final_path = topitop_db::path_in(&args.out, rules);
    anyhow::ensure!(
        !final_path.is_dir(),
        "{} is a directory: solve writes its database there; remove it or choose another --out",
        final_path.display()
    );
    let lock = SolveLock::take(&final_path)?;
    topitop_db::remove_stale_temps(&final_path)?;
    let start = Instant::now();
    let cpu_start = cpu_time();
    let mut bar = TierBar::new("solving");
    let mut checkpoints = CheckpointDir::open(final_path.with_extension("ckpt"), symmetric)?;
    let solution = solve_resumable(rules, SolveOptions { symmetric }, &mut checkpoints, |p| {
        bar.update(p)
    })
    .map_err(|e| anyhow::anyhow!("cannot write a checkpoint under {}: {e}", args.out.display()))?;
    bar.finish();
    let secs = start.elapsed().as_secs_f64();
    let cpu = cpu_start
        .zip(cpu_time())
        .map(|(a, b)| b.saturating_sub(a).as_secs_f64());
    let bar = CountBar::new("writing", "blocks");
    let written = topitop_db::write(
        &final_path,
        &solution,
        &topitop_db::WriteOptions {
            level: args.zstd_level,
            ..topitop_db::WriteOptions::default()
        },
        |d, t| bar.set(d, t),
    )?;
    bar.finish();
    let path = final_path;
    if checkpoints.resumed() > 0 {
        println!(
            "resumed {} finished tiers from checkpoints",
            checkpoints.resumed()
        );
    }
    checkpoints.remove().map_err(|e| {
        anyhow::anyhow!(
            "cannot remove the checkpoints after writing {}: {e}",
            path.display()
        )
    })?;
    lock.release();
    // The counts are of positions of play, as `stats` and `export` count
    // them; the other stored states are named apart.
    let all = solution.counts();
    let unplayable = solution.unplayable_counts();
    let counts: [u64; 4] = std::array::from_fn(|k| all[k] - unplayable[k]);
    let solved: u64 = counts.iter().sum();
    let start_rec = solution.get(rules.start()).expect("the start is indexable");
    println!(
        "rules {} budget {} symmetry {}",
        rules.ruleset(),
        rules.budget(),
        !args.no_symmetry
    );
    println!(
        "solved {solved} positions{} in {secs:.1} s{} ({:.1} M positions/s)",
        if symmetric {
            " (one per symmetry class)"
        } else {
            ""
        },
        cpu.map_or(String::new(), |c| format!(", {c:.1} CPU-s")),
        solved as f64 / secs / 1e6
    );
    println!(
        "by value: {} win, {} lose, {} tie, {} draw",
        counts[0], counts[1], counts[2], counts[3]
    );
    println!(
        "also solved {} states play cannot reach (GamesmanClassic's hash has them; query refuses them)",
        unplayable.iter().sum::<u64>()
    );
    println!("start position {}: {start_rec}", rules.start());
    println!("largest remoteness: {}", solution.largest_remoteness());
    println!(
        "wrote {} ({:.1} MB, {} records in {} blocks)",
        path.display(),
        written.bytes as f64 / 1e6,
        written.header.records,
        written.header.blocks
    );
    Ok(())
}

/// Refuses a solve whose estimated peak memory exceeds what the machine
/// has available, unless told to go ahead.
fn check_memory(budget: Budget, symmetric: bool, ignore: bool) -> anyhow::Result<()> {
    let need = estimate_memory(budget, symmetric, rayon::current_num_threads());
    let Some(available) = available_memory() else {
        return Ok(());
    };
    anyhow::ensure!(
        ignore || need <= available,
        "solving budget {budget}{} needs about {:.1} GB of memory, but only {:.1} GB is available; \
         solve a smaller budget, or pass --ignore-memory-estimate to try anyway",
        if symmetric { "" } else { " without symmetry" },
        need as f64 / 1e9,
        available as f64 / 1e9
    );
    Ok(())
}

/// Bytes of memory available to a new process (Linux's MemAvailable), if
/// the system says.
fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// The lock that keeps two solves from writing one database (and its
/// checkpoints) at once: an exclusive lock on `<database>.lock`.
struct SolveLock {
    path: PathBuf,
    _file: File,
}

impl SolveLock {
    /// Takes the lock of the database at `target`.
    fn take(target: &Path) -> anyhow::Result<SolveLock> {
        let mut name = target.file_name().unwrap_or_default().to_os_string();
        name.push(".lock");
        let path = target.with_file_name(name);
        let file = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| anyhow::anyhow!("cannot create the lock file {}: {e}", path.display()))?;
        match file.try_lock() {
            Ok(()) => Ok(SolveLock { path, _file: file }),
            Err(TryLockError::WouldBlock) => anyhow::bail!(
                "another solve is writing {} (it holds {}); wait for it to finish",
                target.display(),
                path.display()
            ),
            Err(TryLockError::Error(e)) => {
                anyhow::bail!("cannot lock {}: {e}", path.display())
            }
        }
    }

    /// Removes the lock file, then lets go of the lock.
    fn release(self) {
        let _ = std::fs::remove_file(&self.path);
    }
}
