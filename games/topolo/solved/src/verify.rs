//! Checks a database of values position by position, the way it was
//! solved but from the stored values: every full board's value against its
//! score, every other position's against its children's stored values
//! (the Bellman conditions), and the header's counts against a recount.
//! The database is read tier by tier, not trusted to the solve's memory.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use games_topolo::layout::Tier;
use games_topolo::Position;
use rayon::prelude::*;
use topitop_db::packed::{trit, PackedDb};

use crate::closed::{add_counts, Subgames};
use crate::plan::Plan;
use crate::solve::trit_value;
use crate::subgame::Template;

/// What a check found.
#[derive(Debug, Default)]
pub struct Checked {
    /// Canonical positions checked.
    pub positions: u64,
    /// Indices whose value breaks a condition.
    pub violations: u64,
    /// The first few, in words.
    pub examples: Vec<String>,
    /// Tiers whose header counts differ from the recount, in words.
    pub count_errors: Vec<String>,
}

/// What the checks found so far, shared by the threads that check.
struct Findings<'a> {
    found: Mutex<Checked>,
    show: usize,
    stored: &'a [topitop_db::packed::PackedTier],
}

impl Findings<'_> {
    fn lock(&self) -> std::sync::MutexGuard<'_, Checked> {
        self.found
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A value that breaks a condition, in words.
    fn note(&self, what: String) {
        let mut f = self.lock();
        f.violations += 1;
        if f.examples.len() < self.show {
            f.examples.push(what);
        }
    }

    /// Tier `k`'s counts by value and its positions, recounted, against
    /// the header's.
    fn recount(&self, k: usize, got: [u64; 4]) {
        let s = &self.stored[k];
        let want = [s.counts[0], s.counts[1], s.counts[2], s.positions];
        if got != want {
            self.lock()
                .count_errors
                .push(format!("tier {}: header {want:?}, recounted {got:?}", s.name));
        }
    }
}

/// Tier `k`'s stored values, as digits.
fn trits(db: &PackedDb, k: usize) -> anyhow::Result<Vec<u8>> {
    Ok(db.tier_values(k)?.into_iter().map(trit).collect())
}

