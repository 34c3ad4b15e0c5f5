//! What the browser page says of a Topolo position beside its board: the
//! pieces each player has left, and at the end the groups that decided
//! the game.

use std::cmp::Ordering;

use crate::groups::{group_list, largest, Group};
use crate::piece::{Color, Size};
use crate::position::Position;
use crate::rules::{Topolo, Variant};

fn size_name(size: Size) -> &'static str {
    match size {
        Size::Small => "small",
        Size::Mid => "mid",
        Size::Large => "large",
    }
}

/// `color`'s pieces not yet placed, e.g. `2 small, 1 large`.
fn left_text(game: &Topolo, pos: &Position, color: Color) -> String {
    let parts: Vec<String> = Size::ALL
        .iter()
        .filter_map(|&s| {
            let n = game.left(pos, color, s);
            (n > 0).then(|| format!("{n} {}", size_name(s)))
        })
        .collect();
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join(", ")
    }
}

/// The pieces left to each player.
pub fn facts(game: &Topolo, pos: &Position) -> Vec<(String, String)> {
    [Color::Red, Color::Black]
        .into_iter()
        .map(|c| (format!("{} has left", c.name()), left_text(game, pos, c)))
        .collect()
}

fn groups_text(list: &[Group]) -> String {
    let parts: Vec<String> = list.iter().map(|g| format!("{}/{}", g.size, g.height)).collect();
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join(", ")
    }
}

/// Why the game ended on a full board: the groups compared and the first
/// difference between them. `None` before the board is full.
pub fn ending(game: &Topolo, pos: &Position) -> Option<String> {
    if !game.is_over(pos) {
        return None;
    }
    let shape = game.shape();
    if game.variant() == Variant::SizeOnly {
        let (r, b) = (largest(shape, pos, Color::Red), largest(shape, pos, Color::Black));
        let verdict = match r.cmp(&b) {
            Ordering::Greater => "Red wins",
            Ordering::Less => "Black wins",
            Ordering::Equal => "a tie",
        };
        return Some(format!(
            "The board is full. Red's largest group has {r} pieces, Black's {b}: {verdict}."
        ));
    }
    let red = group_list(shape, pos, Color::Red);
    let black = group_list(shape, pos, Color::Black);
    let lists = format!(
        "The board is full. Groups largest first (pieces/height): Red {}; Black {}.",
        groups_text(&red),
        groups_text(&black)
    );
    let none = Group { size: 0, height: 0 };
    let n = red.len().max(black.len());
    let first = (0..n).find_map(|i| {
        let (x, y) = (red.get(i).unwrap_or(&none), black.get(i).unwrap_or(&none));
        (x != y).then_some((i, *x, *y))
    });
    let Some((i, x, y)) = first else {
        return Some(format!("{lists} The lists are the same: a tie."));
    };
    let winner = if (x.size, x.height) > (y.size, y.height) {
        Color::Red
    } else {
        Color::Black
    };
    let which = ordinal(i + 1);
    let why = if x.size == y.size {
        format!(
            "their {which} groups have {} pieces each, and Red's is {} high to Black's {}",
            x.size, x.height, y.height
        )
    } else {
        format!(
            "their {which} groups differ in size, Red's {} pieces to Black's {}",
            x.size, y.size
        )
    };
    Some(format!(
        "{lists} The first difference decides: {why}, so {} wins.",
        winner.name()
    ))
}

fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Outcome;
    use crate::shape::Shape;

    fn game(board: &str, variant: Variant) -> Topolo {
        Topolo::new(board.parse::<Shape>().unwrap(), variant)
    }

    #[test]
    fn the_ending_names_the_winner_the_outcome_names() {
        // Every full board reached by playing first moves, then last moves:
        // the words' winner is the rules' (seen from Red).
        for variant in [Variant::Full, Variant::SizeOnly] {
            let g = game("3x3", variant);
            for pick_last in [false, true] {
                let mut pos = Position::EMPTY;
                assert_eq!(ending(&g, &pos), None);
                while !g.is_over(&pos) {
                    let moves = g.moves(&pos);
                    let mv = if pick_last {
                        moves[moves.len() - 1]
                    } else {
                        moves[0]
                    };
                    pos = g.play(&pos, mv);
                }
                let text = ending(&g, &pos).unwrap();
                // Red moved last on 3×3: Black is to move at the end.
                let red_view = match g.outcome(&pos).unwrap() {
                    Outcome::Win => "Black wins",
                    Outcome::Lose => "Red wins",
                    Outcome::Tie => "a tie",
                };
                assert!(text.contains(red_view), "{variant:?} {text}");
            }
        }
    }

    #[test]
    fn the_pieces_left_are_counted() {
        let g = game("3x3", Variant::Full);
        let f = facts(&g, &Position::EMPTY);
        assert_eq!(f[0], ("Red has left".into(), "3 small, 1 mid, 1 large".into()));
        assert_eq!(f[1], ("Black has left".into(), "2 small, 1 mid, 1 large".into()));
    }
}
