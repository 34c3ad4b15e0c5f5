//! Walking a tier's indices in order, as the solver does: each board is
//! the previous one's successor in rank order ([`crate::tier`]), found by
//! changing the last cell that can change and filling the cells after it
//! with their least completion, instead of unranking every index from the
//! start. Both indices of a board (Red, then Blue to move) share it, and
//! a board that is not the least of its images is dropped before the
//! rules are checked, so the solver pays for the checks of canonical
//! positions only.

use crate::position::{Color, Position};
use crate::rules::Topple;
use crate::tier::Tier;

/// A cell's pawn as the rank order counts it: none, Red, Blue.
const NONE: u8 = 0;
const RED: u8 = 1;
const BLUE: u8 = 2;

/// The board being walked, with what each cell leaves to the cells after
/// it.
struct Walk {
    cells: usize,
    heights: [u8; 64],
    pawns: [u8; 64],
    /// Before cell i: the pieces the cells from i on may still hold, and
    /// the Red and Blue pawns they must hold.
    budget: [i64; 65],
    red: [i64; 65],
    blue: [i64; 65],
}

impl Walk {
    /// The walk standing on `pos`'s board, with `budget` pieces placed
    /// and the tier's pawns.
    fn at(pos: &Position, cells: usize, budget: i64, pawns: [u8; 2]) -> Walk {
        let mut w = Walk {
            cells,
            heights: [0; 64],
            pawns: [NONE; 64],
            budget: [0; 65],
            red: [0; 65],
            blue: [0; 65],
        };
        w.budget[0] = budget;
        w.red[0] = i64::from(pawns[0]);
        w.blue[0] = i64::from(pawns[1]);
        for i in 0..cells {
            let pawn = match pos.pawn(i as u8) {
                None => NONE,
                Some(Color::Red) => RED,
                Some(Color::Blue) => BLUE,
            };
            w.set(i, pos.height(i as u8), pawn);
        }
        w
    }

    /// Puts (h, pawn) on cell `i` and carries the counts past it.
    fn set(&mut self, i: usize, h: u8, pawn: u8) {
        self.heights[i] = h;
        self.pawns[i] = pawn;
        self.budget[i + 1] = self.budget[i] - i64::from(h);
        self.red[i + 1] = self.red[i] - i64::from(pawn == RED);
        self.blue[i + 1] = self.blue[i] - i64::from(pawn == BLUE);
    }

    /// Whether the cells after `i` can hold what is left once cell `i`
    /// holds (h, pawn): each pawn wants a cell and a piece of its own.
    fn fits(&self, i: usize, h: u8, pawn: u8) -> bool {
        let budget = self.budget[i] - i64::from(h);
        let red = self.red[i] - i64::from(pawn == RED);
        let blue = self.blue[i] - i64::from(pawn == BLUE);
        let pawns = red + blue;
        red >= 0 && blue >= 0 && budget >= pawns && (self.cells - i - 1) as i64 >= pawns
    }

    /// The cells from `i` on, given their least completion: empty cells,
    /// then Red's pawns on single pieces, then Blue's.
    fn fill_least(&mut self, i: usize) {
        let (red, blue) = (self.red[i] as usize, self.blue[i] as usize);
        let empty = self.cells - i - red - blue;
        for c in i..self.cells {
            let k = c - i;
            let state = if k < empty {
                (0, NONE)
            } else if k < empty + red {
                (1, RED)
            } else {
                (1, BLUE)
            };
            self.set(c, state.0, state.1);
        }
    }

    /// Steps to the next board in rank order; false after the last.
    fn advance(&mut self) -> bool {
        for i in (0..self.cells).rev() {
            let (mut h, mut pawn) = (self.heights[i], self.pawns[i]);
            loop {
                // The next state: the next pawn at this height (a pawn
                // needs a stack), else the next height with none.
                if h >= 1 && pawn < BLUE {
                    pawn += 1;
                } else {
                    h += 1;
                    pawn = NONE;
                }
                if i64::from(h) > self.budget[i] {
                    break;
                }
                if self.fits(i, h, pawn) {
                    self.set(i, h, pawn);
                    self.fill_least(i + 1);
                    return true;
                }
            }
        }
        false
    }

    /// The board as a position of tier `t` with `turn` to move.
    fn position(&self, t: Tier, turn: Color) -> Position {
        let mut pos = Position::start(t.supply);
        pos.reserve = t.reserve;
        pos.turn = turn;
        for i in 0..self.cells {
            pos.heights[i] = self.heights[i];
            match self.pawns[i] {
                RED => pos.put_pawn(i as u8, Color::Red),
                BLUE => pos.put_pawn(i as u8, Color::Blue),
                _ => {}
            }
        }
        pos
    }
}

impl Topple {
    /// [`topitop_game_api::Tiered::walk_positions`] for Topple: the boards
    /// of the indices in `range` of `t`, one after the other.
    pub(crate) fn walk_tier(
        &self,
        t: Tier,
        range: std::ops::Range<u64>,
        canonical_only: bool,
        f: &mut dyn FnMut(u64, &Position),
    ) {
        let end = range.end.min(self.tier_size_of(t));
        if range.start >= end || !self.is_tier(t) {
            return;
        }
        let Some(first) = self.board_at(t, range.start / 2) else {
            return;
        };
        let cells = usize::from(self.shape().cells());
        let placed = i64::from(self.supply() - t.supply);
        let mut walk = Walk::at(&first, cells, placed, t.pawns);
        let mut rank = range.start / 2;
        loop {
            let board = walk.position(t, Color::Red);
            if (!canonical_only || self.is_least_image(&board)) && self.board_at_rest(&board) {
                for turn in Color::BOTH {
                    let i = 2 * rank + turn.index() as u64;
                    if i < range.start || i >= end {
                        continue;
                    }
                    let pos = Position { turn, ..board };
                    if self.plays(&pos) {
                        f(i, &pos);
                    }
                }
            }
            rank += 1;
            if 2 * rank >= end || !walk.advance() {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use topitop_game_api::{Game, Tiered};

    use super::*;

    /// Every index of every tier of small boards: the walk gives what
    /// unranking each index gives, from any starting index.
    #[test]
    fn the_walk_agrees_with_unranking_every_index() {
        for (board, supply) in [("2x2", "s5"), ("2x3", "s6"), ("3x3", "s6")] {
            let g = Topple::from_options(Some(board), Some(supply)).unwrap();
            for t in g.tiers() {
                let size = g.tier_size(t);
                for canonical_only in [false, true] {
                    for start in [0, 1, size / 3, size.saturating_sub(3)] {
                        let mut walked = Vec::new();
                        g.walk_tier(t, start..size, canonical_only, &mut |i, p| walked.push((i, *p)));
                        let want: Vec<(u64, Position)> = (start..size)
                            .filter_map(|i| g.position(t, i).map(|p| (i, p)))
                            .filter(|(_, p)| !canonical_only || Game::canonical(&g, p) == *p)
                            .collect();
                        assert_eq!(walked, want, "{} from {start}", t.name());
                    }
                }
            }
        }
    }
}
