//! The positions of one board, in a fixed order: its *group*.
//!
//! A board can be reached with either side to move and with no forbidden
//! slide or with one of its *plausible* forbidden slides: a neutral S, L or
//! C on the source cell and the destination empty (only such a slide sets
//! the no-undo restriction). A board with k plausible slides therefore has
//! a group of 2·(1 + k) positions: Blue to move with nothing forbidden, then
//! with each plausible slide by id; then the same for Red. Each half (one
//! side to move) shares its move list up to the one forbidden slide, which
//! is what the solver exploits, and the database stores groups whole.

use crate::board::Board;
use crate::cell::{Cell, Player};
use crate::geometry::{Slide, CELLS, SLIDE_COUNT, SLIDE_IDS};
use crate::moves::Move;
use crate::position::Position;

/// The largest group: 2 · (1 + 40).
pub const MAX_GROUP: usize = 2 * (1 + SLIDE_COUNT);

/// `SLIDES_FROM[set]`: bit id − 1 set for each slide whose source cell is
/// in the 9-bit cell set `set`; `SLIDES_TO[set]` the same for destinations.
/// A slide is plausible when its source holds a neutral structure and its
/// destination is empty, so the plausible ones are the intersection of two
/// lookups, with no loop over cells and no branch.
static SLIDES_FROM: [u64; 512] = slides_touching(true);
static SLIDES_TO: [u64; 512] = slides_touching(false);

const fn slides_touching(source: bool) -> [u64; 512] {
    let mut t = [0u64; 512];
    let mut set = 0;
    while set < 512 {
        let mut bits = 0u64;
        let mut from = 0;
        while from < CELLS {
            let mut to = 0;
            while to < CELLS {
                let id = SLIDE_IDS[from][to];
                let cell = if source { from } else { to };
                if id != 0 && (set >> cell) & 1 == 1 {
                    bits |= 1 << (id - 1);
                }
                to += 1;
            }
            from += 1;
        }
        t[set] = bits;
        set += 1;
    }
    t
}

/// For the 12 bits of three consecutive cells: bit j set when the j-th of
/// them is empty, bit 3 + j when it holds a neutral S, L or C.
static THIRDS: [u8; 4096] = {
    let mut t = [0u8; 4096];
    let mut v = 0;
    while v < 4096 {
        let mut bits = 0u8;
        let mut j = 0;
        while j < 3 {
            let code = (v >> (4 * (2 - j))) & 15;
            if code == Cell::Empty as usize {
                bits |= 1 << j;
            }
            if code == Cell::Small as usize || code == Cell::Large as usize || code == Cell::Castle as usize {
                bits |= 8 << j;
            }
            j += 1;
        }
        t[v] = bits;
        v += 1;
    }
    t
};

/// The plausible forbidden slides of `board`: bit id − 1 set for each.
#[inline]
pub fn plausible_slides(board: Board) -> u64 {
    let bits = board.bits() as usize;
    let third = |shift: usize| usize::from(THIRDS[(bits >> shift) & 4095]);
    let (a, b, c) = (third(24), third(12), third(0));
    let empty = (a & 7) | (b & 7) << 3 | (c & 7) << 6;
    let neutral = a >> 3 | (b >> 3) << 3 | (c >> 3) << 6;
    SLIDES_FROM[neutral] & SLIDES_TO[empty]
}

/// Positions in one half of a group with plausible-slide mask `mask`.
#[inline]
pub const fn half_len(mask: u64) -> usize {
    1 + mask.count_ones() as usize
}

/// The number of positions in `board`'s group.
#[inline]
pub fn group_len(board: Board) -> usize {
    2 * half_len(plausible_slides(board))
}

/// The place, within its half, of the position with forbidden slide id `d`
/// (0 = none) in a half with plausible-slide mask `mask`; `None` if `d` is
/// not plausible there.
#[inline]
pub const fn slot_in_half(mask: u64, d: u8) -> Option<usize> {
    if d == 0 {
        return Some(0);
    }
    let bit = 1u64 << (d - 1);
    if mask & bit == 0 {
        None
    } else {
        Some(1 + (mask & (bit - 1)).count_ones() as usize)
    }
}

