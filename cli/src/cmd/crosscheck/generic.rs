//! `topitop crosscheck A B` for a game behind the game interface: two
//! databases of one variant compared position by position, each way. Every
//! position A stores is looked up in B (through B's canonical form when B
//! keeps one per symmetry class), then every position B stores in A; so a
//! database solved with the board's symmetries is checked against one
//! solved without them, or against one an older build wrote, whatever
//! either's index.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use topitop_db::reader::Lookup;
use topitop_db::{Facts, Reader};
use topitop_game_api::{Record, Tiered};

use super::Args;
use crate::cmd::verify::each_chunk_read_ahead;
use crate::common::{DbArgs, Differ};
use crate::progress::TierCount;

/// One position whose records differ.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Difference {
    /// The position, in the game's notation.
    pub position: String,
    /// The tier of the database it was read from.
    pub tier: String,
    /// The record in the file read (`win in 3`).
    pub stored: String,
    /// The record in the other file, or why it has none.
    pub other: String,
}

/// The result of one direction: the positions of one database looked up
/// in the other.
#[derive(Debug, Default, serde::Serialize)]
pub struct Pass {
    /// Positions read (stored, with a value).
    pub compared: u64,
    /// Of those, positions whose records differ.
    pub differing: u64,
    /// Differing positions by tier of the database read.
    pub by_tier: BTreeMap<String, u64>,
    /// The first differing positions.
    pub examples: Vec<Difference>,
}

/// Both directions, as `--json` prints them.
#[derive(Debug, serde::Serialize)]
pub struct Report {
    /// The game's name.
    pub game: String,
    /// The variant both files hold.
    pub variant: String,
    /// A's file.
    pub a: PathBuf,
    /// B's file.
    pub b: PathBuf,
    /// Every position A stores, looked up in B.
    pub a_in_b: Pass,
    /// Every position B stores, looked up in A.
    pub b_in_a: Pass,
}

/// Runs `crosscheck A B` on `game`, the game of A's header.
///
/// # Errors
/// Options this comparison does not take, a file that is not a database
/// of this game's variant, a damaged block; and, once both passes are
/// printed, any difference ([`Differ`]: exit status 1).
pub fn run<G: Tiered>(game: &G, args: Args) -> anyhow::Result<()> {
    let [a, b] = match args.files.as_slice() {
        [a, b] => [a.clone(), b.clone()],
        _ => anyhow::bail!(
            "crosscheck --game {} compares two database files: give both (topitop crosscheck A B)",
            game.name()
        ),
    };
    let open = |path: &Path| {
        let with = DbArgs {
            db: Some(path.to_path_buf()),
            ..args.db.clone()
        };
        super::super::open(game, &with)
    };
    let (da, db) = (open(&a)?, open(&b)?);
    let (da, db): (&dyn Reader<G>, &dyn Reader<G>) = (&da, &db);
    let (fa, fb) = (da.facts(), db.facts());
    let examples = args.examples.unwrap_or(10);
    let a_in_b = compare(game, da, db, examples, "A in B")?;
    let b_in_a = compare(game, db, da, examples, "B in A")?;
    let report = Report {
        game: game.name().to_string(),
        variant: game.variant(),
        a,
        b,
        a_in_b,
        b_in_a,
    };
    let mut out = std::io::stdout().lock();
    if args.json {
        serde_json::to_writer_pretty(&mut out, &report)?;
        writeln!(out)?;
    } else {
        describe(&mut out, &fa, "A")?;
        describe(&mut out, &fb, "B")?;
        print_pass(&mut out, &report.a_in_b, "A", "B", args.all_tiers)?;
        print_pass(&mut out, &report.b_in_a, "B", "A", args.all_tiers)?;
    }
    out.flush()?;
    let differing = report.a_in_b.differing + report.b_in_a.differing;
    if differing > 0 {
        return Err(Differ(format!("{differing} positions differ between A and B")).into());
    }
    Ok(())
}

