//! What a solve of a board takes on, known before it starts: the tiers of
//! the board's [`Layout`], their places among the values, the templates
//! of step 1, and what it will cost; and where a solve keeps the
//! templates it finished ([`Store`]).

use std::collections::HashMap;
use std::sync::Arc;

use games_topolo::layout::{holdings, Counts, Layout, Tier};
use games_topolo::{Class, Color, Position, Size};

/// Where a solve keeps the templates it finished.
pub trait Store {
    /// The bytes kept under `name`, if whole and `len` long.
    fn load(&mut self, name: &str, len: u64) -> Option<Vec<u8>>;
    /// Keeps `bytes` under `name`.
    ///
    /// # Errors
    /// They could not be kept.
    fn save(&mut self, name: &str, bytes: &[u8]) -> std::io::Result<()>;
}

/// Nothing kept.
pub struct KeepNothing;

impl Store for KeepNothing {
    fn load(&mut self, _: &str, _: u64) -> Option<Vec<u8>> {
        None
    }
    fn save(&mut self, _: &str, _: &[u8]) -> std::io::Result<()> {
        Ok(())
    }
}

/// What a solve of a board takes on: its tiers and their places among
/// the values.
pub struct Plan {
    layout: Arc<Layout>,
    tiers: Vec<Tier>,
    sizes: Vec<u64>,
    offsets: HashMap<Tier, (usize, u64)>,
    /// The first classes and their pieces, each with its number of
    /// canonical full classes.
    templates: Vec<(Class, Counts, u64)>,
    /// Each template's closed tiers, by their places among the tiers:
    /// found once here, for a distributed solve asks for them a unit at
    /// a time, hundreds of thousands of units on 4×5.
    of_template: HashMap<(Class, Counts), Vec<usize>>,
}

impl Plan {
    /// The plan of `layout`'s board.
    pub fn new(layout: Arc<Layout>) -> Plan {
        let tiers = layout.tiers();
        let sizes: Vec<u64> = tiers.iter().map(|&t| layout.size(t)).collect();
        let mut offsets = HashMap::with_capacity(tiers.len());
        let mut at = 0u64;
        let mut templates: Vec<(Class, Counts, u64)> = Vec::new();
        let mut of_template: HashMap<(Class, Counts), Vec<usize>> = HashMap::new();
        for (k, (&t, &n)) in tiers.iter().zip(&sizes).enumerate() {
            offsets.insert(t, (k, at));
            at += n;
            if let Tier::Closed { first, full, .. } = t {
                of_template.entry((first, full)).or_default().push(k);
                if templates.last().is_none_or(|&(f, a, _)| (f, a) != (first, full)) {
                    let n = layout.full_codes(first, full).len() as u64;
                    templates.push((first, full, n));
                }
            }
        }
        Plan {
            layout,
            tiers,
            sizes,
            offsets,
            templates,
            of_template,
        }
    }

    /// The index of the board being solved ([`Layout`]).
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The tiers, in the order their values are stored.
    pub fn tiers(&self) -> &[Tier] {
        &self.tiers
    }

    /// Indices in all.
    pub fn indices(&self) -> u64 {
        self.sizes.iter().sum()
    }

    /// Full first classes to solve (the small games of step 1).
    pub fn subgames(&self) -> u64 {
        self.templates.iter().map(|t| t.2).sum()
    }

    /// The templates: each first class and its pieces, with its number
    /// of canonical full classes.
    pub fn templates(&self) -> &[(Class, Counts, u64)] {
        &self.templates
    }

    /// Each tier's number of indices.
    pub fn sizes(&self) -> &[u64] {
        &self.sizes
    }

    /// The tiers of template `first`, `full`, and where the first is.
    pub fn template_tiers(&self, first: Class, full: Counts) -> (Vec<Tier>, usize, u64) {
        let tiers: Vec<Tier> = self
            .of_template
            .get(&(first, full))
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .map(|&k| self.tiers[k])
            .collect();
        let (k0, at) = tiers.first().and_then(|&t| self.place(t)).unwrap_or((0, 0));
        (tiers, k0, at)
    }

