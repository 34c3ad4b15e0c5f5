//! `topitop solve`: solve every position and write the result.

use std::path::PathBuf;
use std::time::Instant;

use topitop_db::CheckpointDir;
use topitop_solver::{solve_resumable, SolveOptions};

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
}

/// Runs `solve`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let rules = args.rules.rules()?;
    crate::common::init_threads(args.threads)?;
    let start = Instant::now();
    let mut bar = TierBar::new("solving");
    let symmetric = !args.no_symmetry;
    std::fs::create_dir_all(&args.out)
        .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", args.out.display()))?;
    let final_path = topitop_db::path_in(&args.out, rules);
    let mut checkpoints = CheckpointDir::open(final_path.with_extension("ckpt"), symmetric)?;
    let solution = solve_resumable(rules, SolveOptions { symmetric }, &mut checkpoints, |p| {
        bar.update(p)
    })
    .map_err(|e| anyhow::anyhow!("cannot write a checkpoint under {}: {e}", args.out.display()))?;
    bar.finish();
    let secs = start.elapsed().as_secs_f64();
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
    let counts = solution.counts();
    let solved: u64 = counts.iter().sum();
    let start_rec = solution.get(rules.start()).expect("the start is indexable");
    println!(
        "rules {} budget {} symmetry {}",
        rules.ruleset(),
        rules.budget(),
        !args.no_symmetry
    );
    println!(
        "solved {solved} positions{} in {secs:.1} s ({:.1} M positions/s)",
        if symmetric {
            " (one per symmetry class)"
        } else {
            ""
        },
        solved as f64 / secs / 1e6
    );
    println!(
        "by value: {} win, {} lose, {} tie, {} draw",
        counts[0], counts[1], counts[2], counts[3]
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
