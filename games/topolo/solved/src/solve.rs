//! Topolo's own solve: every index of the board's
//! [`Layout`] given its value, win, lose or
//! tie for the player to move (the remoteness is the empty cells, so it is
//! not stored).
//!
//! 1. **Closed positions**, a full first class at a time
//!    ([`crate::closed`]). For each first class and its pieces by kind, one
//!    [`Template`](crate::subgame::Template) holds the second class's
//!    states and moves; each canonical full first class of those pieces is
//!    solved over it, full boards scored, every other state from its
//!    children, in a buffer of a byte a state (a few hundred kilobytes on
//!    4×4), on all cores, and its row written straight into its tiers.
//! 2. **Open positions**, most pieces first ([`crate::open`]): their
//!    children are open positions already solved, or closed ones.
//! 3. **The start.**
//!
//! The counts the database header keeps (canonical positions by value,
//! and the positions they stand for) are made on the way. After each
//! template its values and counts can be kept ([`Store`]), so that a solve
//! cut short resumes from the templates it finished, with the same result.

use std::sync::atomic::{AtomicU64, Ordering};

use games_topolo::layout::{Layout, Tier};
use games_topolo::Position;
use topitop_db::packed::{pack, PackedHeader, PackedTier};
use topitop_game_api::Value;

use crate::plan::{Plan, Store};
use crate::values::{Values, LOSE, WIN};

/// Per tier: canonical positions by value (win, lose, tie) and the
/// positions they stand for.
pub struct Counting(Vec<[AtomicU64; 4]>);

impl Counting {
    /// Counts for `n` tiers, all zero.
    pub fn new(n: usize) -> Counting {
        Counting((0..n).map(|_| Default::default()).collect())
    }

    /// Adds `c` to tier number `tier`.
    pub fn add(&self, tier: usize, c: &[u64; 4]) {
        for (slot, &x) in self.0[tier].iter().zip(c) {
            slot.fetch_add(x, Ordering::Relaxed);
        }
    }

    /// Tier number `tier`'s counts.
    pub fn get(&self, tier: usize) -> [u64; 4] {
        std::array::from_fn(|k| self.0[tier][k].load(Ordering::Relaxed))
    }
}

/// A finished solve.
pub struct Solved {
    /// The database header, but for the names and block checksums the
    /// writer adds.
    pub header: PackedHeader,
    /// Every tier's values, packed five to a byte.
    pub data: Vec<u8>,
    /// The start position's value.
    pub start: Value,
    /// Templates taken from the store.
    pub resumed: usize,
}

/// The value a stored digit stands for.
pub fn trit_value(t: u8) -> Value {
    match t {
        WIN => Value::Win,
        LOSE => Value::Lose,
        _ => Value::Tie,
    }
}