/// The forbidden slide ids of a half with plausible-slide mask `mask`, in
/// slot order (0 first, for the position with nothing forbidden).
pub fn half_slides(mask: u64) -> impl Iterator<Item = u8> {
    let mut rest = mask;
    std::iter::once(0).chain(std::iter::from_fn(move || {
        if rest == 0 {
            return None;
        }
        let k = rest.trailing_zeros() as u8;
        rest &= rest - 1;
        Some(k + 1)
    }))
}

/// The place of `pos` within its board's group, or `None` if its forbidden
/// slide is not plausible.
#[inline]
pub fn slot(pos: Position) -> Option<usize> {
    let mask = plausible_slides(pos.board());
    let turn = if pos.turn() == Player::Red {
        half_len(mask)
    } else {
        0
    };
    slot_in_half(mask, pos.forbidden_id()).map(|s| turn + s)
}

/// Whether move `m` of the half's position with nothing forbidden is also a
/// move of `pos`, a position of the same half (board and side to move): all
/// are but `pos`'s forbidden slide, whose destination is empty in every
/// position of a group. A move's child does not depend on the forbidden
/// slide either, so the moves and children of a half are worked out once.
#[inline]
pub fn move_of_half_allowed(m: Move, pos: Position) -> bool {
    let d = pos.forbidden_id();
    d == 0 || m.slide_id() != d
}

/// The positions of `board`'s group, in group order.
pub fn group(board: Board) -> impl Iterator<Item = Position> {
    let mask = plausible_slides(board);
    [Player::Blue, Player::Red]
        .into_iter()
        .flat_map(move |turn| half_slides(mask).map(move |d| Position::new(board, turn, Slide::from_id(d))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{parse_position, Budget};

    #[test]
    fn slots_follow_group_order() {
        let board = parse_position("1_S-L-C-B--", Budget::STANDARD).unwrap().board();
        let members: Vec<Position> = group(board).collect();
        assert_eq!(members.len(), group_len(board));
        for (i, &p) in members.iter().enumerate() {
            assert_eq!(slot(p), Some(i), "{p}");
            assert!(p.forbidden_is_plausible(), "{p}");
        }
        // S at 1 can slide to 2 and 4; L at 3 to 2 and 6; C at 5 to 2, 4,
        // 6, 8, 9 (not 7: B stands there): 9 slides, 20 positions.
        assert_eq!(members.len(), 20);
    }

    #[test]
    fn implausible_slide_has_no_slot() {
        let pos = parse_position("1_S-L-C-B--", Budget::STANDARD).unwrap();
        let bad = Position::new(pos.board(), Player::Blue, Slide::new(4, 6));
        assert_eq!(slot(bad), None);
    }

    #[test]
    fn plausible_slides_match_the_definition() {
        for s in [
            "1_S-L-C-B--",
            "2_LS-L-SLLS",
            "1_---------",
            "1_CCSS-LL--",
            "2_XOPQ-----",
        ] {
            let board = parse_position(s, Budget::STANDARD).unwrap().board();
            assert_eq!(plausible_slides(board), slow_plausible_slides(board), "{s}");
        }
        let states = crate::StateIndex::new(Budget::new(1, 1, 2, 2).unwrap());
        for pos in states.walk(0, states.len()) {
            let board = pos.board();
            assert_eq!(plausible_slides(board), slow_plausible_slides(board), "{board}");
        }
    }

    #[test]
    fn each_position_of_a_half_has_the_open_moves_but_its_forbidden_slide() {
        // The fact `stats` and `verify` build on: a half's moves are worked
        // out once, for the position with nothing forbidden.
        let budget = Budget::new(1, 1, 2, 2).unwrap();
        let states = crate::StateIndex::new(budget);
        let (mut open, mut own) = (crate::MoveList::new(), crate::MoveList::new());
        for board in states.board_walk(0, states.boards()) {
            for pos in group(board) {
                crate::movegen::generate(Position::new(board, pos.turn(), None), budget, &mut open);
                crate::movegen::generate(pos, budget, &mut own);
                let kept: Vec<Move> = open
                    .iter()
                    .copied()
                    .filter(|&m| move_of_half_allowed(m, pos))
                    .collect();
                assert_eq!(own.iter().copied().collect::<Vec<_>>(), kept, "{pos}");
            }
        }
    }

    fn slow_plausible_slides(board: Board) -> u64 {
        Slide::all()
            .filter(|sl| board.get(sl.from()).is_neutral() && board.get(sl.to()) == Cell::Empty)
            .fold(0u64, |m, sl| m | 1 << (sl.id() - 1))
    }
}
