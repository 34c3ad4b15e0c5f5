//! Step 1 of the solve, and of the check: the small games of full first
//! classes, over their [`Template`].

use games_topolo::layout::{Counts, Layout};
use games_topolo::{Class, Color, Position};
use rayon::prelude::*;

use crate::images::ImageMap;
use crate::plan::Plan;
use crate::score::Scorer;
use crate::solve::Counting;
use crate::subgame::Template;
use crate::values::{Values, LOSE, TIE, WIN};

/// Step 1 for one first class and its pieces: every canonical full first
/// class of them, solved over their template.
pub fn solve_template(
    plan: &Plan,
    first: Class,
    full: Counts,
    values: &Values,
    counting: &Counting,
    tick: &(dyn Fn() + Sync),
) {
    let layout = plan.layout();
    let t = Template::new(layout, first, full);
    let codes = layout.full_codes(first, full);
    let sub = Subgames::new(layout, &t);
    let slots: Vec<(usize, u64)> = t
        .tiers
        .iter()
        .map(|tt| plan.place(tt.tier).unwrap_or((0, 0)))
        .collect();
    let local_counts = codes
        .par_iter()
        .enumerate()
        .fold(
            || (vec![0u8; t.len()], vec![[0u64; 4]; t.tiers.len()]),
            |(mut buf, mut counts), (a_rank, &a_code)| {
                let a = sub.first_class(a_code);
                sub.settle(&a, &mut buf, None);
                // Written into each tier's row, and counted.
                for (k, tt) in t.tiers.iter().enumerate() {
                    let (_, at) = slots[k];
                    values.put_run(
                        at + a_rank as u64 * tt.len as u64,
                        &buf[tt.start..tt.start + tt.len],
                    );
                }
                sub.count(a_code, &buf, &mut counts);
                tick();
                (buf, counts)
            },
        )
        .map(|(_, c)| c)
        .reduce(|| vec![[0u64; 4]; t.tiers.len()], add_counts);
    for (k, c) in local_counts.iter().enumerate() {
        counting.add(slots[k].0, c);
    }
}

/// Sums counts tier by tier.
pub fn add_counts(mut x: Vec<[u64; 4]>, y: Vec<[u64; 4]>) -> Vec<[u64; 4]> {
    for (a, b) in x.iter_mut().zip(&y) {
        for (slot, n) in a.iter_mut().zip(b) {
            *slot += n;
        }
    }
    x
}

/// The per-state part of [`Subgames`]: each state's second class under
/// each reflection, and its tier in the template.
pub struct StateParts {
    bimg: Vec<[u64; 4]>,
    tier_of_state: Vec<u16>,
}

/// What every full first class of one template shares, to solve, check
/// and count it.
pub struct Subgames<'a> {
    /// The template.
    pub t: &'a Template,
    /// The board's layout.
    pub layout: &'a Layout,
    /// Scores full boards.
    pub scorer: Scorer,
    /// The first class's cells under each reflection.
    pub amap: ImageMap,
    /// Each state's second class under each reflection.
    pub bimg: Vec<[u64; 4]>,
    /// A full board of this template is read with the other class first,
    /// and stored there: on an odd number of rows, when its odd class
    /// holds the first class's share of Red.
    pub full_elsewhere: bool,
    /// On an even number of rows, a full board's images that swap the
    /// classes are candidates for its canonical form.
    pub swap_fits: bool,
    /// Each state's tier in the template.
    pub tier_of_state: Vec<u16>,
}

