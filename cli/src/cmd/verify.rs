//! `topitop verify --game NAME`: every block's checksum, then every record
//! against its children's (the Bellman conditions) and the game's
//! primitives, and every index that names no position left empty.

use std::io::Write;

use rayon::prelude::*;
use topitop_interface::{Record, Tiered};
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
    let h = db.header();
    writeln!(
        out,
        "{}: {} {}, {} tiers, written by {}",
        db.path().display(),
        h.game,
        h.variant,
        h.tiers.len(),
        h.program
    )?;
    let tiers = db.tiers()?;
    writeln!(out, "checksums: header and every block intact")?;
    let by_name: std::collections::HashMap<String, G::Tier> =
        game.tiers().into_iter().map(|t| (game.tier_name(t), t)).collect();
    let bar = CountBar::new("checking", "tiers");
    let mut checked = 0u64;
    let mut bad: Vec<String> = Vec::new();
    let mut violations = 0u64;
    for (k, (name, records)) in tiers.iter().enumerate() {
        let Some(&tier) = by_name.get(name) else {
            anyhow::bail!(
                "{}: tier {name} is not one of {} {}",
                db.path().display(),
                game.name(),
                game.variant()
            );
        };
        anyhow::ensure!(
            records.len() as u64 == game.tier_size(tier),
            "tier {name} holds {} records but has {} indices",
            records.len(),
            game.tier_size(tier)
        );
        let found: Vec<String> = records
            .par_iter()
            .enumerate()
            .filter_map(|(i, &rec)| check_one(&game, &db, tier, i as u64, rec).err())
            .collect();
        checked += records.iter().filter(|r| r.value().is_some()).count() as u64;
        violations += found.len() as u64;
        bad.extend(found.into_iter().take(args.show.saturating_sub(bad.len())));
        bar.set(k as u64 + 1, tiers.len() as u64);
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

/// Checks the record `rec` stored at index `i` of `tier`.
fn check_one<G: Tiered>(
    game: &G,
    db: &topitop_db::tiered::TieredDb,
    tier: G::Tier,
    i: u64,
    rec: Record,
) -> Result<(), String> {
    let pos = game.position(tier, i);
    let expected = match pos {
        None => Record::UNSOLVED,
        Some(p) if db.header().symmetric && game.canonical(&p) != p => Record::UNSOLVED,
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
