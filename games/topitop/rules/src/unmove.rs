//! Un-move generation: the positions that have a move to a given position.
//!
//! Every move passes the turn, so a parent has the other side to move. A
//! child whose forbidden slide is set was reached by that slide's reverse (a
//! neutral S, L or C slid onto an empty cell); any other child was reached
//! by a placement, a slide of the mover's own structure onto an empty cell,
//! a stacking slide, or a pass. A parent may carry any forbidden slide that
//! does not forbid the move, and is never primitive (a primitive position
//! has no moves).

use crate::board::Board;
use crate::cell::{Cell, Player};
use crate::geometry::{Slide, NEIGHBOURS};
use crate::group::{half_slides, plausible_slides};
use crate::moves::MoveList;
use crate::position::Position;
use crate::rules::Rules;

/// The (moving structure, structure it lands on) pairs that stack into each
/// cell kind.
fn stackings(result: Cell) -> &'static [(Cell, Cell)] {
    use Cell::*;
    match result {
        BlueSmall => &[(BlueBucket, Small)],
        RedSmall => &[(RedBucket, Small)],
        Castle => &[(Small, Large)],
        BlueCastle => &[(BlueBucket, Castle), (BlueSmall, Large)],
        RedCastle => &[(RedBucket, Castle), (RedSmall, Large)],
        _ => &[],
    }
}

impl Rules {
    /// Writes into `out` every position with a move to `pos` under these
    /// rules, each once, in no particular order. The opposite of
    /// [`Rules::legal_moves`] followed by [`crate::play_unchecked`].
    pub fn parents(self, pos: Position, out: &mut Vec<Position>) {
        out.clear();
        let board = pos.board();
        let mover = pos.turn().opponent();
        if let Some(s) = pos.forbidden() {
            // The neutral on s.from() came from s.to() (now empty); the
            // parent may not have had that very slide forbidden.
            let piece = board.get(s.from());
            if piece.is_neutral() && board.get(s.to()) == Cell::Empty {
                let before = board.with(s.to(), piece).with(s.from(), Cell::Empty);
                self.push_parents(before, mover, s.reversed().id(), out);
            }
            return;
        }
        for (c, &neighbours) in NEIGHBOURS.iter().enumerate() {
            let here = board.get(c);
            if here == Cell::Empty {
                continue;
            }
            if matches!(here, Cell::Small | Cell::Large) || here == mover.bucket() {
                self.push_parents(board.with(c, Cell::Empty), mover, 0, out);
            }
            for &a in neighbours {
                let a = a as usize;
                if board.get(a) != Cell::Empty {
                    continue;
                }
                if here.owner() == Some(mover) {
                    // The mover's own structure slid onto an empty cell.
                    self.push_parents(board.with(a, here).with(c, Cell::Empty), mover, 0, out);
                }
                for &(src, dst) in stackings(here) {
                    if src.movable_by(mover) {
                        self.push_parents(board.with(a, src).with(c, dst), mover, 0, out);
                    }
                }
            }
        }
        if self.stuck_value().is_none() && self.board_primitive(board, mover).is_none() {
            let mut list = MoveList::new();
            for d in half_slides(plausible_slides(board)) {
                let before = Position::new(board, mover, Slide::from_id(d));
                self.generate_piece_moves(before, &mut list);
                if list.is_empty() {
                    out.push(before);
                }
            }
        }
    }

    /// Pushes `board` with `mover` to move and every forbidden slide but
    /// `excluded` (0: none excluded), unless the board ends the game.
    fn push_parents(self, board: Board, mover: Player, excluded: u8, out: &mut Vec<Position>) {
        if self.board_primitive(board, mover).is_some() {
            return;
        }
        for d in half_slides(plausible_slides(board)) {
            if d == 0 || d != excluded {
                out.push(Position::new(board, mover, Slide::from_id(d)));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{parse_position, play_unchecked, Budget, Rules, Ruleset, Variant};

    #[test]
    fn a_slid_neutral_has_one_parent_board() {
        let rules = Rules::new(Ruleset::V1(Variant::DEFAULT));
        let pos = parse_position("1_LS-L-SLLS45", Budget::STANDARD).unwrap();
        let mut parents = Vec::new();
        rules.parents(pos, &mut parents);
        assert!(!parents.is_empty());
        for p in &parents {
            assert_eq!(p.board().to_string(), "LS--LSLLS", "{p}");
            assert!(
                rules
                    .gamesman_moves(*p)
                    .iter()
                    .any(|&m| play_unchecked(*p, m) == pos),
                "{p}"
            );
        }
    }
}
