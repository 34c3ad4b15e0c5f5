//! `topitop solve`: solve every position and write the result.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use topitop_rules::{Budget, Rules, Ruleset, Variant};
use topitop_solved::CheckpointDir;
use topitop_solved::{estimate_disk, estimate_memory, solve_together, SolveOptions};
use topitop_solver::usage::cpu_time;
use topitop_table::{Checkpoint, Solution};

use topitop_cli::cmd::solve::Args;

use crate::options::RulesOptions;
use topitop_cli::progress::{CountBar, TierBars, TierDone};
use topitop_cli::solve_lock::{create_out_dir, SolveLock};

/// One database being solved: where it goes, its lock and checkpoints.
struct Target {
    rules: Rules,
    path: PathBuf,
    lock: SolveLock,
    checkpoints: CheckpointDir,
}

impl Target {
    /// Claims the databases of `rules` in `dir`, all or none: refuses a
    /// directory in the place of any before touching anything, then takes
    /// every lock (letting go of those taken if one is held elsewhere),
    /// clears what killed writers left and opens the checkpoints.
    fn claim_all(
        dir: &Path,
        rules: &[Rules],
        symmetric: bool,
        grace: Duration,
    ) -> anyhow::Result<Vec<Target>> {
        let paths: Vec<PathBuf> = rules.iter().map(|&r| topitop_solved::path_in(dir, r)).collect();
        if let Some(path) = paths.iter().find(|p| p.is_dir()) {
            anyhow::bail!(
                "{} is a directory: solve writes its database there; remove it or choose another --out",
                path.display()
            );
        }
        let mut locks = Vec::with_capacity(paths.len());
        for path in &paths {
            match SolveLock::take(path) {
                Ok(lock) => locks.push(lock),
                Err(e) => {
                    locks.into_iter().for_each(SolveLock::release);
                    return Err(e);
                }
            }
        }
        rules
            .iter()
            .zip(paths)
            .zip(locks)
            .map(|((&rules, path), lock)| {
                topitop_db::remove_stale_temps(&path)?;
                let checkpoints =
                    CheckpointDir::open(path.with_extension("ckpt"), &made_from(rules, symmetric))?
                        .with_grace(grace);
                for w in checkpoints.warnings() {
                    eprintln!("topitop: warning: {w}");
                }
                Ok(Target {
                    rules,
                    path,
                    lock,
                    checkpoints,
                })
            })
            .collect()
    }
}

/// What a solve of `rules` is made from, as its checkpoints record it:
/// anything that changes a record. A checkpoint made from anything else is
/// never resumed, so a build of the program with other code (its version
/// and commit) starts afresh rather than trust what another build solved.
fn made_from(rules: Rules, symmetric: bool) -> String {
    format!(
        "game topitop; rules {}; budget {}; symmetry {}; program topitop {}",
        rules.ruleset(),
        rules.budget(),
        if symmetric { "on" } else { "off" },
        topitop_cli::VERSION
    )
}

/// Runs `solve`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let rules: Vec<Rules> = if args.rules.options.has(crate::options::ALL) {
        anyhow::ensure!(
            !args.rules.options.has("rules") && !args.rules.options.has("variant"),
            "--all cannot be used with --rules or --variant: it solves every ruleset of the budget"
        );
        let budget: Budget = args.rules.budget()?;
        Variant::all()
            .map(Ruleset::V1)
            .chain([Ruleset::V0])
            .map(|r| Rules::with_budget(r, budget))
            .collect()
    } else {
        vec![args.rules.rules()?]
    };
    topitop_cli::common::init_threads(args.threads)?;
    let symmetric = !args.rules.options.has(topitop_cli::cmd::solve::NO_SYMMETRY.name);
    let need = check_memory(
        rules[0].budget(),
        symmetric,
        rules.len(),
        args.ignore_memory_estimate,
    )?;
    if need >= LARGE {
        // A solve this size runs for minutes: say so before any of it.
        let states = topitop_rules::StateIndex::new(rules[0].budget()).len();
        eprintln!(
            "solving budget {}{}: {states} states ({}), about {:.1} GB of memory at the peak",
            rules[0].budget(),
            if rules.len() > 1 {
                format!(", {} rulesets together", rules.len())
            } else {
                String::new()
            },
            if symmetric {
                "one of each symmetry class solved"
            } else {
                "all solved"
            },
            need as f64 / 1e9
        );
    }
    create_out_dir(&args.out)?;
    check_space(&args.out, &rules, symmetric)?;
    let grace = Duration::from_secs(args.checkpoint_after);
    let mut targets = Target::claim_all(&args.out, &rules, symmetric, grace)?;
    let start = Instant::now();
    let cpu_start = cpu_time();
    let labels: Vec<String> = rules.iter().map(|r| r.ruleset().to_string()).collect();
    let mut bars = TierBars::new(&labels);
    let mut checkpoints: Vec<&mut dyn Checkpoint> = targets
        .iter_mut()
        .map(|t| &mut t.checkpoints as &mut dyn Checkpoint)
        .collect();
    let solutions = solve_together(&rules, SolveOptions { symmetric }, &mut checkpoints, |k, p| {
        bars.update(
            k,
            TierDone {
                tiers_done: p.tiers_done,
                tiers_total: p.tiers_total,
                solved: p.solved,
                positions_done: p.positions_done,
                positions_total: p.positions_total,
            },
        )
    })
    .map_err(|e| anyhow::anyhow!("cannot write a checkpoint under {}: {e}", args.out.display()))?;
    bars.finish();
    let timing = Timing {
        secs: start.elapsed().as_secs_f64(),
        cpu: cpu_start
            .zip(cpu_time())
            .map(|(a, b)| b.saturating_sub(a).as_secs_f64()),
    };
    let several = rules.len() > 1;
    let mut out = std::io::stdout().lock();
    for (target, solution) in targets.into_iter().zip(&solutions) {
        let bar = CountBar::new(&format!("writing {}", target.rules.ruleset()), "blocks");
        let written = topitop_solved::write(
            &target.path,
            solution,
            &topitop_solved::WriteOptions {
                level: args.zstd_level,
                ..topitop_solved::WriteOptions::default()
            },
            |d, t| bar.set(d, t),
        )?;
        bar.finish();
        let resumed = target.checkpoints.resumed();
        // The database is in place: what it was made from goes before
        // anything is printed, so a closed standard output leaves nothing.
        target.checkpoints.remove().map_err(|e| {
            anyhow::anyhow!(
                "cannot remove the checkpoints after writing {}: {e}",
                target.path.display()
            )
        })?;
        target.lock.release();
        if resumed > 0 {
            writeln!(out, "resumed {resumed} finished tiers from checkpoints")?;
        }
        report(&mut out, solution, &written.header, (!several).then_some(timing))?;
        writeln!(
            out,
            "wrote {} ({:.1} MB, {} records in {} blocks)",
            target.path.display(),
            written.bytes as f64 / 1e6,
            written.header.records,
            written.header.blocks
        )?;
        if several {
            writeln!(out)?;
        }
    }
    if several {
        let positions: u64 = solutions.iter().map(|s| s.index().len()).sum();
        writeln!(
            out,
            "solved {} rulesets together in {:.1} s{} ({:.1} M records/s)",
            rules.len(),
            timing.secs,
            timing.cpu.map_or(String::new(), |c| format!(", {c:.1} CPU-s")),
            positions as f64 / timing.secs / 1e6
        )?;
    }
    out.flush()?;
    Ok(())
}

