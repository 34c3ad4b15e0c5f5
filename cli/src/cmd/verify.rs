//! `topitop verify --game NAME`: every block's checksum and the header's
//! counts against a recount, then every record against its children's
//! (the Bellman conditions) and the game's primitives, and every index
//! that names no position left empty.

use std::io::Write;

use rayon::prelude::*;
use topitop_db::Reader;
use topitop_game_api::{Game, Record};
use topitop_solver::loop_free::negamax;

use crate::common::{init_threads, DbArgs};
use crate::progress::CountBar;

/// Runs `verify` on `db`, a database of `game`.
///
/// # Errors
/// A damaged database, or a record that breaks a condition.
pub fn run<G: Game>(game: &G, db: &dyn Reader<G>, args: Args) -> anyhow::Result<()> {
    init_threads(args.threads)?;
    let facts = db.facts();
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{}: {} {}, {} tiers, written by {}",
        facts.path.display(),
        facts.game,
        facts.variant,
        facts.tiers.len(),
        facts.program
    )?;
    let bar = CountBar::new("checksums", "blocks");
    db.verify_blocks(&|done, total| bar.set(done as u64, total as u64))?;
    bar.finish();
    writeln!(out, "checksums: header and every block intact")?;
    if facts.checks_counts {
        writeln!(
            out,
            "header: its counts by value and largest remoteness agree with the records"
        )?;
    }
    if args.checksums_only {
        return Ok(());
    }
    let bar = CountBar::new("checking", "tiers");
    let mut checked = 0u64;
    let mut bad: Vec<String> = Vec::new();
    let mut violations = 0u64;
    for (t, tier) in facts.tiers.iter().enumerate() {
        let mut start = 0u64;
        for chunk in db.chunks(game, t)? {
            let chunk = chunk?;
            let found: Vec<String> = chunk
                .par_iter()
                .enumerate()
                .filter_map(|(i, (pos, rec))| {
                    let at = || format!("{} index {}", tier.name, start + i as u64);
                    check_one(game, db, &facts, pos.as_ref(), *rec, at).err()
                })
                .collect();
            checked += chunk
                .iter()
                .filter(|(p, r)| r.value().is_some() && (!facts.values_only || p.is_some()))
                .count() as u64;
            start += chunk.len() as u64;
            violations += found.len() as u64;
            bad.extend(found.into_iter().take(args.show.saturating_sub(bad.len())));
        }
        bar.set(t as u64 + 1, facts.tiers.len() as u64);
    }
    bar.finish();
    writeln!(out, "checked {checked} positions: {violations} violations")?;
    for b in &bad {
        writeln!(out, "  {b}")?;
    }
    out.flush()?;
    anyhow::ensure!(
        violations == 0,
        "{violations} records break the Bellman conditions"
    );
    Ok(())
}

/// Checks the record `rec` stored for `pos` (none: its index, which `at`
/// names, names no position). Such an index holds nothing in a database
/// of records, and is not checked in one of values (it holds the value of
/// another image).
fn check_one<G: Game>(
    game: &G,
    db: &dyn Reader<G>,
    facts: &topitop_db::Facts,
    pos: Option<&G::Position>,
    rec: Record,
    at: impl Fn() -> String,
) -> Result<(), String> {
    let values_only = facts.values_only;
    let expected = match pos {
        None if values_only => return Ok(()),
        None => Record::UNSOLVED,
        Some(p) if facts.symmetric && game.canonical(p) != *p => {
            if values_only {
                return Ok(());
            }
            Record::UNSOLVED
        }
        Some(p) => match game.primitive(p) {
            Some(v) => Record::new(v, 0),
            None => {
                let children: Result<Vec<Record>, String> = game
                    .moves(p)
                    .into_iter()
                    .map(|m| db.lookup(game, &game.play(p, m)).map_err(|e| e.to_string()))
                    .collect();
                negamax(children?).unwrap_or(Record::UNSOLVED)
            }
        },
    };
    if rec == expected {
        return Ok(());
    }
    let at = pos.map_or_else(at, |p| game.format_position(p));
    Err(format!("{at}  stored {rec}  expected {expected}"))
}

/// Arguments of `verify`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Where the database is.
    #[command(flatten)]
    pub db: DbArgs,
    /// How many violations to print.
    #[arg(long, default_value_t = 10)]
    pub show: usize,
    /// Only check the checksums and structure, not the Bellman conditions.
    #[arg(long)]
    pub checksums_only: bool,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
}
