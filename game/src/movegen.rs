//! Move generation and move application on packed positions.
//!
//! These are the hot loops of perft and the solver, so they work on the
//! packed nibbles directly instead of going through [`crate::Cell`].

use crate::budget::Budget;
use crate::cell::{Cell, Player, ALL_CELLS};
use crate::geometry::{CELLS, NEIGHBOURS, SLIDE_IDS};
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

/// Appends the non-pass moves of `pos` in GamesmanClassic's order: cells in
/// ascending order as destinations; on an empty cell the placements (own
/// bucket, small, large) and then the slides from its neighbours in
/// ascending order; on an occupied cell the stacking slides onto it.
#[inline]
pub(crate) fn generate(pos: Position, budget: Budget, out: &mut MoveList) {
    let bits = pos.bits();
    let turn = pos.turn();
    let used = pos.board().pieces_used();
    let total = budget.counts();
    let bucket = match turn {
        Player::Blue => (used[0] < total[0]).then_some(Piece::BlueBucket),
        Player::Red => (used[1] < total[1]).then_some(Piece::RedBucket),
    };
    let small = used[2] < total[2];
    let large = used[3] < total[3];
    let targets = &TARGETS[turn as usize];
    // Only a slide onto an empty cell can be the forbidden one; 0 never matches.
    let forbidden = pos.forbidden_id();
    for to in 0..CELLS {
        let dst = nibble(bits, to);
        if dst == Cell::Empty as usize {
            if let Some(b) = bucket {
                out.push(Move::place(b, to));
            }
            if small {
                out.push(Move::place(Piece::Small, to));
            }
            if large {
                out.push(Move::place(Piece::Large, to));
            }
            for &from in NEIGHBOURS[to] {
                let from = from as usize;
                let src = nibble(bits, from);
                if targets[src] & 1 != 0 && SLIDE_IDS[from][to] != forbidden {
                    out.push(Move::slide(from, to));
                }
            }
        } else {
            for &from in NEIGHBOURS[to] {
                let from = from as usize;
                if targets[nibble(bits, from)] >> dst & 1 != 0 {
                    out.push(Move::slide(from, to));
                }
            }
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
    if to == from {
        let cell = ((code >> 8) & 3) as u64 + 1;
        return position_from_bits(bits & !(15 << cell_shift(to)) | cell << cell_shift(to));
    }
    let src = nibble(bits, from);
    let dst = nibble(bits, to);
    let res = RESULT[src][dst] as u64;
    let mut b = bits & !(15 << cell_shift(to)) & !(15 << cell_shift(from));
    b |= res << cell_shift(to);
    if dst == Cell::Empty as usize && ALL_CELLS[src].is_neutral() {
        b |= SLIDE_IDS[to][from] as u64;
    }
    position_from_bits(b)
}

#[inline(always)]
fn position_from_bits(bits: u64) -> Position {
    crate::position::from_bits_trusted(bits)
}
