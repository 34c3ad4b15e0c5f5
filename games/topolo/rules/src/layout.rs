//! The index of a board's positions that solving and the databases use:
//! one position per symmetry class, and no index that names none.
//!
//! Play fills the first piece's row class (here "the first class", A)
//! before any cell of the other (B). So a position is either *open* (only
//! A holds pieces, and A is not full) or *closed* (A is full, and B holds
//! what has been placed since). A closed position's A part never changes
//! again: the positions that share it form a small game of their own.
//!
//! * **Canonical form.** The least, by (code of A, code of B), of the
//!   position's images under the board's four reflections whose first
//!   class is a *preferred* one: on a board with an even number of rows,
//!   where the top–bottom reflection swaps the classes, only the odd
//!   class; on one with an odd number of rows both. A cell's digit is 0
//!   for an empty cell, 1–3 for Red's small to large and 4–6 for Black's
//!   (1 Red and 2 Black in the group-size-only variant, where every piece
//!   is small); a class's code reads its cells in order as the digits of
//!   one number, its first cell the most significant. A full board does
//!   not show which class was filled first: it is read with the odd
//!   class first when Red holds the share of it a first class gets, else
//!   with the even class first.
//! * **Tiers.** [`Tier::Start`], the empty board; [`Tier::Open`], the
//!   first class and its pieces by kind; [`Tier::Closed`], the first
//!   class, its pieces by kind (all its cells) and the other class's
//!   pieces by kind. Every move adds a piece, so tiers are loop-free.
//! * **Index in a tier.** Open: the rank of A's digits among the
//!   arrangements of its multiset. Closed: the rank of A's code among the
//!   canonical codes of A's tier (those least among their images under
//!   the reflections that keep the class), times the number of
//!   arrangements of B's multiset, plus the rank of B's digits among them.
//!   An index of a closed tier names a position that is not canonical only
//!   where a reflection maps A to itself but not B; an open tier indexes
//!   every arrangement, the few that are not canonical included. Those
//!   indices name no position (`position` gives `None`); every other index
//!   names one canonical position.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use crate::piece::{Color, Size};
use crate::position::Position;
use crate::rules::{Topolo, Variant};
use crate::shape::{Class, RowClasses, Shape};
use topitop_game_api::rank::{multinomial, rank, unrank};

/// Pieces of each kind: Red's small, mid and large, then Black's.
pub type Counts = [u8; 6];

/// The largest board indexed: a class's code and a tier's size fit a
/// `u64`, and the classes (at most 15 cells) fit the digit tables.
pub const MAX_INDEXED_CELLS: u32 = 25;

/// A tier of the index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Tier {
    /// The empty board.
    Start,
    /// Pieces in the first class only, which has empty cells.
    Open {
        /// The first class.
        first: Class,
        /// Its pieces by kind.
        pieces: Counts,
    },
    /// The first class full, and pieces in the other.
    Closed {
        /// The first class.
        first: Class,
        /// Its pieces by kind.
        full: Counts,
        /// The other class's pieces by kind.
        second: Counts,
    },
}

/// A reflection of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reflection {
    /// Nothing moves.
    Identity,
    /// Columns swap left–right; rows stay.
    LeftRight,
    /// Rows swap top–bottom, which swaps the row classes on a board of
    /// even rows; columns stay.
    TopBottom,
    /// Both (a half turn).
    Both,
}

impl Reflection {
    /// All four.
    pub const ALL: [Reflection; 4] = [
        Reflection::Identity,
        Reflection::LeftRight,
        Reflection::TopBottom,
        Reflection::Both,
    ];

    /// The image of `pos` on `shape`.
    pub fn apply(self, shape: Shape, pos: &Position) -> Position {
        match self {
            Reflection::Identity => *pos,
            Reflection::LeftRight => pos.map(|m| shape.mirror_cols(m)),
            Reflection::TopBottom => pos.map(|m| shape.mirror_rows(m)),
            Reflection::Both => pos.map(|m| shape.mirror_rows(shape.mirror_cols(m))),
        }
    }
}

/// Canonical codes of full first classes, by class and pieces, as they
/// are made.
type FullCodes = HashMap<(Class, Counts), Arc<Vec<u64>>>;