/// A line about one file.
fn describe(out: &mut impl Write, facts: &Facts, name: &str) -> std::io::Result<()> {
    let stored: u64 = facts.counts.iter().sum();
    writeln!(
        out,
        "{name}: {} ({} {}, {}, {stored} positions stored, written by {})",
        facts.path.display(),
        facts.game,
        facts.variant,
        if facts.symmetric {
            "one per symmetry class"
        } else {
            "every position"
        },
        facts.program
    )
}

/// Tiers listed by default, those with most differences.
const TIERS_SHOWN: usize = 15;

fn print_pass(
    out: &mut impl Write,
    pass: &Pass,
    from: &str,
    to: &str,
    all_tiers: bool,
) -> std::io::Result<()> {
    writeln!(
        out,
        "{from} in {to}: {} positions of {from} looked up in {to}: {} differ",
        pass.compared, pass.differing
    )?;
    let mut tiers: Vec<(&String, &u64)> = pass.by_tier.iter().collect();
    tiers.sort_by(|x, y| y.1.cmp(x.1).then(x.0.cmp(y.0)));
    let shown = if all_tiers { tiers.len() } else { TIERS_SHOWN };
    for (tier, n) in tiers.iter().take(shown) {
        writeln!(out, "  tier {tier}: {n}")?;
    }
    if tiers.len() > shown {
        writeln!(
            out,
            "  ... {} more tiers (--all-tiers lists them)",
            tiers.len() - shown
        )?;
    }
    for d in &pass.examples {
        writeln!(
            out,
            "  {}  tier {}  {from}: {}  {to}: {}",
            d.position, d.tier, d.stored, d.other
        )?;
    }
    Ok(())
}

/// Every position `from` holds a record of, looked up in `to`: `from`'s
/// chunks are read one ahead while the last is compared on every core.
fn compare<G: Tiered>(
    game: &G,
    from: &dyn Reader<G>,
    to: &dyn Reader<G>,
    examples: usize,
    label: &str,
) -> anyhow::Result<Pass> {
    let facts = from.facts();
    let lookup: Lookup<'_, G::Position> = crate::cmd::verify::children_lookup(game, to, &to.facts())?;
    let mut bar = TierCount::new(label, facts.tiers.iter().map(|t| t.size).sum());
    let mut pass = Pass::default();
    // A file of values alone holds, at a position that is not its class's
    // own, another image's value.
    let stored = |p: &G::Position, rec: Record| {
        rec.value().is_some() && !(facts.values_only && facts.symmetric && game.canonical(p) != *p)
    };
    for (t, tier) in facts.tiers.iter().enumerate() {
        // Every index, not only the canonical positions: a file another
        // build wrote may keep classes of fewer symmetries than the game
        // has now, and each of its records is compared.
        let chunks = from.chunks(game, t)?;
        each_chunk_read_ahead(
            chunks,
            |_, chunk| -> (u64, Vec<Difference>) {
                // Counted and compared in one pass: `stored` may ask the
                // game for a canonical form.
                let share = topitop_par::share_of(chunk.len(), 1 << 10);
                let parts = topitop_par::map_ranges(chunk.len(), share, |range| {
                    let (mut n, mut found) = (0u64, Vec::new());
                    for (pos, rec) in &chunk[range] {
                        let Some(p) = pos.as_ref().filter(|p| stored(p, *rec)) else {
                            continue;
                        };
                        let there = lookup(p);
                        if !matches!(there, Ok(r) if r == *rec) {
                            found.push(Difference {
                                position: game.format_position(p),
                                tier: tier.name.clone(),
                                stored: rec.to_string(),
                                other: there.map_or_else(|e| e.to_string(), |r| r.to_string()),
                            });
                        }
                        n += 1;
                    }
                    (n, found)
                });
                parts
                    .into_iter()
                    .fold((0, Vec::new()), |(n, mut found), (m, more)| {
                        found.extend(more);
                        (n + m, found)
                    })
            },
            |chunk, (compared, found)| {
                pass.compared += compared;
                for d in found {
                    pass.differing += 1;
                    *pass.by_tier.entry(d.tier.clone()).or_default() += 1;
                    if pass.examples.len() < examples {
                        pass.examples.push(d);
                    }
                }
                bar.chunk(chunk.len() as u64, tier.size);
            },
        )?;
        bar.tier(tier.size);
    }
    bar.finish();
    Ok(pass)
}
