//! `topitop verify --game NAME`: every block's checksum and the header's
//! counts against a recount, then every record against its children's
//! (the Bellman conditions) and the game's primitives, and every index
//! that names no position left empty.

use std::hash::{Hash, Hasher};
use std::io::Write;

use topitop_db::quick_hash::QuickHasher;
use topitop_db::reader::{Chunk, Chunks, Lookup};
use topitop_db::{DbError, Reader};
use topitop_game_api::{Game, Record};
use topitop_solver::loop_free::negamax;

use crate::common::{available_memory, init_threads, DbArgs};
use crate::progress::{CountBar, TierCount};

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
    writeln!(out, "format: {}", facts.format.describe(&facts.path))?;
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
    let lookup = children_lookup(game, db, &facts)?;
    // By indices: tiers differ in size by millions.
    let mut bar = TierCount::new("checking", facts.tiers.iter().map(|t| t.size).sum());
    let mut checked = 0u64;
    let mut bad: Vec<String> = Vec::new();
    let mut violations = 0u64;
    for (t, tier) in facts.tiers.iter().enumerate() {
        // A position that is not canonical holds nothing, as an index
        // that names none: both come as None.
        let chunks = db.canonical_chunks(game, t)?;
        each_chunk_read_ahead(
            chunks,
            |start, chunk| -> Vec<String> {
                // A memo a share: siblings' children are often the same.
                let share = topitop_par::share_of(chunk.len(), 1 << 10);
                topitop_par::map_ranges(chunk.len(), share, |range| {
                    let mut memo = Memo::new();
                    let mut found = Vec::new();
                    for i in range {
                        let (pos, rec) = &chunk[i];
                        let at = || format!("{} index {}", tier.name, start + i as u64);
                        let lookup = |p: &G::Position| memo.get(p, &lookup);
                        found.extend(check_one(game, lookup, &facts, pos.as_ref(), *rec, at).err());
                    }
                    found
                })
                .concat()
            },
            |chunk, found| {
                checked += chunk
                    .iter()
                    .filter(|(p, r)| r.value().is_some() && (!facts.values_only || p.is_some()))
                    .count() as u64;
                bar.chunk(chunk.len() as u64, tier.size);
                violations += found.len() as u64;
                bad.extend(found.into_iter().take(args.show.saturating_sub(bad.len())));
            },
        )?;
        bar.tier(tier.size);
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

/// Runs `work(first index, chunk)` on each of `chunks` in turn, reading
/// the next chunk (a block decoded, on one thread) while the last is
/// worked on, then hands each chunk and what `work` made of it to `then`.
///
/// # Errors
/// A damaged block.
pub(crate) fn each_chunk_read_ahead<P: Send + Sync, T: Send>(
    mut chunks: Chunks<'_, P>,
    work: impl Fn(u64, &Chunk<P>) -> T + Sync,
    mut then: impl FnMut(Chunk<P>, T),
) -> Result<(), DbError> {
    let mut start = 0u64;
    let mut next = chunks.next();
    while let Some(chunk) = next {
        let chunk = chunk?;
        let made;
        (next, made) = topitop_par::join(|| chunks.next(), || work(start, &chunk));
        start += chunk.len() as u64;
        then(chunk, made);
    }
    Ok(())
}

/// How `verify` looks up children: from the records loaded whole when the
/// format can load them and they fit in the memory available, else
/// through [`Reader::lookup`], block by block, said on standard error
/// since it takes several times longer.
///
/// # Errors
/// A damaged block found while loading.
pub(crate) fn children_lookup<'a, G: Game>(
    game: &'a G,
    db: &'a dyn Reader<G>,
    facts: &topitop_db::Facts,
) -> anyhow::Result<Lookup<'a, G::Position>> {
    if let Some(needs) = db.loaded_bytes() {
        if let Some(avail) = available_memory().filter(|&a| needs > a) {
            let mb = |b: u64| b.div_ceil(1 << 20);
            eprintln!(
                "verify: loading {} whole needs about {} MiB, but only {} MiB is available; looking each child up block by block instead, which is slower (free memory to verify faster)",
                facts.path.display(),
                mb(needs),
                mb(avail)
            );
        } else {
            let bar = CountBar::new("loading", "blocks");
            let loaded = db.loaded(game, &|done, total| bar.set(done as u64, total as u64))?;
            bar.finish();
            if let Some(lookup) = loaded {
                return Ok(lookup);
            }
        }
    }
    Ok(Box::new(move |p| db.lookup(game, p)))
}

/// Checks the record `rec` stored for `pos` (none: its index, which `at`
/// names, names no position). Such an index holds nothing in a database
/// of records, and is not checked in one of values (it holds the value of
/// another image).
fn check_one<G: Game>(
    game: &G,
    mut lookup: impl FnMut(&G::Position) -> Result<Record, DbError>,
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
                    .map(|m| lookup(&game.play(p, m)).map_err(|e| e.to_string()))
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

/// The children's records one worker looked up lately, by position: the
/// positions next to each other in a game's index often share most of
/// their children (Topitop's that differ only in the forbidden slide), so
/// most lookups are answered here, without ranking and reading the child.
/// Direct-mapped: a position pushes out the one in its slot. Where
/// neighbours share few children (Topple's) it answers too few to pay for
/// itself, and stands aside after [`MEMO_TRIAL`] lookups.
struct Memo<P> {
    slots: Vec<Option<(P, Record)>>,
    asked: u32,
    answered: u32,
}

/// Lookups after which a [`Memo`] that answered fewer than half stands
/// aside.
const MEMO_TRIAL: u32 = 4096;

/// log2 of [`Memo`]'s slots: far more than a position's children, and
/// small enough to stay in a core's cache.
const MEMO_BITS: u32 = 10;

impl<P: Copy + Eq + Hash> Memo<P> {
    fn new() -> Memo<P> {
        Memo {
            slots: vec![None; 1 << MEMO_BITS],
            asked: 0,
            answered: 0,
        }
    }

    /// The record of `pos`, from here or else from `lookup` (kept).
    fn get(&mut self, pos: &P, lookup: &Lookup<'_, P>) -> Result<Record, DbError> {
        let trial = self.asked < MEMO_TRIAL;
        if !trial && self.answered < MEMO_TRIAL / 2 {
            return lookup(pos);
        }
        self.asked += u32::from(trial);
        // SipHash took about as long as the lookup the memo saves.
        let mut h = QuickHasher::default();
        pos.hash(&mut h);
        let slot = &mut self.slots[(h.finish() >> (64 - MEMO_BITS)) as usize];
        match slot {
            Some((p, r)) if p == pos => {
                self.answered += u32::from(trial);
                Ok(*r)
            }
            _ => {
                let r = lookup(pos)?;
                *slot = Some((*pos, r));
                Ok(r)
            }
        }
    }
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