/// The index of one board and variant (see the module's text).
pub struct Layout {
    game: Topolo,
    /// Digits a cell takes: 7, or 3 in the group-size-only variant.
    base: u8,
    /// Each class's cells (bits) in order: odd, even.
    cells: [Vec<u32>; 2],
    /// Each class's bitboard: odd, even.
    bits: [u64; 2],
    /// The reflections that keep each class in place: odd, even.
    keeping: [Vec<Reflection>; 2],
    /// Canonical codes of full first classes, by class and pieces.
    full_codes: Mutex<FullCodes>,
}

fn slot(class: Class) -> usize {
    match class {
        Class::Odd => 0,
        Class::Even => 1,
    }
}

impl Layout {
    /// The layout of `game`'s board, shared by every caller; `None` for a
    /// board of more than [`MAX_INDEXED_CELLS`] cells.
    pub fn of(game: Topolo) -> Option<Arc<Layout>> {
        static ALL: OnceLock<Mutex<HashMap<Topolo, Arc<Layout>>>> = OnceLock::new();
        if u32::from(game.shape().cells()) > MAX_INDEXED_CELLS {
            return None;
        }
        let mut all = ALL
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        Some(Arc::clone(
            all.entry(game).or_insert_with(|| Arc::new(Layout::new(game))),
        ))
    }

    /// The layout of any board, not shared and not checked against
    /// [`MAX_INDEXED_CELLS`]: for counting the tiers and sizes of a board
    /// too large to index (codes, ranks and canonical forms need it
    /// indexable).
    pub fn unshared(game: Topolo) -> Layout {
        Layout::new(game)
    }

    fn new(game: Topolo) -> Layout {
        let shape = game.shape();
        let class_cells = |c: Class| {
            let m = shape.class(c);
            (0..u32::from(shape.cells()))
                .filter(|b| m >> b & 1 == 1)
                .collect::<Vec<u32>>()
        };
        let keeping = |c: Class| {
            Reflection::ALL
                .into_iter()
                .filter(|r| {
                    let probe = Position {
                        red: shape.class(c),
                        ..Position::EMPTY
                    };
                    r.apply(shape, &probe).red == shape.class(c)
                })
                .collect::<Vec<_>>()
        };
        Layout {
            game,
            base: match game.variant() {
                Variant::Full => 7,
                Variant::SizeOnly => 3,
            },
            cells: [class_cells(Class::Odd), class_cells(Class::Even)],
            bits: [shape.class(Class::Odd), shape.class(Class::Even)],
            keeping: [keeping(Class::Odd), keeping(Class::Even)],
            full_codes: Mutex::new(HashMap::new()),
        }
    }

    /// The board and variant this indexes.
    pub fn game(&self) -> Topolo {
        self.game
    }

    /// Digits a cell takes.
    pub fn base(&self) -> u8 {
        self.base
    }

    /// The cells (bits) of `class`, in order.
    pub fn cells(&self, class: Class) -> &[u32] {
        &self.cells[slot(class)]
    }

    /// The reflections that keep `class` in place (the identity first).
    pub fn keeping(&self, class: Class) -> &[Reflection] {
        &self.keeping[slot(class)]
    }

    /// True when a position may have `class` as its first class in
    /// canonical form.
    pub fn preferred(&self, class: Class) -> bool {
        self.game.shape().rows() % 2 == 1 || class == Class::Odd
    }

    /// The classes a canonical position may fill first.
    pub fn firsts(&self) -> Vec<Class> {
        [Class::Odd, Class::Even]
            .into_iter()
            .filter(|&c| self.preferred(c))
            .collect()
    }

    /// The digit of a piece.
    pub fn digit(&self, color: Color, size: Size) -> u8 {
        match (self.game.variant(), color) {
            (Variant::SizeOnly, Color::Red) => 1,
            (Variant::SizeOnly, Color::Black) => 2,
            (Variant::Full, Color::Red) => 1 + size as u8,
            (Variant::Full, Color::Black) => 4 + size as u8,
        }
    }

    /// The piece of a digit other than 0.
    pub fn piece(&self, digit: u8) -> (Color, Size) {
        match (self.game.variant(), digit) {
            (Variant::SizeOnly, 1) => (Color::Red, Size::Small),
            (Variant::SizeOnly, _) => (Color::Black, Size::Small),
            (Variant::Full, d) if d <= 3 => (Color::Red, Size::ALL[usize::from(d - 1)]),
            (Variant::Full, d) => (Color::Black, Size::ALL[usize::from(d - 4).min(2)]),
        }
    }

