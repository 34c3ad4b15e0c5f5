//! Why a move is not legal in a position, said for a person (`play`'s
//! answer to a move it refuses).

use crate::cell::Cell;
use crate::geometry::NEIGHBOURS;
use crate::moves::{Move, MoveKind, Piece};
use crate::position::Position;
use crate::rules::Rules;

/// What a cell holds, in words.
pub fn cell_words(c: Cell) -> &'static str {
    match c {
        Cell::Empty => "nothing",
        Cell::BlueBucket => "Blue's bucket",
        Cell::RedBucket => "Red's bucket",
        Cell::Small => "a small sand pile",
        Cell::Large => "a large sand pile",
        Cell::BlueSmall => "Blue's bucket on a small pile",
        Cell::RedSmall => "Red's bucket on a small pile",
        Cell::Castle => "a castle (a small pile on a large one)",
        Cell::BlueCastle => "Blue's bucket on a castle",
        Cell::RedCastle => "Red's bucket on a castle",
    }
}

/// The board letters and what each stands for: the legend `play` and
/// `show` print.
pub const LEGEND: &str = "- empty, B/R Blue's/Red's bucket, S small pile, L large pile, \
X/O Blue's/Red's bucket on a small pile, C castle (small on large), P/Q Blue's/Red's bucket on a castle";

fn piece_words(p: Piece) -> &'static str {
    match p {
        Piece::BlueBucket => "bucket",
        Piece::RedBucket => "bucket",
        Piece::Small => "small sand pile",
        Piece::Large => "large sand pile",
    }
}

impl Rules {
    /// Why `m` is not a legal move of `pos`, or `None` if it is.
    pub fn why_illegal(self, pos: Position, m: Move) -> Option<String> {
        if self.legal_moves(pos).contains(m) {
            return None;
        }
        if self.primitive(pos).is_some() {
            return Some("the game is over".into());
        }
        let turn = pos.turn();
        let board = pos.board();
        let why = match m.kind() {
            MoveKind::Pass => "passing is allowed only to a player with no other move".to_string(),
            MoveKind::Place { piece, cell } => {
                let at = board.get(cell);
                let left = pos.pieces_left(self.budget());
                if matches!(piece, Piece::BlueBucket | Piece::RedBucket) && piece != Piece::bucket_of(turn) {
                    format!("{} places only its own bucket", turn.name())
                } else if at != Cell::Empty {
                    format!("cell {} is not empty: it holds {}", cell + 1, cell_words(at))
                } else if left[piece as usize] == 0 {
                    format!("{} has no {} left to place", turn.name(), piece_words(piece))
                } else {
                    format!("{m} is not a legal move here")
                }
            }
            MoveKind::Slide { from, to } => {
                let (src, dst) = (board.get(from), board.get(to));
                if !NEIGHBOURS[from].contains(&(to as u8)) {
                    format!(
                        "cells {} and {} are not neighbours: a slide goes one step",
                        from + 1,
                        to + 1
                    )
                } else if src == Cell::Empty {
                    format!("cell {} is empty: there is nothing to slide", from + 1)
                } else if src.slide_result(Cell::Empty, turn).is_none() {
                    format!(
                        "cell {} holds {}, which {} may not move",
                        from + 1,
                        cell_words(src),
                        turn.name()
                    )
                } else if src.slide_result(dst, turn).is_none() {
                    format!(
                        "{} cannot go onto cell {}, which holds {}",
                        cell_words(src),
                        to + 1,
                        cell_words(dst)
                    )
                } else if pos.forbidden().is_some_and(|s| s.from() == from && s.to() == to) {
                    format!("{m} is forbidden here: it would slide straight back what the last move slid")
                } else {
                    format!("{m} is not a legal move here")
                }
            }
        };
        Some(why)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_position;

    fn why(p: &str, m: &str) -> String {
        let rules = Rules::default();
        let pos = parse_position(p, rules.budget()).unwrap();
        rules.why_illegal(pos, m.parse().unwrap()).unwrap_or_default()
    }

    #[test]
    fn each_refusal_says_which_rule_it_breaks() {
        assert_eq!(why("1_---------", "B5"), "");
        assert!(why("1_---------", "R5").contains("only its own bucket"));
        assert!(why("1_---------", "1-2").contains("cell 1 is empty"));
        assert!(
            why("2_----B----", "5-6").contains("which Red may not move"),
            "{}",
            why("2_----B----", "5-6")
        );
        assert!(why("2_----B----", "B1").contains("only its own bucket"));
        assert!(why("2_----S----", "S5").contains("cell 5 is not empty: it holds a small sand pile"));
    }
}
