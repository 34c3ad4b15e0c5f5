//! Which records the database stores and in what order.
//!
//! Records come in *groups*, one group per canonical board (a board that is
//! the smallest of its 8 symmetric images), in board-number order
//! ([`StateIndex::board_number`]). A board with k plausible forbidden slides
//! (a neutral S, L or C on the source, the destination empty) has a group
//! of 2·(1 + k) records: Blue to move with nothing forbidden, then with each
//! plausible slide in id order; then the same for Red.
//!
//! A position is looked up through its canonical form, whose board is
//! canonical. For a board with symmetries some of its (board, slide) states
//! are images of others; the group still holds all of them, each with its
//! own (equal) record, so that the group layout depends on the board alone.

use topitop_game::{symmetry, Board, Position, StateIndex};

pub use topitop_game::group::{group, group_len, MAX_GROUP};

/// The place of `pos` within its board's group and the group's size, or
/// `None` if its forbidden slide is not plausible.
pub fn slot(pos: Position) -> Option<(usize, usize)> {
    topitop_game::group::slot(pos).map(|at| (at, group_len(pos.board())))
}

/// The boards numbered `first..end` ([`StateIndex::board_number`]), in
/// order. Numbers past the last board are ignored.
pub fn boards(index: &StateIndex, first: u64, end: u64) -> Vec<Board> {
    let end = end.min(index.boards());
    let mut out = Vec::with_capacity(end.saturating_sub(first) as usize);
    let mut n = first;
    while n < end {
        let Ok(range) = index.board_tier(n) else { break };
        let stop = end.min(range.board_offset + range.boards());
        let from = range.offset + (n - range.board_offset);
        out.extend(index.walk(from, from + (stop - n)).map(|p| p.board()));
        n = stop;
    }
    out
}

/// True when `board` is the smallest of its symmetric images.
pub fn is_canonical_board(board: Board) -> bool {
    symmetry::board_standing(board).canonical
}

#[cfg(test)]
mod tests {
    use super::*;
    use topitop_game::{parse_position, Budget};

    #[test]
    fn boards_follow_their_numbers() {
        let index = StateIndex::new(Budget::new(1, 1, 1, 1).unwrap());
        let all = boards(&index, 0, u64::MAX);
        assert_eq!(all.len() as u64, index.boards());
        for (n, &b) in all.iter().enumerate() {
            assert_eq!(index.board_number(b).unwrap(), n as u64);
        }
        assert_eq!(boards(&index, 5, 9), all[5..9].to_vec());
    }

    #[test]
    fn canonical_boards() {
        let a = parse_position("1_B--------", Budget::STANDARD).unwrap().board();
        let b = parse_position("1_--------B", Budget::STANDARD).unwrap().board();
        assert_ne!(is_canonical_board(a), is_canonical_board(b));
        assert!(is_canonical_board(
            parse_position("1_---------", Budget::STANDARD).unwrap().board()
        ));
    }
}