    /// The index among all values of `pos` (through its canonical form).
    pub fn index_of(&self, pos: &Position) -> u64 {
        self.offsets[&self.layout.tier_of(pos)].1 + self.layout.index(pos)
    }

    /// Where `tier` is: its place among the tiers and its first value.
    pub fn place(&self, tier: Tier) -> Option<(usize, u64)> {
        self.offsets.get(&tier).copied()
    }

    /// Bytes of memory the solve needs at its peak: the values being
    /// solved (two bits each), the database's packed values (1.6 bits),
    /// and the largest template with every worker's buffer, with a
    /// margin. From counts alone.
    pub fn memory(&self, threads: usize) -> u64 {
        let n = self.indices();
        let nb = self
            .layout
            .firsts()
            .iter()
            .map(|&c| self.layout.cells(c.other()).len())
            .max()
            .unwrap_or(0) as u64;
        // A template's states: one full first class with every
        // arrangement of the second class's cells, that is its tiers'
        // indices shared among its full classes.
        let largest = self
            .templates
            .iter()
            .map(|&(first, full, codes)| {
                let (tiers, _, _) = self.template_tiers(first, full);
                let states: u64 = tiers
                    .iter()
                    .filter_map(|&t| self.place(t).map(|(k, _)| self.sizes[k]))
                    .sum();
                states / codes.max(1)
            })
            .max()
            .unwrap_or(0);
        // Code, offset and children (about one a state and cell of the
        // second class, the measured average of docs/topolo.md's boards),
        // and a byte of value per worker.
        let template = largest * (8 + 4 + 4 * nb) + largest * threads as u64;
        n / 4 + n / 5 + template + (64 << 20)
    }

    /// The name a template is kept under: its first class and pieces.
    pub fn template_name(first: Class, full: &Counts) -> String {
        format!(
            "{}.r{}.{}.{}-b{}.{}.{}",
            first.name(),
            full[0],
            full[1],
            full[2],
            full[3],
            full[4],
            full[5]
        )
    }
}

/// What a solve of `layout`'s board would take, from counts alone (no
/// arrangement enumerated, and no tier either): about how many indices
/// (symmetry classes, and a few more), and bytes of memory at the peak on
/// `threads` workers. Approximate (floating point), for boards of any
/// size, in milliseconds even on 8x8, whose tiers number in the millions.
///
/// A tier's count of arrangements is n! / ∏ mᵢ! over the digits its
/// pieces fill and the empty cells; the two colours fill different
/// digits, so the sum over a group of tiers splits into a sum over Red's
/// holdings times one over Black's.
pub fn estimate(layout: &Layout, threads: usize) -> (f64, f64) {
    let game = layout.game();
    let limits = |c: Color| Size::ALL.map(|s| u8::try_from(game.inventory(c, s)).unwrap_or(u8::MAX));
    let all = [limits(Color::Red), limits(Color::Black)];
    let falling = |n: usize, k: usize| -> f64 { (n - k + 1..=n).map(|i| i as f64).product() };
    // 1/∏ mᵢ! over the digits a holding of colour `side` fills.
    let weight = |side: usize, h: [u8; 3]| -> f64 {
        let mut counts: Counts = [0; 6];
        counts[3 * side..3 * side + 3].copy_from_slice(&h);
        let placed = h.iter().map(|&n| usize::from(n)).sum();
        layout.multiset(placed, &counts)[1..]
            .iter()
            .map(|&m| 1.0 / falling(usize::from(m), usize::from(m)))
            .product()
    };
    // Σ and max of the weights of colour `side`'s holdings of `n` pieces
    // within `left`.
    let sum_max = |side: usize, n: u8, left: [u8; 3]| -> (f64, f64) {
        holdings(n, left)
            .into_iter()
            .map(|h| weight(side, h))
            .fold((0.0, 0.0), |(s, m), w| (s + w, f64::max(m, w)))
    };
    let minus = |a: [u8; 3], b: [u8; 3]| std::array::from_fn(|k| a[k] - b[k]);
    let mut n = 1.0; // the start
    let mut largest_row: f64 = 0.0;
    for first in layout.firsts() {
        let na = layout.cells(first).len();
        let nb = layout.cells(first.other()).len();
        for k in 1..na {
            let red = Layout::red_after(k);
            let black = k as u8 - red;
            n += falling(na, k) * sum_max(0, red, all[0]).0 * sum_max(1, black, all[1]).0;
        }
        // Closed tiers: the first class full, then the second filling.
        let red_a = Layout::red_after(na);
        let fulls = [holdings(red_a, all[0]), holdings(na as u8 - red_a, all[1])];
        let keep = layout.keeping(first).len() as f64;
        for j in 0..=nb {
            let red = Layout::red_after(na + j) - red_a;
            let need = [red, j as u8 - red];
            let mut sums = [0.0; 2];
            let mut most = [0.0f64; 2];
            for side in 0..2 {
                for &f in &fulls[side] {
                    let (s, m) = sum_max(side, need[side], minus(all[side], f));
                    sums[side] += weight(side, f) * s;
                    most[side] = most[side].max(m);
                }
            }
            let row = falling(nb, j);
            n += falling(na, na) / keep * row * sums[0] * sums[1];
            if most[0] > 0.0 && most[1] > 0.0 {
                largest_row = largest_row.max(row * most[0] * most[1]);
            }
        }
    }
    peak(layout, threads, n, largest_row)
}

