//! Where a class's cells go under the board's reflections, to find a
//! position's images and canonical form from its digits alone.

use games_topolo::layout::{Layout, Reflection};
use games_topolo::{Class, Position};

/// The cell each cell goes to under each reflection.
pub fn cell_maps(layout: &Layout) -> [Vec<u32>; 4] {
    let shape = layout.game().shape();
    Reflection::ALL.map(|r| {
        (0..u32::from(shape.cells()))
            .map(|c| {
                let p = Position {
                    red: 1 << c,
                    ..Position::EMPTY
                };
                r.apply(shape, &p).red.trailing_zeros()
            })
            .collect()
    })
}

/// Codes of a class's digits under a reflection: where each of the
/// class's cells goes, as a place in the class it lands in, and whether
/// that class is the same one.
pub struct ImageMap {
    /// Per reflection, per place in the class: the place it lands on.
    to: [Vec<usize>; 4],
    /// Per reflection: the class stays where it is.
    pub keeps: [bool; 4],
    /// Places in the class the cells land in, per reflection.
    width: [usize; 4],
}

impl ImageMap {
    /// The map of `class`'s cells on `layout`'s board.
    pub fn new(layout: &Layout, class: Class) -> ImageMap {
        let maps = cell_maps(layout);
        let cells = layout.cells(class);
        let place_in = |c: u32| -> (bool, usize) {
            if let Some(p) = cells.iter().position(|&x| x == c) {
                (true, p)
            } else {
                let other = layout.cells(class.other());
                (false, other.iter().position(|&x| x == c).unwrap_or(0))
            }
        };
        let mut to: [Vec<usize>; 4] = Default::default();
        let mut keeps = [true; 4];
        let mut width = [cells.len(); 4];
        for r in 0..4 {
            for &c in cells {
                let (same, p) = place_in(maps[r][c as usize]);
                keeps[r] = same;
                to[r].push(p);
            }
            if !keeps[r] {
                width[r] = layout.cells(class.other()).len();
            }
        }
        ImageMap { to, keeps, width }
    }

    /// The code of `digits` (this class's) once reflected by `r`, in the
    /// class they land in.
    pub fn image(&self, r: usize, digits: &[u8], base: u64) -> u64 {
        let mut out = [0u8; 32];
        for (p, &d) in digits.iter().enumerate() {
            out[self.to[r][p]] = d;
        }
        out[..self.width[r]]
            .iter()
            .fold(0, |c, &d| c * base + u64::from(d))
    }
}
