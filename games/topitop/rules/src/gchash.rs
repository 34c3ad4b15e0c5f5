//! GamesmanClassic's position hash: tier number and tier position.
//!
//! Tier position = (Red to move ? 41·m : 0) + 41·rank + d, where m is the
//! number of boards in the tier, rank the board's lexicographic rank among
//! them and d the forbidden-slide id. Every d is hashed, plausible or not,
//! exactly as upstream.

use crate::board::Board;
use crate::budget::Budget;
use crate::cell::{Cell, Player};
use crate::error::HashError;
use crate::geometry::Slide;
use crate::position::Position;
use crate::tier::Tier;
use topitop_game_api::rank::{rank, unrank};

/// The tier and tier position of `pos`.
pub fn hash(pos: Position) -> (Tier, u64) {
    let board = pos.board();
    let tier = Tier::of(board);
    let m = tier.arrangements();
    let r = rank(board.cells().map(|c| c as u8), &tier.counts());
    let red = if pos.turn() == Player::Red { 41 * m } else { 0 };
    (tier, red + 41 * r + pos.forbidden_id() as u64)
}

/// The (possibly raw) position at `tier_position` of `tier`.
///
/// # Errors
/// A tier outside `budget`, or a tier position past the tier's size.
pub fn unhash(tier: u64, tier_position: u64, budget: Budget) -> Result<Position, HashError> {
    let t = Tier::from_number(tier, budget)?;
    let m = t.arrangements();
    if tier_position >= 82 * m {
        return Err(HashError::OutOfRange {
            tier,
            position: tier_position,
            size: 82 * m,
        });
    }
    let turn = if tier_position >= 41 * m {
        Player::Red
    } else {
        Player::Blue
    };
    let tp = tier_position % (41 * m);
    let d = (tp % 41) as u8;
    let mut cells = [0u8; 9];
    unrank(tp / 41, &t.counts(), &mut cells);
    let board = Board::from_cells(cells.map(|c| Cell::from_code(c).unwrap_or(Cell::Empty)));
    Ok(Position::new(board, turn, Slide::from_id(d)))
}

/// Upstream's `isLegal`: true when d = 0; otherwise false if the slide's
/// destination is occupied, its source empty, or its source shows the side
/// to move's colour. Looser than [`Position::validate`].
pub fn gc_is_legal(pos: Position) -> bool {
    let Some(s) = pos.forbidden() else {
        return true;
    };
    let board = pos.board();
    let src = board.get(s.from());
    board.get(s.to()) == Cell::Empty && src != Cell::Empty && src.owner() != Some(pos.turn())
}
