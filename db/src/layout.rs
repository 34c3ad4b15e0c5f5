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

use topitop_game::geometry::SLIDE_COUNT;
use topitop_game::{symmetry, Board, Cell, Player, Position, Slide, StateIndex};

/// Source and destination cells of slides 1..=40, by id − 1.
const SLIDES: [(u8, u8); SLIDE_COUNT] = {
    let mut out = [(0u8, 0u8); SLIDE_COUNT];
    let mut i = 0;
    while i < SLIDE_COUNT {
        match Slide::from_id(i as u8 + 1) {
            Some(s) => out[i] = (s.from() as u8, s.to() as u8),
            None => panic!("slide ids 1..=40 exist"),
        }
        i += 1;
    }
    out
};

/// The largest group: 2 · (1 + 40).
pub const MAX_GROUP: usize = 2 * (1 + SLIDE_COUNT);

/// The plausible forbidden slides of `board`: bit id − 1 set for each.
pub fn plausible_slides(board: Board) -> u64 {
    let mut neutral = 0u16;
    let mut empty = 0u16;
    for (i, c) in board.cells().into_iter().enumerate() {
        match c {
            Cell::Small | Cell::Large | Cell::Castle => neutral |= 1 << i,
            Cell::Empty => empty |= 1 << i,
            _ => {}
        }
    }
    let mut mask = 0u64;
    for (k, &(from, to)) in SLIDES.iter().enumerate() {
        if neutral >> from & 1 == 1 && empty >> to & 1 == 1 {
            mask |= 1 << k;
        }
    }
    mask
}

/// The number of records in the group of `board`.
pub fn group_size(board: Board) -> usize {
    2 * (1 + plausible_slides(board).count_ones() as usize)
}

/// The place of `pos` within its board's group and the group's size, or
/// `None` if its forbidden slide is not plausible.
pub fn slot(pos: Position) -> Option<(usize, usize)> {
    let mask = plausible_slides(pos.board());
    let half = 1 + mask.count_ones() as usize;
    let turn = if pos.turn() == Player::Red { half } else { 0 };
    let at = match pos.forbidden() {
        None => turn,
        Some(s) => {
            let bit = 1u64 << (s.id() - 1);
            if mask & bit == 0 {
                return None;
            }
            turn + 1 + (mask & (bit - 1)).count_ones() as usize
        }
    };
    Some((at, 2 * half))
}

/// The positions of `board`'s group, in group order.
pub fn group(board: Board) -> impl Iterator<Item = Position> {
    let mask = plausible_slides(board);
    [Player::Blue, Player::Red].into_iter().flat_map(move |turn| {
        let slides = (0..SLIDE_COUNT)
            .filter(move |k| mask >> k & 1 == 1)
            .filter_map(|k| Slide::from_id(k as u8 + 1));
        std::iter::once(None)
            .chain(slides.map(Some))
            .map(move |d| Position::new(board, turn, d))
    })
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
    symmetry::canonical(Position::new(board, Player::Blue, None)).board() == board
}

#[cfg(test)]
mod tests {
    use super::*;
    use topitop_game::{parse_position, Budget};

    #[test]
    fn slots_follow_group_order() {
        let board = parse_position("1_S-L-C-B--", Budget::STANDARD).unwrap().board();
        let members: Vec<Position> = group(board).collect();
        assert_eq!(members.len(), group_size(board));
        for (i, &p) in members.iter().enumerate() {
            assert_eq!(slot(p), Some((i, members.len())), "{p}");
            assert!(p.forbidden_is_plausible(), "{p}");
        }
        // S at 0 can slide to 1 and 3; L at 2 to 1 and 5; C at 4 to 1, 3, 5, 7, 8
        // (but not 6: occupied by B) -- 9 slides, 20 records.
        assert_eq!(members.len(), 20);
    }

    #[test]
    fn implausible_slide_has_no_slot() {
        let pos = parse_position("1_S-L-C-B--", Budget::STANDARD).unwrap();
        let bad = Position::new(pos.board(), Player::Blue, Slide::new(4, 6));
        assert_eq!(slot(bad), None);
    }

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
