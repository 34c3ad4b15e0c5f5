//! Move generation and move application on packed positions.
//!
//! These are the hot loops of perft and the solver, so they work on the
//! packed nibbles directly instead of going through [`crate::Cell`].

use crate::budget::Budget;
use crate::cell::{Cell, Player, ALL_CELLS};
use crate::geometry::{NEIGHBOURS, SLIDE_IDS};
use crate::moves::{Move, MoveList, Piece};
use crate::position::Position;

/// `TARGETS[player][src]`: bit `t` set when `player` may slide a `src` cell
/// onto a `t` cell.
const TARGETS: [[u16; 10]; 2] = {
    let mut t = [[0u16; 10]; 2];
    let players = [Player::Blue, Player::Red];
    let mut p = 0;
    while p < 2 {
        let mut s = 0;
        while s < 10 {
            let mut d = 0;
            while d < 10 {
                if ALL_CELLS[s].slide_result(ALL_CELLS[d], players[p]).is_some() {
                    t[p][s] |= 1 << d;
                }
                d += 1;
            }
            s += 1;
        }
        p += 1;
    }
    t
};

/// `RESULT[src][dst]`: the code of what a slide of `src` onto `dst` leaves.
const RESULT: [[u8; 10]; 10] = {
    let mut r = [[0u8; 10]; 10];
    let mut s = 0;
    while s < 10 {
        let mut d = 0;
        while d < 10 {
            if let Some(c) = ALL_CELLS[s].stack_onto(ALL_CELLS[d]) {
                r[s][d] = c as u8;
            }
            d += 1;
        }
        s += 1;
    }
    r
};

const BOARD_SHIFT: u32 = 8;

#[inline(always)]
const fn cell_shift(i: usize) -> u32 {
    BOARD_SHIFT + 4 * (8 - i as u32)
}

#[inline(always)]
const fn nibble(bits: u64, i: usize) -> usize {
    ((bits >> cell_shift(i)) & 15) as usize
}

/// Writes the non-pass moves of `pos` into `out` (emptied first) in
/// GamesmanClassic's order: cells in ascending order as destinations; on an
/// empty cell the placements (own bucket, small, large) and then the slides
/// from its neighbours in ascending order; on an occupied cell the stacking
/// slides onto it.
///
/// Every candidate is written and kept or not by a flag, with no branch:
/// on real positions the branches were unpredictable and cost more than
/// the writes.
#[inline]
pub(crate) fn generate(pos: Position, budget: Budget, out: &mut MoveList) {
    out.clear();
    let used = pos.board().pieces_used();
    let total = budget.counts();
    let turn = pos.turn();
    let (bucket, has_bucket) = match turn {
        Player::Blue => (Piece::BlueBucket, used[0] < total[0]),
        Player::Red => (Piece::RedBucket, used[1] < total[1]),
    };
    let g = Generator {
        bits: pos.bits(),
        targets: &TARGETS[turn as usize],
        bucket,
        has_bucket,
        small: used[2] < total[2],
        large: used[3] < total[3],
        forbidden: pos.forbidden_id(),
    };
    // One call per destination cell, each with its neighbours known at
    // compile time, so that every loop unrolls.
    g.onto::<0>(out);
    g.onto::<1>(out);
    g.onto::<2>(out);
    g.onto::<3>(out);
    g.onto::<4>(out);
    g.onto::<5>(out);
    g.onto::<6>(out);
    g.onto::<7>(out);
    g.onto::<8>(out);
}

/// What move generation needs to know of a position.
struct Generator {
    bits: u64,
    /// `TARGETS` of the side to move.
    targets: &'static [u16; 10],
    bucket: Piece,
    has_bucket: bool,
    small: bool,
    large: bool,
    /// The forbidden slide's id; 0 (none) never matches a slide.
    forbidden: u8,
}

impl Generator {
    /// The moves onto cell `TO`: placements if it is empty, then slides
    /// from its neighbours in ascending order.
    #[inline(always)]
    fn onto<const TO: usize>(&self, out: &mut MoveList) {
        let dst = nibble(self.bits, TO);
        let empty = dst == Cell::Empty as usize;
        out.push_if(Move::place(self.bucket, TO), empty & self.has_bucket);
        out.push_if(Move::place(Piece::Small, TO), empty & self.small);
        out.push_if(Move::place(Piece::Large, TO), empty & self.large);
        for &from in NEIGHBOURS[TO] {
            let from = from as usize;
            // Bit 0 of a target set is the empty cell, so one test serves
            // slides onto empty and onto occupied cells.
            let allowed = self.targets[nibble(self.bits, from)] >> dst & 1 != 0;
            // Only a slide onto an empty cell can be the forbidden one.
            let forbidden = empty & (SLIDE_IDS[from][TO] == self.forbidden);
            out.push_if(Move::slide(from, TO), allowed & !forbidden);
        }
    }
}

/// Plays `m` in `pos` without checking that it is legal there.
///
/// The turn passes; a slide of S, L or C onto an empty cell forbids its
/// reverse for the next move; every other move clears the restriction.
/// The result of an illegal move is some position, but not a meaningful one.
#[inline]
pub fn play_unchecked(pos: Position, m: Move) -> Position {
    const TURN_BIT: u64 = 1 << 48;
    let bits = (pos.bits() & !0xFF) ^ TURN_BIT;
    if m.is_pass() {
        // Position bits with the slide id cleared and the turn flipped.
        return position_from_bits(bits);
    }
    let code = m.code() as usize;
    let to = code & 15;
    let from = (code >> 4) & 15;
    // A placement has from == to on an empty cell: the slide formulas
    // below then clear that cell, leave it empty and forbid nothing, and
    // the piece is added. No branch between the two kinds of move.
    let placement = u64::from(to == from) * (((code >> 8) & 3) as u64 + 1);
    let src = nibble(bits, from);
    let dst = nibble(bits, to);
    let res = RESULT[src][dst] as u64 + placement;
    let cleared = bits & !(15 << cell_shift(to)) & !(15 << cell_shift(from));
    let forbid = SLIDE_IDS[to][from] & RESTRICTS[src][dst];
    position_from_bits(cleared | res << cell_shift(to) | forbid as u64)
}

/// `RESTRICTS[src][dst]`: all ones when a slide of `src` onto `dst` forbids
/// its reverse (a neutral S, L or C onto an empty cell), else 0.
const RESTRICTS: [[u8; 10]; 10] = {
    let mut r = [[0u8; 10]; 10];
    let mut s = 0;
    while s < 10 {
        if ALL_CELLS[s].is_neutral() {
            r[s][Cell::Empty as usize] = 0xFF;
        }
        s += 1;
    }
    r
};

#[inline(always)]
fn position_from_bits(bits: u64) -> Position {
    crate::position::from_bits_trusted(bits)
}
