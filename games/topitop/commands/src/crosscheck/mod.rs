//! `topitop crosscheck`: two databases of one budget compared and the
//! differences explained (`explain`, `lines`, `text`), or a database
//! checked against GamesmanClassic's own tier files (`gamesman_classic`).

mod explain;
mod gamesman_classic;
mod html;
mod lines;
mod text;

use topitop_cli::cmd::crosscheck::Args;

use crate::options::{open_db, DbOptions};
use topitop_cli::common::Differ;
use topitop_cli::output::Output;

/// Runs `crosscheck`: [`Differ`] (exit 1) when anything differs.
pub fn run(args: Args) -> anyhow::Result<()> {
    let report = crate::options::report(&args.db.rules);
    match (
        crate::options::gamesman_classic(&args.db.rules),
        args.files.as_slice(),
    ) {
        (Some(dir), []) => {
            anyhow::ensure!(
                report.is_none() && !args.all_tiers,
                "--report and --all-tiers apply to crosscheck A B"
            );
            let db = args.db.open()?;
            gamesman_classic::run(&db, &dir, args.examples.unwrap_or(10), args.json)
        }
        (None, [a, b]) => {
            // The report's file is opened first: a bad path fails before the work.
            let report = report
                .as_deref()
                .map(|p| Output::open(Some(p), &[a.as_path(), b.as_path()]))
                .transpose()?;
            let (da, db) = (open_file(a)?, open_file(b)?);
            let comparison = explain::compare(&da, &db, args.examples.unwrap_or(3))?;
            if let Some(out) = report {
                if let Some(path) = html::page(&comparison).write_to(out)? {
                    eprintln!("wrote {}", path.display());
                }
            }
            let mut out = std::io::stdout().lock();
            if args.json {
                use std::io::Write;
                writeln!(out, "{}", serde_json::to_string_pretty(&comparison)?)?;
            } else {
                text::write(&mut out, &comparison, args.all_tiers)?;
            }
            let d = &comparison.differ;
            if d.value + d.remoteness_only > 0 {
                return Err(Differ("the two sides differ".into()).into());
            }
            Ok(())
        }
        _ => anyhow::bail!("give two database files, or --gamesman-classic DIR (with --db or rules options)"),
    }
}

/// Opens the database file `path` named on the command line.
fn open_file(path: &std::path::Path) -> anyhow::Result<games_topitop_solved::Database> {
    anyhow::ensure!(
        path.symlink_metadata().is_ok(),
        "{}: no such database file (crosscheck A B compares two files that `topitop solve` wrote)",
        path.display()
    );
    open_db(path)
}
