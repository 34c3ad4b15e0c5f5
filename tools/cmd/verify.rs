//! `topitop verify`: re-check a solved file against forward move generation.

use std::path::PathBuf;

use topitop_solver::verify::verify;

use crate::common::RulesArgs;
use crate::solution_file;

/// Arguments of `verify`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Directory holding the result of `solve`.
    #[arg(long, default_value = "data", value_name = "DIR")]
    pub dir: PathBuf,
    /// How many violations to print.
    #[arg(long, default_value_t = 10)]
    pub show: usize,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
}

/// Runs `verify`; fails when any position breaks its conditions.
pub fn run(args: Args) -> anyhow::Result<()> {
    let rules = args.rules.rules()?;
    crate::common::init_threads(args.threads)?;
    let solution = solution_file::read(&args.dir, rules)?;
    let report = verify(&solution, args.show);
    println!(
        "checked {} positions: {} violations",
        report.checked, report.violations
    );
    for v in &report.examples {
        println!("  {}  stored {}  {}", v.position, v.record, v.reason);
    }
    anyhow::ensure!(
        report.violations == 0,
        "{} positions break the Bellman conditions",
        report.violations
    );
    Ok(())
}