    /// The digit of the piece counted at `k` of [`Counts`].
    pub fn digit_of_slot(&self, k: usize) -> u8 {
        let color = if k < 3 { Color::Red } else { Color::Black };
        self.digit(color, Size::ALL[k % 3])
    }

    /// The digit of the cell `bit` of `pos`.
    pub fn digit_at(&self, pos: &Position, bit: u32) -> u8 {
        pos.at(bit).map_or(0, |(c, s)| self.digit(c, s))
    }

    /// The digits of `class`'s cells in `pos`.
    pub fn digits(&self, pos: &Position, class: Class) -> Vec<u8> {
        self.cells(class).iter().map(|&b| self.digit_at(pos, b)).collect()
    }

    /// The code of `class` in `pos`.
    pub fn code(&self, pos: &Position, class: Class) -> u64 {
        let base = u64::from(self.base);
        self.cells(class)
            .iter()
            .fold(0, |c, &b| c * base + u64::from(self.digit_at(pos, b)))
    }

    /// The digits of a code of `n` cells, most significant first.
    #[inline]
    pub fn decode(&self, mut code: u64, n: usize) -> Vec<u8> {
        let base = u64::from(self.base);
        let mut d = vec![0u8; n];
        for slot in d.iter_mut().rev() {
            *slot = (code % base) as u8;
            code /= base;
        }
        d
    }

    /// `pos` with the digits `digits` put on `class`'s cells.
    #[inline]
    pub fn place(&self, mut pos: Position, class: Class, digits: &[u8]) -> Position {
        for (&bit, &d) in self.cells(class).iter().zip(digits) {
            if d != 0 {
                let (c, s) = self.piece(d);
                pos = pos.with(bit, c, s);
            }
        }
        pos
    }

    /// The pieces of `class` in `pos`, by kind.
    #[inline]
    pub fn counts(&self, pos: &Position, class: Class) -> Counts {
        let m = self.bits[slot(class)];
        let mut out = [0u8; 6];
        for (k, color) in [Color::Red, Color::Black].into_iter().enumerate() {
            for (j, size) in Size::ALL.into_iter().enumerate() {
                out[3 * k + j] = (pos.of(color) & pos.sized(size) & m).count_ones() as u8;
            }
        }
        out
    }

    /// The class `pos` was (or is being) filled from: `None` on the empty
    /// board. A full board is read with the odd class first when Red holds
    /// the first class's share of it.
    pub fn first(&self, pos: &Position) -> Option<Class> {
        let occ = pos.occupied();
        let [odd, even] = self.bits;
        match (occ & odd != 0, occ & even != 0) {
            (false, false) => None,
            (true, false) => Some(Class::Odd),
            (false, true) => Some(Class::Even),
            (true, true) if occ & odd == odd && occ & even == even => {
                if (pos.red & odd).count_ones() == odd.count_ones().div_ceil(2) {
                    Some(Class::Odd)
                } else {
                    Some(Class::Even)
                }
            }
            (true, true) if occ & odd == odd => Some(Class::Odd),
            (true, true) => Some(Class::Even),
        }
    }

    /// The canonical form of `pos` (see the module's text).
    pub fn canonical(&self, pos: &Position) -> Position {
        let shape = self.game.shape();
        let mut best: Option<((u64, u64), Position)> = None;
        for r in Reflection::ALL {
            let img = r.apply(shape, pos);
            let Some(f) = self.first(&img) else {
                return *pos;
            };
            if !self.preferred(f) {
                continue;
            }
            let key = (self.code(&img, f), self.code(&img, f.other()));
            if best.is_none_or(|(k, _)| key < k) {
                best = Some((key, img));
            }
        }
        best.map_or(*pos, |b| b.1)
    }

    /// The tier of `pos`'s canonical form.
    pub fn tier_of(&self, pos: &Position) -> Tier {
        self.tier_of_canonical(&self.canonical(pos))
    }

    /// The tier of `pos`, which is canonical.
    fn tier_of_canonical(&self, pos: &Position) -> Tier {
        let Some(first) = self.first(pos) else {
            return Tier::Start;
        };
        let a = self.bits[slot(first)];
        if pos.occupied() & a == a {
            Tier::Closed {
                first,
                full: self.counts(pos, first),
                second: self.counts(pos, first.other()),
            }
        } else {
            Tier::Open {
                first,
                pieces: self.counts(pos, first),
            }
        }
    }