/// How long solving took.
#[derive(Clone, Copy)]
struct Timing {
    secs: f64,
    /// CPU time of all threads, where the system says.
    cpu: Option<f64>,
}

/// Prints what a solve found, taking the counts by value and the largest
/// remoteness from the `header` its database was written with. The counts
/// are of positions of play, as `stats` and `export` count them; the other
/// stored states are named apart.
fn report(
    out: &mut impl Write,
    solution: &Solution,
    header: &topitop_solved::Header,
    timing: Option<Timing>,
) -> std::io::Result<()> {
    let rules = solution.rules();
    let symmetric = header.symmetric;
    let all = header.counts;
    let unplayable = solution.unplayable_counts();
    let counts: [u64; 4] = std::array::from_fn(|k| all[k] - unplayable[k]);
    let solved: u64 = counts.iter().sum();
    let start_rec = solution.get(rules.start()).expect("the start is indexable");
    writeln!(
        out,
        "rules {} budget {} symmetry {symmetric}",
        rules.ruleset(),
        rules.budget(),
    )?;
    let time = timing.map_or(String::new(), |t| {
        format!(
            " in {:.1} s{} ({:.1} M positions/s)",
            t.secs,
            t.cpu.map_or(String::new(), |c| format!(", {c:.1} CPU-s")),
            solved as f64 / t.secs / 1e6
        )
    });
    writeln!(
        out,
        "solved {solved} positions{}{time}",
        if symmetric {
            " (one per symmetry class)"
        } else {
            ""
        },
    )?;
    writeln!(
        out,
        "by value: {} win, {} lose, {} tie, {} draw",
        counts[0], counts[1], counts[2], counts[3]
    )?;
    writeln!(
        out,
        "also solved {} states play cannot reach (GamesmanClassic's hash has them; query refuses them)",
        unplayable.iter().sum::<u64>()
    )?;
    writeln!(out, "start position {}: {start_rec}", rules.start())?;
    writeln!(out, "largest remoteness: {}", header.max_remoteness)
}

/// An estimated peak from which `solve` says what it is about to take on.
const LARGE: u64 = 1 << 30;

/// Refuses a solve whose estimated peak memory exceeds what the machine
/// has available, unless told to go ahead; returns the estimate.
fn check_memory(budget: Budget, symmetric: bool, rulesets: usize, ignore: bool) -> anyhow::Result<u64> {
    let need = estimate_memory(budget, symmetric, rayon::current_num_threads(), rulesets);
    let Some(available) = topitop_cli::common::available_memory() else {
        return Ok(need);
    };
    anyhow::ensure!(
        ignore || need <= available,
        "solving budget {budget}{}{} needs about {:.1} GB of memory, but only {:.1} GB is available; \
         solve a smaller budget, or pass --ignore-memory-estimate to try anyway",
        if symmetric { "" } else { " without symmetry" },
        if rulesets > 1 {
            format!(" ({rulesets} rulesets together)")
        } else {
            String::new()
        },
        need as f64 / 1e9,
        available as f64 / 1e9
    );
    Ok(need)
}

/// Refuses a solve onto a file system without the room for what it
/// writes ([`estimate_disk`]: checkpoints, then the databases), before any
/// work rather than after it.
fn check_space(out: &Path, rules: &[Rules], symmetric: bool) -> anyhow::Result<()> {
    let need = estimate_disk(rules[0].budget(), symmetric, rules.len());
    Ok(topitop_files::ensure_space(
        out,
        need,
        "this solve (checkpoints, then the database)",
    )?)
}