/// Solves the board of `plan`, calling `progress(done, total)` as the
/// small games of step 1 finish.
///
/// # Errors
/// A template that could not be kept.
pub fn solve(
    plan: &Plan,
    store: &mut dyn Store,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> anyhow::Result<Solved> {
    let values = Values::new(plan.indices());
    let counting = Counting::new(plan.tiers().len());
    let done = AtomicU64::new(0);
    let total = plan.subgames();
    let mut resumed = 0;
    for &(first, full, n) in plan.templates() {
        let name = Plan::template_name(first, &full);
        let (tiers, k0, start) = plan.template_tiers(first, full);
        let len: u64 = (k0..k0 + tiers.len()).map(|k| plan.sizes()[k]).sum();
        let kept_len = 32 * tiers.len() as u64 + len.div_ceil(4);
        if let Some(bytes) = store.load(&name, kept_len) {
            restore(&bytes, tiers.len(), k0, start, len, &values, &counting);
            resumed += 1;
            done.fetch_add(n, Ordering::Relaxed);
        } else {
            crate::closed::solve_template(plan, first, full, &values, &counting, &|| {
                let d = done.fetch_add(1, Ordering::Relaxed) + 1;
                if d.is_multiple_of(64) {
                    progress(d, total);
                }
            });
            store.save(&name, &keep(tiers.len(), k0, start, len, &values, &counting))?;
        }
        progress(done.load(Ordering::Relaxed).min(total), total);
    }
    Ok(finish(plan, &values, &counting, resumed))
}

/// Steps 2 and 3, once every small game's values are in `values` and
/// counted in `counting`: the open positions and the start, then the
/// database's header and values. `resumed` is said in the result.
pub fn finish(plan: &Plan, values: &Values, counting: &Counting, resumed: usize) -> Solved {
    let layout = plan.layout();
    let read = |tier: Tier, i: u64| values.get(plan.place(tier).map_or(0, |p| p.1) + i);
    for first in layout.firsts() {
        for k in (1..layout.cells(first).len()).rev() {
            for level in crate::open::level(plan, first, k, &read) {
                let (tk, at) = plan.place(level.tier).unwrap_or((0, 0));
                values.put_run(at, &level.values);
                counting.add(tk, &level.counts);
            }
        }
    }
    let v = crate::open::start(plan, &read);
    let (k, at) = plan.place(Tier::Start).unwrap_or((0, 0));
    values.put_run(at, &[v]);
    let mut c = [0u64; 4];
    c[usize::from(v)] = 1;
    c[3] = 1;
    counting.add(k, &c);
    let start_value = values.get(plan.index_of(&Position::EMPTY));
    Solved {
        header: header(plan, counting),
        data: packed(plan, values),
        start: trit_value(start_value),
        resumed,
    }
}

/// The header of the database of `plan` from its counts.
pub(crate) fn header(plan: &Plan, counting: &Counting) -> PackedHeader {
    let tiers = plan
        .tiers()
        .iter()
        .zip(plan.sizes())
        .enumerate()
        .map(|(k, (&t, &size))| {
            let c = counting.get(k);
            PackedTier {
                name: Layout::tier_name(t),
                size,
                counts: [c[0], c[1], c[2]],
                positions: c[3],
            }
        })
        .collect();
    PackedHeader {
        version: topitop_db::packed::VERSION,
        game: String::new(),
        variant: String::new(),
        program: String::new(),
        symmetric: true,
        max_remoteness: u16::from(plan.layout().game().shape().cells()),
        dictionary: Vec::new(),
        tiers,
        blocks: Vec::new(),
    }
}

/// Every tier's values packed five to a byte, each tier from a new byte.
fn packed(plan: &Plan, values: &Values) -> Vec<u8> {
    let mut data = Vec::with_capacity((plan.indices() / 5 + plan.tiers().len() as u64) as usize);
    let mut at = 0;
    for &size in plan.sizes() {
        // In pieces, so that no tier needs a byte a value at once.
        let mut i = 0;
        while i < size {
            let n = (size - i).min(5 << 20);
            pack(values.run(at + i, n), &mut data);
            i += n;
        }
        at += size;
    }
    data
}

/// The bytes a template is kept as: each of its `tiers` tiers' four
/// counts, then its values, two bits each.
fn keep(tiers: usize, k0: usize, start: u64, len: u64, values: &Values, counting: &Counting) -> Vec<u8> {
    let mut out = Vec::with_capacity(32 * tiers + len.div_ceil(4) as usize);
    for k in 0..tiers {
        for c in counting.get(k0 + k) {
            out.extend_from_slice(&c.to_le_bytes());
        }
    }
    let vals = values.run(start, len);
    for chunk in vals.chunks(4) {
        out.push(chunk.iter().enumerate().fold(0u8, |b, (j, &v)| b | v << (2 * j)));
    }
    out
}

/// Puts back what [`keep`] kept.
fn restore(
    bytes: &[u8],
    tiers: usize,
    k0: usize,
    start: u64,
    len: u64,
    values: &Values,
    counting: &Counting,
) {
    let (head, body) = bytes.split_at(32 * tiers);
    for k in 0..tiers {
        let c: [u64; 4] = std::array::from_fn(|j| {
            let at = 32 * k + 8 * j;
            u64::from_le_bytes(head[at..at + 8].try_into().unwrap_or([0; 8]))
        });
        counting.add(k0 + k, &c);
    }
    let vals: Vec<u8> = body
        .iter()
        .flat_map(|&b| (0..4).map(move |j| b >> (2 * j) & 3))
        .take(len as usize)
        .collect();
    values.put_run(start, &vals);
}
