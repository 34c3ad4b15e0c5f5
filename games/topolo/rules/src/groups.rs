//! Groups and the end-of-game comparison.

use std::cmp::Ordering;

use crate::piece::{Color, Size};
use crate::position::Position;
use crate::shape::Shape;

/// A group: a maximal set of orthogonally adjacent pieces of one colour.
/// Groups order by size, then height: the order the scoring reads them in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Group {
    /// Its number of pieces.
    pub size: u32,
    /// The sum of its pieces' heights (small 1, mid 2, large 3).
    pub height: u32,
}

/// The cells of the groups of `cells`, one bitboard each.
pub fn groups_of(shape: Shape, cells: u64) -> Vec<u64> {
    let mut left = cells;
    let mut out = Vec::new();
    while left != 0 {
        let mut group = left & left.wrapping_neg();
        loop {
            let grown = (group | shape.orthogonal_neighbours(group)) & cells;
            if grown == group {
                break;
            }
            group = grown;
        }
        left &= !group;
        out.push(group);
    }
    out
}

/// `color`'s groups in `pos`, largest first by (size, height).
pub fn group_list(shape: Shape, pos: &Position, color: Color) -> Vec<Group> {
    let mut list: Vec<Group> = groups_of(shape, pos.of(color))
        .into_iter()
        .map(|g| Group {
            size: g.count_ones(),
            height: Size::ALL
                .iter()
                .map(|&s| (g & pos.sized(s)).count_ones() * s.height())
                .sum(),
        })
        .collect();
    list.sort_unstable_by(|a, b| b.cmp(a));
    list
}

/// Compares two players' sorted group lists as the rules do: as the
/// sequences (size₁, height₁, size₂, height₂, …), a missing group counting
/// as (0, 0). `Greater` means `a` wins.
pub fn compare(a: &[Group], b: &[Group]) -> Ordering {
    let none = Group { size: 0, height: 0 };
    let n = a.len().max(b.len());
    (0..n)
        .map(|i| {
            let x = a.get(i).unwrap_or(&none);
            let y = b.get(i).unwrap_or(&none);
            x.size.cmp(&y.size).then(x.height.cmp(&y.height))
        })
        .find(|o| o.is_ne())
        .unwrap_or(Ordering::Equal)
}

/// The size of `color`'s largest group.
pub fn largest(shape: Shape, pos: &Position, color: Color) -> u32 {
    groups_of(shape, pos.of(color))
        .into_iter()
        .map(u64::count_ones)
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(size: u32, height: u32) -> Group {
        Group { size, height }
    }

    #[test]
    fn lists_compare_pair_by_pair_with_missing_groups_as_zero() {
        assert_eq!(compare(&[g(3, 3)], &[g(2, 6)]), Ordering::Greater);
        assert_eq!(compare(&[g(3, 3)], &[g(3, 4)]), Ordering::Less);
        assert_eq!(compare(&[g(3, 3), g(1, 1)], &[g(3, 3)]), Ordering::Greater);
        assert_eq!(compare(&[g(3, 3), g(1, 1)], &[g(3, 3), g(1, 1)]), Ordering::Equal);
        assert_eq!(
            compare(&[g(2, 2), g(2, 2)], &[g(2, 2), g(1, 3)]),
            Ordering::Greater
        );
    }

    #[test]
    fn groups_follow_orthogonal_adjacency_only() {
        let shape = Shape::new(3, 3).unwrap();
        // Red on 1, 2 (a pair) and 9, diagonal to nothing red; 5 is Black.
        let pos = Position::EMPTY
            .with(0, Color::Red, Size::Large)
            .with(1, Color::Red, Size::Small)
            .with(8, Color::Red, Size::Mid)
            .with(4, Color::Black, Size::Small);
        assert_eq!(group_list(shape, &pos, Color::Red), [g(2, 4), g(1, 2)]);
        assert_eq!(group_list(shape, &pos, Color::Black), [g(1, 1)]);
        // Cells 3 and 4 are not neighbours on a 3-wide board.
        let pos = Position::EMPTY
            .with(2, Color::Red, Size::Small)
            .with(3, Color::Red, Size::Small);
        assert_eq!(largest(shape, &pos, Color::Red), 1);
    }
}
