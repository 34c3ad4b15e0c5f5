//! The board's symmetries: the eight of a square (rotations and
//! reflections), the four of a rectangle (the reflections across its
//! middle row and column, and the half turn).
//!
//! Every rule is stated in king steps, the eight directions and straight
//! or diagonal lines, all of which these maps keep, so a position and its
//! images play alike (tests/symmetry.rs checks moves, play and ends image
//! by image). [`Topple::canonical`] picks, of a position's images, the one
//! whose board comes first in the tier's rank order ([`crate::tier`]):
//! the least index, so the solver keeps one index a class.

use std::sync::OnceLock;

use crate::board::{Direction, Shape};
use crate::position::{Color, Position};
use crate::rules::{Move, Topple};

/// One symmetry of a board: where each cell goes, and each direction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symmetry {
    /// The image of each cell (cells past the board map to themselves).
    to: [u8; 64],
    /// The cell each cell's image comes from: `from[to[c]] == c`.
    from: [u8; 64],
    /// The image of each direction, by [`Direction::ALL`]'s order.
    dirs: [Direction; 8],
    /// Cells of the board: those past it stay empty.
    cells: u8,
}

/// The largest side of a board, for the table of every shape.
const SIDE: usize = 8;

/// Each shape's symmetries, built on first use.
static TABLES: [OnceLock<Vec<Symmetry>>; (SIDE + 1) * (SIDE + 1)] =
    [const { OnceLock::new() }; (SIDE + 1) * (SIDE + 1)];

/// The symmetries of `shape`, the identity first.
pub(crate) fn of(shape: Shape) -> &'static [Symmetry] {
    let slot = usize::from(shape.rows()) * (SIDE + 1) + usize::from(shape.cols());
    TABLES[slot].get_or_init(|| build(shape))
}

fn build(shape: Shape) -> Vec<Symmetry> {
    let (rows, cols) = (i32::from(shape.rows()), i32::from(shape.cols()));
    // A map is: swap rows and columns (squares only), then mirror rows,
    // then mirror columns.
    let swaps: &[bool] = if rows == cols { &[false, true] } else { &[false] };
    let mut out = Vec::new();
    for &swap in swaps {
        for flip_r in [false, true] {
            for flip_c in [false, true] {
                let at = |(r, c): (i32, i32)| {
                    let (r, c) = if swap { (c, r) } else { (r, c) };
                    (
                        if flip_r { rows - 1 - r } else { r },
                        if flip_c { cols - 1 - c } else { c },
                    )
                };
                let delta = |(dr, dc): (i32, i32)| {
                    let (dr, dc) = if swap { (dc, dr) } else { (dr, dc) };
                    (if flip_r { -dr } else { dr }, if flip_c { -dc } else { dc })
                };
                let mut to: [u8; 64] = std::array::from_fn(|c| c as u8);
                for cell in 0..shape.cells() {
                    let (r, c) = at(shape.coords(cell));
                    to[usize::from(cell)] = shape.cell_at(r, c).expect("a symmetry keeps the board");
                }
                let mut from = to;
                for (c, &t) in to.iter().enumerate() {
                    from[usize::from(t)] = c as u8;
                }
                let dirs = Direction::ALL.map(|d| {
                    let want = delta(d.delta());
                    Direction::ALL
                        .into_iter()
                        .find(|e| e.delta() == want)
                        .expect("a symmetry keeps the directions")
                });
                out.push(Symmetry {
                    to,
                    from,
                    dirs,
                    cells: shape.cells(),
                });
            }
        }
    }
    out
}

impl Symmetry {
    /// The image of `cell`.
    pub fn cell(&self, cell: u8) -> u8 {
        self.to[usize::from(cell)]
    }

    /// The image of a direction.
    pub fn direction(&self, d: Direction) -> Direction {
        self.dirs[d as usize]
    }

    /// The image of a bitboard.
    fn mask(&self, m: u64) -> u64 {
        crate::board::cells_of(m).fold(0, |out, c| out | 1u64 << self.cell(c))
    }

    /// The image of `pos`: every stack and pawn moved to its cell's image;
    /// supply, reserves and the player to move unchanged.
    pub fn position(&self, pos: &Position) -> Position {
        let mut out = *pos;
        let n = usize::from(self.cells);
        for (c, &h) in pos.heights[..n].iter().enumerate() {
            out.heights[usize::from(self.to[c])] = h;
        }
        out.pawns = pos.pawns.map(|m| self.mask(m));
        out
    }

    /// The image of a move of `pos` as a move of the image of `pos`.
    pub fn play(&self, mv: Move) -> Move {
        match mv {
            Move::Place { cell } => Move::Place {
                cell: self.cell(cell),
            },
            Move::Topple { cell, dir } => Move::Topple {
                cell: self.cell(cell),
                dir: self.direction(dir),
            },
            Move::Step { from, to } => Move::Step {
                from: self.cell(from),
                to: self.cell(to),
            },
        }
    }
}

/// Each of the first `n` cells' state in the rank order of
/// [`crate::tier`]: height first, then no pawn, Red, Blue (the rest 0).
fn states(pos: &Position, n: usize) -> [u16; 64] {
    let (red, blue) = (pos.pawns(Color::Red), pos.pawns(Color::Blue));
    let mut out = [0; 64];
    for (c, s) in out[..n].iter_mut().enumerate() {
        *s = u16::from(pos.heights[c]) * 3 + (red >> c & 1) as u16 + 2 * (blue >> c & 1) as u16;
    }
    out
}

impl Topple {
    /// The symmetries of this board, the identity first.
    pub fn symmetries(&self) -> &'static [Symmetry] {
        of(self.shape())
    }

    /// The image of `pos` that comes first in rank order: cell by cell,
    /// the image's state is read through `from`, so no image is built
    /// until the least is known.
    pub(crate) fn least_image(&self, pos: &Position) -> Position {
        let n = usize::from(self.shape().cells());
        let states = states(pos, n);
        let syms = self.symmetries();
        let mut best = 0;
        for (k, s) in syms.iter().enumerate().skip(1) {
            let image = s.from[..n].iter().map(|&c| states[usize::from(c)]);
            let least = syms[best].from[..n].iter().map(|&c| states[usize::from(c)]);
            if image.lt(least) {
                best = k;
            }
        }
        // The identity builds nothing.
        if best == 0 {
            *pos
        } else {
            syms[best].position(pos)
        }
    }

    /// Whether no image of `pos` comes before it in rank order: it is its
    /// class's canonical board (reserves aside).
    pub(crate) fn is_least_image(&self, pos: &Position) -> bool {
        let n = usize::from(self.shape().cells());
        let states = states(pos, n);
        self.symmetries()[1..].iter().all(|s| {
            s.from[..n]
                .iter()
                .map(|&c| states[usize::from(c)])
                .ge(states[..n].iter().copied())
        })
    }
}