    /// The digits' multiset of a class of `n` cells holding `counts`:
    /// how many cells take each digit.
    pub fn multiset(&self, n: usize, counts: &Counts) -> Vec<u8> {
        let mut m = vec![0u8; usize::from(self.base)];
        let mut placed = 0;
        for (k, &c) in counts.iter().enumerate() {
            if c > 0 {
                m[usize::from(self.digit_of_slot(k))] += c;
                placed += usize::from(c);
            }
        }
        m[0] = (n - placed) as u8;
        m
    }

    /// The canonical codes of a full `first` class holding `full`, in
    /// increasing order: those least among their images under the
    /// reflections that keep the class.
    pub fn full_codes(&self, first: Class, full: Counts) -> Arc<Vec<u64>> {
        let mut map = self.full_codes.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(list) = map.get(&(first, full)) {
            return Arc::clone(list);
        }
        let n = self.cells(first).len();
        let shape = self.game.shape();
        let list: Vec<u64> = arrangements(&self.multiset(n, &full), usize::from(self.base))
            .filter(|&code| {
                let pos = self.place(Position::EMPTY, first, &self.decode(code, n));
                self.keeping(first)
                    .iter()
                    .all(|r| self.code(&r.apply(shape, &pos), first) >= code)
            })
            .collect();
        let list = Arc::new(list);
        map.insert((first, full), Arc::clone(&list));
        list
    }

    /// The pieces by kind `color` places in all.
    fn inventory(&self, color: Color) -> [u8; 3] {
        Size::ALL.map(|s| self.game.inventory(color, s) as u8)
    }

    /// Every way to hold `red` of Red's pieces and `black` of Black's
    /// within `left` (pieces by kind not yet placed).
    fn splits(&self, red: u8, black: u8, left: &Counts) -> Vec<Counts> {
        let mut out = Vec::new();
        for r in holdings(red, [left[0], left[1], left[2]]) {
            for b in holdings(black, [left[3], left[4], left[5]]) {
                out.push([r[0], r[1], r[2], b[0], b[1], b[2]]);
            }
        }
        out
    }

    /// Red's pieces after `placed` pieces in all (Red moves first).
    pub fn red_after(placed: usize) -> u8 {
        placed.div_ceil(2) as u8
    }

    /// Every tier: the start, the open tiers, then the closed ones, each
    /// group by first class and pieces placed.
    pub fn tiers(&self) -> Vec<Tier> {
        let all: Counts = {
            let (r, b) = (self.inventory(Color::Red), self.inventory(Color::Black));
            [r[0], r[1], r[2], b[0], b[1], b[2]]
        };
        let mut out = vec![Tier::Start];
        for first in self.firsts() {
            let n = self.cells(first).len();
            for k in 1..n {
                let red = Self::red_after(k);
                for pieces in self.splits(red, k as u8 - red, &all) {
                    out.push(Tier::Open { first, pieces });
                }
            }
        }
        for first in self.firsts() {
            let na = self.cells(first).len();
            let nb = self.cells(first.other()).len();
            let red_a = Self::red_after(na);
            for full in self.splits(red_a, na as u8 - red_a, &all) {
                let left = std::array::from_fn(|k| all[k] - full[k]);
                for j in 0..=nb {
                    let red = Self::red_after(na + j) - red_a;
                    for second in self.splits(red, j as u8 - red, &left) {
                        out.push(Tier::Closed { first, full, second });
                    }
                }
            }
        }
        out
    }

    /// Pieces on the board in `tier`'s positions.
    pub fn placed(&self, tier: Tier) -> u32 {
        let sum = |c: &Counts| c.iter().map(|&n| u32::from(n)).sum::<u32>();
        match tier {
            Tier::Start => 0,
            Tier::Open { pieces, .. } => sum(&pieces),
            Tier::Closed { full, second, .. } => sum(&full) + sum(&second),
        }
    }

    /// The number of indices of `tier`.
    pub fn size(&self, tier: Tier) -> u64 {
        match tier {
            Tier::Start => 1,
            Tier::Open { first, pieces } => multinomial(&self.multiset(self.cells(first).len(), &pieces)),
            Tier::Closed { first, full, second } => {
                let nb = self.cells(first.other()).len();
                self.full_codes(first, full).len() as u64 * multinomial(&self.multiset(nb, &second))
            }
        }
    }

