//! `topitop verify --game NAME`: every block's checksum and the header's
//! counts against a recount, then every record against its children's
//! (the Bellman conditions) and the game's primitives, and every index
//! that names no position left empty.

use std::io::Write;

use rayon::prelude::*;
use topitop_db::SolvedDb;
use topitop_game_api::{Record, Tiered};
use topitop_solver::loop_free::negamax;

use super::open;
use crate::common::{init_threads, DbArgs};
use crate::progress::CountBar;

/// Runs `verify` on `game`.
///
/// # Errors
/// A missing or damaged database, or a record that breaks a condition.
pub fn run<G: Tiered>(game: G, args: Args) -> anyhow::Result<()> {
    init_threads(args.threads)?;
    let db = open(&game, &args.db)?;
    let mut out = std::io::stdout().lock();
    let (g, v, program) = db.names();
    let stored = db.tiers();
    writeln!(
        out,
        "{}: {g} {v}, {} tiers, written by {program}",
        db.path().display(),
        stored.len(),
    )?;
    let bar = CountBar::new("checksums", "blocks");
    db.verify_blocks(|done, total| bar.set(done as u64, total as u64))?;
    bar.finish();
    writeln!(out, "checksums: header and every block intact")?;
    if matches!(db, SolvedDb::Records(_)) {
        writeln!(
            out,
            "header: its counts by value and largest remoteness agree with the records"
        )?;
    }
    if args.checksums_only {
        return Ok(());
    }
    let by_name: std::collections::HashMap<String, G::Tier> =
        game.tiers().into_iter().map(|t| (game.tier_name(t), t)).collect();
    let values_only = matches!(db, SolvedDb::Values(_));
    let bar = CountBar::new("checking", "tiers");
    let mut checked = 0u64;
    let mut bad: Vec<String> = Vec::new();
    let mut violations = 0u64;
    for (k, t) in stored.iter().enumerate() {
        let Some(&tier) = by_name.get(&t.name) else {
            anyhow::bail!(
                "{}: tier {} is not one of {} {}",
                db.path().display(),
                t.name,
                game.name(),
                game.variant()
            );
        };
        anyhow::ensure!(
            t.size == game.tier_size(tier),
            "tier {} holds {} records but has {} indices",
            t.name,
            t.size,
            game.tier_size(tier)
        );
        let records = db.tier_records(&game, tier, k)?;
        let found: Vec<String> = records
            .par_iter()
            .enumerate()
            .filter_map(|(i, &rec)| check_one(&game, &db, values_only, tier, i as u64, rec).err())
            .collect();
        checked += records
            .iter()
            .enumerate()
            .filter(|&(i, r)| {
                r.value().is_some() && (!values_only || game.position(tier, i as u64).is_some())
            })
            .count() as u64;
        violations += found.len() as u64;
        bad.extend(found.into_iter().take(args.show.saturating_sub(bad.len())));
        bar.set(k as u64 + 1, stored.len() as u64);
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

/// Checks the record `rec` stored at index `i` of `tier`. An index that
/// names no position holds nothing in a database of records, and is not
/// checked in one of values (it holds the value of another image).
fn check_one<G: Tiered>(
    game: &G,
    db: &SolvedDb,
    values_only: bool,
    tier: G::Tier,
    i: u64,
    rec: Record,
) -> Result<(), String> {
    let pos = game.position(tier, i);
    let expected = match pos {
        None if values_only => return Ok(()),
        None => Record::UNSOLVED,
        Some(p) if db.symmetric() && game.canonical(&p) != p => {
            if values_only {
                return Ok(());
            }
            Record::UNSOLVED
        }
        Some(p) => match game.primitive(&p) {
            Some(v) => Record::new(v, 0),
            None => {
                let children: Result<Vec<Record>, String> = game
                    .moves(&p)
                    .into_iter()
                    .map(|m| db.lookup(game, &game.play(&p, m)).map_err(|e| e.to_string()))
                    .collect();
                negamax(children?).unwrap_or(Record::UNSOLVED)
            }
        },
    };
    if rec == expected {
        return Ok(());
    }
    let at = pos.map_or(format!("{} index {i}", game.tier_name(tier)), |p| {
        game.format_position(&p)
    });
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