/// Checks `db`, which must hold `plan`'s board, keeping `show` examples;
/// calls `progress(done, total)` as full first classes are checked.
///
/// # Errors
/// A database whose tiers are not the board's, or a damaged block.
pub fn verify(
    plan: &Plan,
    db: &PackedDb,
    show: usize,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> anyhow::Result<Checked> {
    let stored = &db.header().tiers;
    anyhow::ensure!(
        stored.len() == plan.tiers().len(),
        "{}: {} tiers, but the board has {}",
        db.path().display(),
        stored.len(),
        plan.tiers().len()
    );
    for (k, (&t, s)) in plan.tiers().iter().zip(stored).enumerate() {
        let name = games_topolo::layout::Layout::tier_name(t);
        anyhow::ensure!(
            s.name == name && s.size == plan.sizes()[k],
            "{}: tier {k} is {} of {} indices, but the board's is {name} of {}",
            db.path().display(),
            s.name,
            s.size,
            plan.sizes()[k]
        );
    }
    let findings = Findings {
        found: Mutex::new(Checked::default()),
        show,
        stored,
    };
    let positions = closed(plan, db, &findings, progress)? + open(plan, db, &findings)?;
    let mut f = findings
        .found
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    f.positions = positions;
    Ok(f)
}

/// The closed tiers, template by template: each full first class settled
/// again from the stored values, which must not change. Returns the
/// positions checked.
fn closed(
    plan: &Plan,
    db: &PackedDb,
    findings: &Findings<'_>,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> anyhow::Result<u64> {
    let layout = plan.layout();
    let game = layout.game();
    let done = AtomicU64::new(0);
    let total = plan.subgames();
    let mut positions = 0u64;
    for &(first, full, _) in plan.templates() {
        let (tiers, k0, _) = plan.template_tiers(first, full);
        let t = Template::new(layout, first, full);
        let sub = Subgames::new(layout, &t);
        let rows: Vec<Vec<u8>> = (k0..k0 + tiers.len())
            .map(|k| trits(db, k))
            .collect::<anyhow::Result<_>>()?;
        let codes = layout.full_codes(first, full);
        let counts = codes
            .par_iter()
            .enumerate()
            .fold(
                || (vec![0u8; t.len()], Vec::new(), vec![[0u64; 4]; t.tiers.len()]),
                |(mut buf, mut bad, mut counts), (a_rank, &a_code)| {
                    for (tt, row) in t.tiers.iter().zip(&rows) {
                        let at = a_rank * tt.len;
                        buf[tt.start..tt.start + tt.len].copy_from_slice(&row[at..at + tt.len]);
                    }
                    let a = sub.first_class(a_code);
                    bad.clear();
                    sub.settle(&a, &mut buf, Some(&mut bad));
                    for &s in &bad {
                        let nb = layout.cells(first.other()).len();
                        let pos = layout.place(a, first.other(), &layout.decode(t.codes[s], nb));
                        findings.note(format!(
                            "{}  stored {}",
                            game.format(&pos),
                            trit_value(buf[s]).name()
                        ));
                    }
                    sub.count(a_code, &buf, &mut counts);
                    let d = done.fetch_add(1, Ordering::Relaxed) + 1;
                    if d.is_multiple_of(256) {
                        progress(d, total);
                    }
                    (buf, bad, counts)
                },
            )
            .map(|(_, _, c)| c)
            .reduce(|| vec![[0u64; 4]; t.tiers.len()], add_counts);
        for (j, c) in counts.into_iter().enumerate() {
            positions += c[0] + c[1] + c[2];
            findings.recount(k0 + j, c);
        }
        progress(done.load(Ordering::Relaxed), total);
    }
    Ok(positions)
}

/// The open tiers and the start, from the stored values of their
/// children: the open tiers themselves and the closed tiers of full first
/// classes alone. Returns the positions checked.
fn open(plan: &Plan, db: &PackedDb, findings: &Findings<'_>) -> anyhow::Result<u64> {
    let layout = plan.layout();
    let game = layout.game();
    let mut held: HashMap<Tier, Vec<u8>> = HashMap::new();
    for (k, &t) in plan.tiers().iter().enumerate() {
        let wanted = match t {
            Tier::Start | Tier::Open { .. } => true,
            Tier::Closed { second, .. } => second == [0; 6],
        };
        if wanted {
            held.insert(t, trits(db, k)?);
        }
    }
    let read = |tier: Tier, i: u64| {
        held.get(&tier)
            .and_then(|v| v.get(i as usize))
            .copied()
            .unwrap_or(3)
    };
    let differs = |pos: &Position, got: u8, want: u8| {
        findings.note(format!(
            "{}  stored {}  expected {}",
            game.format(pos),
            trit_value(got).name(),
            trit_value(want).name()
        ));
    };
    let mut positions = 0u64;
    for first in layout.firsts() {
        for k in (1..layout.cells(first).len()).rev() {
            for level in crate::open::level(plan, first, k, &read) {
                let na = layout.cells(first).len();
                for (i, (&want, &got)) in level.values.iter().zip(&held[&level.tier]).enumerate() {
                    let Tier::Open { pieces, .. } = level.tier else {
                        continue;
                    };
                    if want != got {
                        let digits =
                            games_topolo::layout::arrangement(i as u64, &layout.multiset(na, &pieces));
                        differs(&layout.place(Position::EMPTY, first, &digits), got, want);
                    }
                }
                positions += level.counts[..3].iter().sum::<u64>();
                if let Some((tk, _)) = plan.place(level.tier) {
                    findings.recount(tk, level.counts);
                }
            }
        }
    }
    let want = crate::open::start(plan, &read);
    let got = read(Tier::Start, 0);
    if want != got {
        differs(&Position::EMPTY, got, want);
    }
    let mut c = [0u64; 4];
    c[usize::from(want.min(2))] = 1;
    c[3] = 1;
    if let Some((k, _)) = plan.place(Tier::Start) {
        findings.recount(k, c);
    }
    Ok(positions + 1)
}