    /// The index of `pos`'s canonical form in its tier; `u64::MAX` for a
    /// board that is no position of play.
    pub fn index(&self, pos: &Position) -> u64 {
        let c = self.canonical(pos);
        match self.tier_of_canonical(&c) {
            Tier::Start => 0,
            Tier::Open { first, pieces } => {
                let n = self.cells(first).len();
                rank(self.digits(&c, first), &self.multiset(n, &pieces))
            }
            Tier::Closed { first, full, second } => {
                let nb = self.cells(first.other()).len();
                let m = self.multiset(nb, &second);
                match self.full_codes(first, full).binary_search(&self.code(&c, first)) {
                    Ok(a) => a as u64 * multinomial(&m) + rank(self.digits(&c, first.other()), &m),
                    Err(_) => u64::MAX,
                }
            }
        }
    }

    /// The canonical position at `index` of `tier`, if that index names
    /// one.
    pub fn position(&self, tier: Tier, index: u64) -> Option<Position> {
        if index >= self.size(tier) {
            return None;
        }
        let pos = match tier {
            Tier::Start => Position::EMPTY,
            Tier::Open { first, pieces } => {
                let n = self.cells(first).len();
                let digits = arrangement(index, &self.multiset(n, &pieces));
                self.place(Position::EMPTY, first, &digits)
            }
            Tier::Closed { first, full, second } => {
                let (na, nb) = (self.cells(first).len(), self.cells(first.other()).len());
                let m = self.multiset(nb, &second);
                let per = multinomial(&m);
                let codes = self.full_codes(first, full);
                let a = self.decode(codes[(index / per) as usize], na);
                let b = arrangement(index % per, &m);
                self.place(self.place(Position::EMPTY, first, &a), first.other(), &b)
            }
        };
        (self.canonical(&pos) == pos && self.tier_of_canonical(&pos) == tier).then_some(pos)
    }

    /// The tiers the moves of `tier`'s positions lead to.
    pub fn child_tiers(&self, tier: Tier) -> Vec<Tier> {
        let all = |c: Color| self.inventory(c);
        let add = |counts: Counts, k: usize| {
            let mut c = counts;
            c[k] += 1;
            c
        };
        let mover_slots = |placed: usize, used: &Counts| -> Vec<usize> {
            let (color, base) = if placed.is_multiple_of(2) {
                (Color::Red, 0)
            } else {
                (Color::Black, 3)
            };
            (0..3)
                .filter(|&j| used[base + j] < all(color)[j])
                .map(|j| base + j)
                .collect()
        };
        match tier {
            Tier::Start => self
                .firsts()
                .into_iter()
                .flat_map(|first| {
                    mover_slots(0, &[0; 6]).into_iter().map(move |k| {
                        let pieces = add([0; 6], k);
                        Tier::Open { first, pieces }
                    })
                })
                .collect(),
            Tier::Open { first, pieces } => {
                let k: usize = pieces.iter().map(|&c| usize::from(c)).sum();
                let n = self.cells(first).len();
                mover_slots(k, &pieces)
                    .into_iter()
                    .map(|s| {
                        let next = add(pieces, s);
                        if k + 1 == n {
                            Tier::Closed {
                                first,
                                full: next,
                                second: [0; 6],
                            }
                        } else {
                            Tier::Open { first, pieces: next }
                        }
                    })
                    .collect()
            }
            Tier::Closed { first, full, second } => {
                let j: usize = second.iter().map(|&c| usize::from(c)).sum();
                if j == self.cells(first.other()).len() {
                    return Vec::new();
                }
                let (na, nb) = (self.cells(first).len(), self.cells(first.other()).len());
                let used: Counts = std::array::from_fn(|k| full[k] + second[k]);
                let mut out: Vec<Tier> = mover_slots(na + j, &used)
                    .into_iter()
                    .flat_map(|s| {
                        let second = add(second, s);
                        if j + 1 == nb {
                            self.full_board_tiers(first, full, second)
                        } else {
                            vec![Tier::Closed { first, full, second }]
                        }
                    })
                    .collect();
                out.sort();
                out.dedup();
                out
            }
        }
    }