/// The estimate's indices and peak memory from its count `n` of indices
/// and the arrangements of its largest row of second classes.
fn peak(layout: &Layout, threads: usize, n: f64, largest_row: f64) -> (f64, f64) {
    let nb = layout
        .firsts()
        .iter()
        .map(|&c| layout.cells(c.other()).len())
        .max()
        .unwrap_or(0) as f64;
    let template = largest_row * (nb + 1.0) * (8.0 + 4.0 + 12.0 * nb + 32.0 + threads as f64);
    (n, n / 4.0 + n / 5.0 + template + f64::from(64u32 << 20))
}

#[cfg(test)]
mod estimate_tests {
    use super::*;
    use games_topolo::Topolo;

    /// The estimate as it was first written, tier by tier: the reference
    /// [`estimate`] is checked against (8x8 took 12 s and 0.33 GB by it).
    fn estimate_by_tiers(layout: &Layout, threads: usize) -> (f64, f64) {
        // n! / ∏ mᵢ!, in floating point: the boards too large to index too.
        let arrangements = |m: &[u8]| -> f64 {
            let mut n = 0.0;
            let mut total = 1.0;
            for &k in m {
                for i in 1..=k {
                    n += 1.0;
                    total = total * n / f64::from(i);
                }
            }
            total
        };
        let mut n = 0.0;
        let mut largest_row: f64 = 0.0;
        for tier in layout.tiers() {
            n += match tier {
                Tier::Start => 1.0,
                Tier::Open { first, pieces } => {
                    arrangements(&layout.multiset(layout.cells(first).len(), &pieces))
                }
                Tier::Closed { first, full, second } => {
                    let a = arrangements(&layout.multiset(layout.cells(first).len(), &full));
                    let b = arrangements(&layout.multiset(layout.cells(first.other()).len(), &second));
                    largest_row = largest_row.max(b);
                    a / layout.keeping(first).len() as f64 * b
                }
            };
        }
        peak(layout, threads, n, largest_row)
    }

    /// The sum by colours is the sum tier by tier, on every board small
    /// enough to walk, in both variants.
    #[test]
    fn the_estimate_by_colours_is_the_estimate_by_tiers() {
        for board in [
            "2x2", "2x3", "3x2", "3x3", "2x5", "3x4", "4x3", "4x4", "3x5", "4x5", "5x5",
        ] {
            for variant in ["full", "size-only"] {
                let game = Topolo::from_options(Some(board), Some(variant)).unwrap();
                let layout = Layout::unshared(game);
                for threads in [1, 8] {
                    let (n, need) = estimate(&layout, threads);
                    let (n0, need0) = estimate_by_tiers(&layout, threads);
                    let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * b.abs();
                    assert!(close(n, n0), "{board} {variant}: {n} against {n0}");
                    assert!(close(need, need0), "{board} {variant}: {need} against {need0}");
                }
            }
        }
    }
}
