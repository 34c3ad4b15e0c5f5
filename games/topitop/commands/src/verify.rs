//! `topitop verify`: check a database's checksums, then re-check every
//! record against forward move generation.

use std::io::Write;

use topitop_solved::solve::verify::verify;

use topitop_cli::cmd::verify::Args;

use crate::options::DbOptions;
use topitop_cli::progress::CountBar;

/// Runs `verify`; fails when a checksum or a position's conditions fail.
pub fn run(args: Args) -> anyhow::Result<()> {
    topitop_cli::common::init_threads(args.threads)?;
    let db = args.db.open()?;
    let h = db.header();
    // A closed standard output ends the check (see main's CUT_SHORT).
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{}: rules {} budget {}, {} records in {} blocks, written by {}",
        db.path().display(),
        h.rules.ruleset(),
        h.rules.budget(),
        h.records,
        h.blocks,
        h.solver
    )?;
    let bar = CountBar::new("checksums", "blocks");
    db.verify_blocks(|d, t| bar.set(d as u64, t as u64))?;
    bar.finish();
    writeln!(
        out,
        "checksums: header, block table and {} blocks intact",
        h.blocks
    )?;
    if args.checksums_only {
        return Ok(());
    }
    let bar = CountBar::new("loading", "blocks");
    let solution = db.to_solution(|d, t| bar.set(d as u64, t as u64))?;
    bar.finish();
    let report = verify(&solution, args.show);
    writeln!(
        out,
        "checked {} positions: {} violations",
        report.checked, report.violations
    )?;
    for v in &report.examples {
        writeln!(out, "  {}  stored {}  {}", v.position, v.record, v.reason)?;
    }
    out.flush()?;
    anyhow::ensure!(
        report.violations == 0,
        "{} positions break the Bellman conditions",
        report.violations
    );
    Ok(())
}
