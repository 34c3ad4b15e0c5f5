//! The small game of a full first class: once the first class is full, its
//! pieces never change, and the positions that share them are the second
//! class filling up. Every full first class of the same pieces by kind
//! has the same second-class states and moves; a [`Template`] holds them
//! once, and each full first class is solved over it in a few megabytes.

use std::collections::HashMap;

use games_topolo::layout::{arrangements, Counts, Layout, Tier};
use games_topolo::{Class, Color, Position, Size};
use topitop_game_api::rank::multinomial;

/// One tier of a template: the second class's pieces by kind, and where
/// its states are.
#[derive(Clone, Debug)]
pub struct TemplateTier {
    /// The closed tier this part of the template stands for.
    pub tier: Tier,
    /// The second class's pieces by kind.
    pub second: Counts,
    /// Its first state among the template's.
    pub start: usize,
    /// Its states: the arrangements of its multiset.
    pub len: usize,
}

/// The states and moves of the second class for one first class and its
/// pieces by kind.
pub struct Template {
    /// The first class.
    pub first: Class,
    /// Its pieces by kind.
    pub full: Counts,
    /// Pieces placed before the second class's first.
    pub placed_before: u32,
    /// The tiers, fewest pieces first (their layout order).
    pub tiers: Vec<TemplateTier>,
    /// Each state's code of the second class, tier by tier, increasing
    /// inside a tier.
    pub codes: Vec<u64>,
    /// The children of state `s` are `children[child_start[s]..child_start[s + 1]]`.
    pub child_start: Vec<u32>,
    /// Children, as states.
    pub children: Vec<u32>,
    /// The first full-board state: every state from it on fills the
    /// board.
    pub first_full: usize,
    /// The second class's cells of each full-board state: Red's, Black's,
    /// mid and large pieces.
    pub full_boards: Vec<[u64; 4]>,
    /// The player to move on a full board.
    pub mover_at_end: Color,
}

impl Template {
    /// The template of `first` holding `full` on `layout`'s board.
    pub fn new(layout: &Layout, first: Class, full: Counts) -> Template {
        let game = layout.game();
        let second_class = first.other();
        let nb = layout.cells(second_class).len();
        let placed_before = layout.cells(first).len() as u32;
        let base = u64::from(layout.base());
        let tiers: Vec<Tier> = layout
            .tiers()
            .into_iter()
            .filter(|t| matches!(t, Tier::Closed { first: f, full: a, .. } if *f == first && *a == full))
            .collect();
        let mut out_tiers = Vec::with_capacity(tiers.len());
        let mut codes = Vec::new();
        for tier in tiers {
            let Tier::Closed { second, .. } = tier else {
                continue;
            };
            let m = layout.multiset(nb, &second);
            let start = codes.len();
            codes.extend(arrangements(&m, usize::from(layout.base())));
            debug_assert_eq!((codes.len() - start) as u64, multinomial(&m));
            out_tiers.push(TemplateTier {
                tier,
                second,
                start,
                len: codes.len() - start,
            });
        }
        let by_second: HashMap<Counts, usize> =
            out_tiers.iter().enumerate().map(|(k, t)| (t.second, k)).collect();
        let inventory = |c: Color| Size::ALL.map(|s| game.inventory(c, s) as u8);
        let (red, black) = (inventory(Color::Red), inventory(Color::Black));
        let total: Counts = [red[0], red[1], red[2], black[0], black[1], black[2]];
        let powers: Vec<u64> = (0..nb).map(|p| base.pow((nb - 1 - p) as u32)).collect();
        let mut child_start = Vec::with_capacity(codes.len() + 1);
        let mut children = Vec::new();
        let mut first_full = codes.len();
        let mut full_boards = Vec::new();
        for t in &out_tiers {
            let j: u32 = t.second.iter().map(|&c| u32::from(c)).sum();
            let placed = placed_before + j;
            let is_full = j as usize == nb;
            if is_full && first_full == codes.len() {
                first_full = t.start;
            }
            let red_moves = placed.is_multiple_of(2);
            let slots = if red_moves { 0..3 } else { 3..6 };
            let open: Vec<usize> = slots.filter(|&k| full[k] + t.second[k] < total[k]).collect();
            for s in t.start..t.start + t.len {
                child_start.push(children.len() as u32);
                let code = codes[s];
                let digits = layout.decode(code, nb);
                if is_full {
                    let pos = layout.place(Position::EMPTY, second_class, &digits);
                    full_boards.push([pos.red, pos.black, pos.mid, pos.large]);
                    continue;
                }
                for (p, &d) in digits.iter().enumerate() {
                    if d != 0 {
                        continue;
                    }
                    for &k in &open {
                        let mut second = t.second;
                        second[k] += 1;
                        let ct = &out_tiers[by_second[&second]];
                        let child = code + u64::from(layout.digit_of_slot(k)) * powers[p];
                        let at = codes[ct.start..ct.start + ct.len]
                            .binary_search(&child)
                            .expect("a child is a state of its tier");
                        children.push((ct.start + at) as u32);
                    }
                }
            }
        }
        child_start.push(children.len() as u32);
        let n = u32::from(game.shape().cells());
        Template {
            first,
            full,
            placed_before,
            tiers: out_tiers,
            codes,
            child_start,
            children,
            first_full,
            full_boards,
            mover_at_end: if n.is_multiple_of(2) {
                Color::Red
            } else {
                Color::Black
            },
        }
    }

    /// States in all.
    pub fn len(&self) -> usize {
        self.codes.len()
    }

    /// True when it has no state (never: the full first class alone is
    /// one).
    pub fn is_empty(&self) -> bool {
        self.codes.is_empty()
    }
}