    /// The tiers a full board whose class `first` holds `full` and the
    /// other `second` may be stored in. A full board does not show which
    /// class was filled first: it is read as [`Layout::first`] reads it;
    /// on a board with an even number of rows its top–bottom image, which
    /// swaps the classes, is read so too, and the canonical form is
    /// whichever image is least.
    fn full_board_tiers(&self, first: Class, full: Counts, second: Counts) -> Vec<Tier> {
        let red = |c: &Counts| usize::from(c[0] + c[1] + c[2]);
        let (odd, even) = match first {
            Class::Odd => (full, second),
            Class::Even => (second, full),
        };
        let fits = |c: Class, counts: &Counts| red(counts) == self.cells(c).len().div_ceil(2);
        let closed = |first: Class, full: Counts, second: Counts| Tier::Closed { first, full, second };
        if self.game.shape().rows() % 2 == 1 {
            return vec![if fits(Class::Odd, &odd) {
                closed(Class::Odd, odd, even)
            } else {
                closed(Class::Even, even, odd)
            }];
        }
        // Both classes have the same cells; the reflection maps either
        // onto the odd one, keeping every count.
        let mut out = Vec::new();
        if fits(Class::Odd, &odd) {
            out.push(closed(Class::Odd, odd, even));
        }
        if fits(Class::Even, &even) {
            out.push(closed(Class::Odd, even, odd));
        }
        out
    }

    /// A tier's name, e.g. `start`, `odd.r1.0.0-b1.0.0` or
    /// `odd.r2.1.1-b2.1.1+r1.0.0-b0.0.0`.
    pub fn tier_name(tier: Tier) -> String {
        let c = |x: &Counts| format!("r{}.{}.{}-b{}.{}.{}", x[0], x[1], x[2], x[3], x[4], x[5]);
        match tier {
            Tier::Start => "start".into(),
            Tier::Open { first, pieces } => format!("{}.{}", first.name(), c(&pieces)),
            Tier::Closed { first, full, second } => format!("{}.{}+{}", first.name(), c(&full), c(&second)),
        }
    }
}

/// The arrangement of the multiset `m` at `index` in the shared
/// numbering ([`topitop_game_api::rank`]), as digits.
pub fn arrangement(index: u64, m: &[u8]) -> Vec<u8> {
    let mut digits = vec![0; m.iter().map(|&c| usize::from(c)).sum()];
    unrank(index, m, &mut digits);
    digits
}

/// Every arrangement of the multiset `m` (how many of each of `base`
/// digits), as codes in increasing order.
pub fn arrangements(m: &[u8], base: usize) -> impl Iterator<Item = u64> {
    let mut digits: Vec<u8> = m
        .iter()
        .enumerate()
        .flat_map(|(d, &c)| std::iter::repeat_n(d as u8, usize::from(c)))
        .collect();
    let mut first = true;
    std::iter::from_fn(move || {
        if !first && !next_permutation(&mut digits) {
            return None;
        }
        first = false;
        Some(digits.iter().fold(0u64, |c, &d| c * base as u64 + u64::from(d)))
    })
}

/// Steps `d` to the next arrangement in increasing order; false after the
/// last.
fn next_permutation(d: &mut [u8]) -> bool {
    let Some(i) = (1..d.len()).rev().find(|&i| d[i - 1] < d[i]) else {
        return false;
    };
    let j = (i..d.len()).rev().find(|&j| d[j] > d[i - 1]).unwrap_or(i);
    d.swap(i - 1, j);
    d[i..].reverse();
    true
}

/// Every way to hold `n` of one colour's pieces, by size (small, medium,
/// large), within `left` of each.
pub fn holdings(n: u8, left: [u8; 3]) -> Vec<[u8; 3]> {
    let mut v = Vec::new();
    for s in 0..=left[0].min(n) {
        for m in 0..=left[1].min(n - s) {
            let l = n - s - m;
            if l <= left[2] {
                v.push([s, m, l]);
            }
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_follow_the_order_of_codes() {
        let m = [2u8, 1, 0, 1];
        let codes: Vec<u64> = arrangements(&m, 4).collect();
        assert_eq!(codes.len() as u64, multinomial(&m));
        assert!(codes.windows(2).all(|w| w[0] < w[1]));
        for (i, &c) in codes.iter().enumerate() {
            let digits: Vec<u8> = (0..4).rev().map(|k| (c / 4u64.pow(k) % 4) as u8).collect();
            assert_eq!(rank(digits.iter().copied(), &m), i as u64);
            assert_eq!(arrangement(i as u64, &m), digits);
        }
    }
}
