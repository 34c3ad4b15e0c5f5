//! The 8 symmetries of the square and a true canonical form.

use crate::board::Board;
use crate::geometry::{Slide, CELLS};
use crate::position::Position;

/// GamesmanClassic's `gSymmetryMatrix`: image cell `i` takes the contents of
/// cell `MAPS[k][i]`. 0 identity, 1 90° clockwise, 2 180°, 3 90°
/// counter-clockwise, 4 left–right mirror, 5 main diagonal, 6 top–bottom
/// mirror, 7 anti-diagonal.
pub const MAPS: [[u8; CELLS]; 8] = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8],
    [6, 3, 0, 7, 4, 1, 8, 5, 2],
    [8, 7, 6, 5, 4, 3, 2, 1, 0],
    [2, 5, 8, 1, 4, 7, 0, 3, 6],
    [2, 1, 0, 5, 4, 3, 8, 7, 6],
    [0, 3, 6, 1, 4, 7, 2, 5, 8],
    [6, 7, 8, 3, 4, 5, 0, 1, 2],
    [8, 5, 2, 7, 4, 1, 6, 3, 0],
];

/// `INVERSE[k][a]`: where cell `a` goes under map `k`.
pub const INVERSE: [[u8; CELLS]; 8] = {
    let mut inv = [[0u8; CELLS]; 8];
    let mut k = 0;
    while k < 8 {
        let mut i = 0;
        while i < CELLS {
            inv[k][MAPS[k][i] as usize] = i as u8;
            i += 1;
        }
        k += 1;
    }
    inv
};

/// The image of `pos` under map `k` (0..8): cells moved, the forbidden slide
/// a→b carried to its image, the turn unchanged.
pub fn transform(pos: Position, k: usize) -> Position {
    let b = pos.board();
    let mut out = Board::EMPTY;
    for (i, &src) in MAPS[k].iter().enumerate() {
        out = out.with(i, b.get(src as usize));
    }
    let forbidden = pos
        .forbidden()
        .and_then(|s| Slide::new(INVERSE[k][s.from()] as usize, INVERSE[k][s.to()] as usize));
    Position::new(out, pos.turn(), forbidden)
}

/// The canonical representative of `pos`'s symmetry class: the image with
/// the smallest (board rank, slide id), i.e. the smallest GamesmanClassic
/// tier position. Idempotent, and equal for all 8 images.
pub fn canonical(pos: Position) -> Position {
    canonical_with_map(pos).0
}

/// The canonical form and the map that produces it from `pos`.
pub fn canonical_with_map(pos: Position) -> (Position, usize) {
    // Position bits order boards like their rank (cell 0 most significant,
    // codes in rank order), then the slide id; the turn bit is shared.
    (0..8)
        .map(|k| (transform(pos, k), k))
        .min_by_key(|(p, _)| p.bits())
        .unwrap_or((pos, 0))
}

/// The number of distinct images of `pos` (1, 2, 4 or 8).
pub fn orbit_size(pos: Position) -> usize {
    let mut images: Vec<u64> = (0..8).map(|k| transform(pos, k).bits()).collect();
    images.sort_unstable();
    images.dedup();
    images.len()
}
