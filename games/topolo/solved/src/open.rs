//! Steps 2 and 3 of the solve, and of the check: the open positions (only
//! the first class holds pieces, and it has empty cells), most pieces
//! first, then the start. Each level reads its children's values, open
//! ones of the level above or closed ones of step 1, through a reader: the
//! values being solved, or a database's.

use std::collections::HashMap;
use std::sync::Arc;

use games_topolo::layout::{arrangements, Counts, Layout, Tier};
use games_topolo::{Class, Color, Position, Size};
use rayon::prelude::*;

use crate::images::ImageMap;
use crate::plan::Plan;
use crate::values::{LOSE, TIE, WIN};

/// Reads the value at an index of a tier.
pub type Reader<'a> = dyn Fn(Tier, u64) -> u8 + Sync + 'a;

/// One open tier's values by index, and its canonical positions by value
/// with the positions they stand for.
pub struct Level {
    /// The open tier these values are of.
    pub tier: Tier,
    /// Its values, by index.
    pub values: Vec<u8>,
    /// Its counts: win, lose, tie, positions.
    pub counts: [u64; 4],
}

/// The value from children's values: a win through a losing child, else a
/// tie through a tying one, else a loss.
pub fn from_children(children: impl IntoIterator<Item = u8>) -> u8 {
    let mut tie = false;
    for c in children {
        match c {
            LOSE => return WIN,
            TIE => tie = true,
            _ => {}
        }
    }
    if tie {
        TIE
    } else {
        LOSE
    }
}

/// The open tiers of `first` with `k` pieces, solved from `read`.
pub fn level(plan: &Plan, first: Class, k: usize, read: &Reader<'_>) -> Vec<Level> {
    let layout = plan.layout();
    let game = layout.game();
    let base = u64::from(layout.base());
    let na = layout.cells(first).len();
    let amap = ImageMap::new(layout, first);
    let powers: Vec<u64> = (0..na).map(|p| base.pow((na - 1 - p) as u32)).collect();
    let r = Size::ALL.map(|s| game.inventory(Color::Red, s) as u8);
    let b = Size::ALL.map(|s| game.inventory(Color::Black, s) as u8);
    let inventory: Counts = [r[0], r[1], r[2], b[0], b[1], b[2]];
    let tiers: Vec<Tier> = plan
        .tiers()
        .iter()
        .copied()
        .filter(|t| {
            matches!(t, Tier::Open { first: f, pieces }
                if *f == first && pieces.iter().map(|&c| usize::from(c)).sum::<usize>() == k)
        })
        .collect();
    let mut out = Vec::with_capacity(tiers.len());
    for tier in tiers {
        let Tier::Open { pieces, .. } = tier else { continue };
        let codes: Vec<u64> =
            arrangements(&layout.multiset(na, &pieces), usize::from(layout.base())).collect();
        let open: Vec<usize> = (if k.is_multiple_of(2) { 0..3 } else { 3..6 })
            .filter(|&s| pieces[s] < inventory[s])
            .collect();
        let children = child_tiers(layout, first, pieces, &open);
        let results: Vec<(u8, [u64; 4])> = codes
            .par_iter()
            .map(|&code| {
                let digits = layout.decode(code, na);
                let kids = digits
                    .iter()
                    .enumerate()
                    .filter(|(_, &d)| d == 0)
                    .flat_map(|(p, _)| open.iter().map(move |&s| (p, s)));
                let v = from_children(kids.map(|(p, s)| {
                    let c = code + u64::from(layout.digit_of_slot(s)) * powers[p];
                    let (tier, list) = &children[&s];
                    // A full first class is stored in its canonical form.
                    let key = if k + 1 == na {
                        let cd = layout.decode(c, na);
                        (0..4)
                            .filter(|&r| amap.keeps[r])
                            .map(|r| amap.image(r, &cd, base))
                            .min()
                            .unwrap_or(c)
                    } else {
                        c
                    };
                    read(*tier, list.binary_search(&key).unwrap_or(0) as u64)
                }));
                // Canonical when least among the images that keep the
                // class (the others start from the other class); it stands
                // for its distinct images, twice as many where the
                // classes swap.
                let imgs: Vec<u64> = (0..4)
                    .filter(|&r| amap.keeps[r])
                    .map(|r| amap.image(r, &digits, base))
                    .collect();
                let mut c = [0u64; 4];
                if imgs.iter().all(|&i| i >= code) {
                    let mut d = imgs.clone();
                    d.sort_unstable();
                    d.dedup();
                    let per = if amap.keeps.iter().all(|&x| x) { 1 } else { 2 };
                    c[usize::from(v)] = 1;
                    c[3] = per * d.len() as u64;
                }
                (v, c)
            })
            .collect();
        let counts = results.iter().fold([0u64; 4], |mut a, r| {
            a.iter_mut().zip(r.1).for_each(|(slot, n)| *slot += n);
            a
        });
        out.push(Level {
            tier,
            values: results.into_iter().map(|r| r.0).collect(),
            counts,
        });
    }
    out
}

/// Each child tier of the open tier `pieces` of `first` by the slot
/// (size and colour) a move fills, among those still in hand (`open`),
/// with its codes in order (an open tier) or its canonical full classes
/// (a closed one, when the move fills the class).
fn child_tiers(
    layout: &Layout,
    first: Class,
    pieces: Counts,
    open: &[usize],
) -> HashMap<usize, (Tier, Arc<Vec<u64>>)> {
    let na = layout.cells(first).len();
    let k: usize = pieces.iter().map(|&c| usize::from(c)).sum();
    open.iter()
        .map(|&s| {
            let mut child = pieces;
            child[s] += 1;
            let entry = if k + 1 == na {
                let tier = Tier::Closed {
                    first,
                    full: child,
                    second: [0; 6],
                };
                (tier, layout.full_codes(first, child))
            } else {
                let m = layout.multiset(na, &child);
                let list = arrangements(&m, usize::from(layout.base())).collect();
                (Tier::Open { first, pieces: child }, Arc::new(list))
            };
            (s, entry)
        })
        .collect()
}

/// The start's value from its children's, read from `read`.
pub fn start(plan: &Plan, read: &Reader<'_>) -> u8 {
    let layout = plan.layout();
    let game = layout.game();
    let s = Position::EMPTY;
    from_children(game.moves(&s).into_iter().map(|mv| {
        let child = game.play(&s, mv);
        read(layout.tier_of(&child), layout.index(&child))
    }))
}