impl<'a> Subgames<'a> {
    /// What the full first classes of template `t` share.
    pub fn new(layout: &'a Layout, t: &'a Template) -> Subgames<'a> {
        Subgames::with_parts(layout, t, Subgames::parts(layout, t))
    }

    /// The part of [`Subgames::new`] that takes time in proportion to the
    /// template's states: each state's images and tier. A process solving
    /// a template's small games in several units makes it once
    /// ([`Subgames::into_parts`]).
    pub fn parts(layout: &Layout, t: &Template) -> StateParts {
        let nb = layout.cells(t.first.other()).len();
        let base = u64::from(layout.base());
        let bmap = ImageMap::new(layout, t.first.other());
        let bimg: Vec<[u64; 4]> = t
            .codes
            .par_iter()
            .map(|&c| {
                let d = layout.decode(c, nb);
                std::array::from_fn(|r| bmap.image(r, &d, base))
            })
            .collect();
        let tier_of_state = t
            .tiers
            .iter()
            .enumerate()
            .flat_map(|(k, tt)| std::iter::repeat_n(k as u16, tt.len))
            .collect();
        StateParts { bimg, tier_of_state }
    }

    /// Gives back the parts [`Subgames::parts`] made, for the next unit
    /// of the same template.
    pub fn into_parts(self) -> StateParts {
        StateParts {
            bimg: self.bimg,
            tier_of_state: self.tier_of_state,
        }
    }

    /// [`Subgames::new`] from the parts [`Subgames::parts`] made for `t`.
    pub fn with_parts(layout: &'a Layout, t: &'a Template, parts: StateParts) -> Subgames<'a> {
        let game = layout.game();
        let (first, full) = (t.first, t.full);
        let nb = layout.cells(first.other()).len();
        let StateParts { bimg, tier_of_state } = parts;
        let rows_odd = game.shape().rows() % 2 == 1;
        let red_total = game.pieces(Color::Red) as usize;
        let red_b = red_total - usize::from(full[0] + full[1] + full[2]);
        let odd_cells = layout.cells(Class::Odd).len();
        Subgames {
            t,
            layout,
            scorer: Scorer::new(game.shape(), game.variant()),
            amap: ImageMap::new(layout, first),
            bimg,
            full_elsewhere: rows_odd && first == Class::Even && red_b == odd_cells.div_ceil(2),
            swap_fits: !rows_odd && red_b == nb.div_ceil(2),
            tier_of_state,
        }
    }

    /// The position of the full first class of code `a_code`.
    pub fn first_class(&self, a_code: u64) -> Position {
        let na = self.layout.cells(self.t.first).len();
        self.layout
            .place(Position::EMPTY, self.t.first, &self.layout.decode(a_code, na))
    }

    /// Each state's value from its children (full boards scored) into
    /// `buf`; or, given `bad`, each state's value in `buf` checked against
    /// its children's in `buf`, the states that fail pushed to `bad`.
    pub fn settle(&self, a: &Position, buf: &mut [u8], mut bad: Option<&mut Vec<usize>>) {
        let t = self.t;
        let mover_red = t.mover_at_end == Color::Red;
        for (s, b) in (t.first_full..t.len()).zip(&t.full_boards) {
            let red = a.red | b[0];
            let black = a.black | b[1];
            let (mine, theirs) = if mover_red { (red, black) } else { (black, red) };
            let v = match self.scorer.score(mine, theirs, a.mid | b[2], a.large | b[3]) {
                1 => WIN,
                -1 => LOSE,
                _ => TIE,
            };
            match bad.as_deref_mut() {
                Some(bad) if buf[s] != v => bad.push(s),
                Some(_) => {}
                None => buf[s] = v,
            }
        }
        for s in (0..t.first_full).rev() {
            let (lo, hi) = (t.child_start[s] as usize, t.child_start[s + 1] as usize);
            let mut tie = false;
            let mut win = false;
            for &c in &t.children[lo..hi] {
                match buf[c as usize] {
                    LOSE => {
                        win = true;
                        break;
                    }
                    TIE => tie = true,
                    _ => {}
                }
            }
            let v = if win {
                WIN
            } else if tie {
                TIE
            } else {
                LOSE
            };
            match bad.as_deref_mut() {
                Some(bad) if buf[s] != v => bad.push(s),
                Some(_) => {}
                None => buf[s] = v,
            }
        }
    }

    /// Adds the canonical positions among the states (values in `buf`) of
    /// the full first class `a_code` to `counts`, by tier: by value, and
    /// the positions they stand for.
    pub fn count(&self, a_code: u64, buf: &[u8], counts: &mut [[u64; 4]]) {
        let t = self.t;
        let base = u64::from(self.layout.base());
        let amap = &self.amap;
        let ad = self.layout.decode(a_code, self.layout.cells(t.first).len());
        let aimg: [u64; 4] = std::array::from_fn(|r| amap.image(r, &ad, base));
        let symmetric = (1..4).any(|r| amap.keeps[r] && aimg[r] == a_code);
        for s in 0..t.len() {
            let is_full = s >= t.first_full;
            let (canonical, orbit) = if !is_full && !symmetric {
                (true, 4)
            } else if is_full && self.full_elsewhere {
                (false, 0)
            } else {
                let pair = |r: usize| {
                    if amap.keeps[r] {
                        (aimg[r], self.bimg[s][r])
                    } else {
                        (self.bimg[s][r], aimg[r])
                    }
                };
                let own = (a_code, t.codes[s]);
                let canonical = (1..4).all(|r| {
                    let candidate = amap.keeps[r] || (is_full && self.swap_fits);
                    !candidate || pair(r) >= own
                });
                let mut seen = [own, pair(1), pair(2), pair(3)];
                seen.sort_unstable();
                let distinct = 1 + seen.windows(2).filter(|w| w[0] != w[1]).count();
                (canonical, distinct as u64)
            };
            if canonical {
                let k = usize::from(self.tier_of_state[s]);
                counts[k][usize::from(buf[s])] += 1;
                counts[k][3] += orbit;
            }
        }
    }
}
