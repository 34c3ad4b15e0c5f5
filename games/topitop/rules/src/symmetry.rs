//! The 8 symmetries of the square and a true canonical form.

use std::sync::OnceLock;

use crate::board::Board;
use crate::geometry::{Slide, CELLS, SLIDES, SLIDE_COUNT, SLIDE_IDS};
use crate::position::Position;

/// One of the 8 symmetries of the square, numbered as GamesmanClassic's
/// `gSymmetryMatrix` rows ([`MAPS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Symmetry {
    /// Leaves every cell in place.
    Identity = 0,
    /// A quarter turn clockwise.
    Rotate90 = 1,
    /// A half turn.
    Rotate180 = 2,
    /// A quarter turn counter-clockwise.
    Rotate270 = 3,
    /// The mirror image left to right.
    MirrorLeftRight = 4,
    /// The reflection in the main diagonal (cells 1, 5, 9).
    MainDiagonal = 5,
    /// The mirror image top to bottom.
    MirrorTopBottom = 6,
    /// The reflection in the anti-diagonal (cells 3, 5, 7).
    AntiDiagonal = 7,
}

impl Symmetry {
    /// All 8, the identity first, in GamesmanClassic's order.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
        Symmetry::MirrorLeftRight,
        Symmetry::MainDiagonal,
        Symmetry::MirrorTopBottom,
        Symmetry::AntiDiagonal,
    ];

    /// GamesmanClassic's number of the symmetry (its row of [`MAPS`]).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The symmetry numbered `k`, if `k < 8`.
    pub const fn from_index(k: usize) -> Option<Symmetry> {
        if k < 8 {
            Some(Symmetry::ALL[k])
        } else {
            None
        }
    }

    /// Where each image cell takes its contents from (its row of [`MAPS`]).
    pub const fn sources(self) -> [u8; CELLS] {
        MAPS[self as usize]
    }

    /// The symmetry that undoes this one.
    pub const fn inverse(self) -> Symmetry {
        match self {
            Symmetry::Rotate90 => Symmetry::Rotate270,
            Symmetry::Rotate270 => Symmetry::Rotate90,
            other => other,
        }
    }
}

/// GamesmanClassic's `gSymmetryMatrix`: image cell `i` takes the contents of
/// cell `MAPS[k][i]` under [`Symmetry`] number `k`.
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

/// Precomputed images: for map k and each third of the board (three
/// cells, 12 bits), where its nibbles land; and where each slide id goes.
struct Tables {
    thirds: Vec<[u64; 4096]>,
    slides: [[u8; SLIDE_COUNT + 1]; 8],
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut thirds = vec![[0u64; 4096]; 24];
        for k in 0..8 {
            for third in 0..3 {
                for v in 0..4096u64 {
                    let mut out = 0u64;
                    for j in 0..3 {
                        let cell = 3 * third + j;
                        let nibble = (v >> (4 * (2 - j))) & 15;
                        let dest = INVERSE[k][cell] as u32;
                        out |= nibble << (4 * (8 - dest));
                    }
                    thirds[k * 3 + third][v as usize] = out;
                }
            }
        }
        let mut slides = [[0u8; SLIDE_COUNT + 1]; 8];
        for (k, row) in slides.iter_mut().enumerate() {
            for s in Slide::all() {
                let image = Slide::new(INVERSE[k][s.from()] as usize, INVERSE[k][s.to()] as usize);
                row[s.id() as usize] = image.map_or(0, Slide::id);
            }
        }
        Tables { thirds, slides }
    })
}

#[inline]
fn image_bits(t: &Tables, board: u64, d: usize, k: usize) -> u64 {
    let b = t.thirds[k * 3][(board >> 24) as usize & 4095]
        | t.thirds[k * 3 + 1][(board >> 12) as usize & 4095]
        | t.thirds[k * 3 + 2][board as usize & 4095];
    b << 8 | t.slides[k][d] as u64
}

/// Exchanges the nibbles selected by `mask` with those `delta` bits above.
#[inline(always)]
const fn delta_swap(x: u64, mask: u64, delta: u32) -> u64 {
    let t = ((x >> delta) ^ x) & mask;
    x ^ t ^ (t << delta)
}

/// The left–right mirror of packed board bits (cell 0 in the top nibble).
#[inline(always)]
const fn mirror(x: u64) -> u64 {
    delta_swap(x, 0xF << 24 | 0xF << 12 | 0xF, 8)
}

/// The transpose (main diagonal) of packed board bits.
#[inline(always)]
const fn transpose(x: u64) -> u64 {
    delta_swap(delta_swap(x, 0xF << 20 | 0xF << 4, 8), 0xF << 8, 16)
}

/// The top–bottom flip of packed board bits: rows 0 and 2 exchanged.
#[inline(always)]
const fn flip(x: u64) -> u64 {
    delta_swap(x, 0xFFF, 24)
}

/// The 8 images of packed board bits, the identity first: the four of the
/// mirror M and the flip F (e, M, F, MF), then their transposes. A few
/// register operations each, no tables, and at most four swaps deep, so
/// they are computed side by side.
#[inline(always)]
const fn images(x: u64) -> [u64; 8] {
    let m = mirror(x);
    let f = flip(x);
    let mf = mirror(f);
    [
        x,
        m,
        f,
        mf,
        transpose(x),
        transpose(m),
        transpose(f),
        transpose(mf),
    ]
}

/// `IMAGE_SLIDES[k][d]`: the id of slide `d` carried along by image `k` of
/// [`images`] (0 stays 0).
static IMAGE_SLIDES: [[u8; SLIDE_COUNT + 1]; 8] = {
    // Image k of a board whose cell i holds i tells where each cell comes from.
    let mut cells = 0u64;
    let mut i = 0;
    while i < CELLS {
        cells |= (i as u64) << (4 * (8 - i));
        i += 1;
    }
    let imgs = images(cells);
    let mut out = [[0u8; SLIDE_COUNT + 1]; 8];
    let mut k = 0;
    while k < 8 {
        // dest[a]: the cell that cell a moves to.
        let mut dest = [0usize; CELLS];
        let mut j = 0;
        while j < CELLS {
            let src = ((imgs[k] >> (4 * (8 - j))) & 15) as usize;
            dest[src] = j;
            j += 1;
        }
        let mut id = 1;
        while id <= SLIDE_COUNT {
            let (from, to) = SLIDES[id];
            out[k][id] = SLIDE_IDS[dest[from as usize]][dest[to as usize]];
            id += 1;
        }
        k += 1;
    }
    out
};

/// The image of `pos` under `symmetry`: cells moved, the forbidden slide
/// a→b carried to its image, the turn unchanged.
pub fn transform(pos: Position, symmetry: Symmetry) -> Position {
    let t = tables();
    let bits = image_bits(
        t,
        pos.board().bits(),
        pos.forbidden_id() as usize,
        symmetry.index(),
    );
    let turn = pos.bits() & !((1u64 << 48) - 1);
    Position::from_bits(turn | bits).expect("a symmetry image is a position")
}

/// The same image computed cell by cell, for checking the tables.
pub fn transform_slow(pos: Position, symmetry: Symmetry) -> Position {
    let k = symmetry.index();
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
#[inline]
pub fn canonical(pos: Position) -> Position {
    let d = pos.forbidden_id() as usize;
    // Position bits order boards like their rank (cell 0 most significant,
    // codes in rank order), then the slide id; the turn bit is shared.
    let imgs = images(pos.board().bits());
    let least = |a: [u64; 8]| {
        let [a, b, c, e, f, g, h, i] = a;
        a.min(b).min(c.min(e)).min(f.min(g).min(h.min(i)))
    };
    let best = if d == 0 {
        // Most children: no slide to carry along, so the smallest board.
        least(imgs) << 8
    } else {
        least(std::array::from_fn(|k| imgs[k] << 8 | IMAGE_SLIDES[k][d] as u64))
    };
    crate::position::from_bits_trusted(best | (pos.bits() & !((1u64 << 48) - 1)))
}

/// How `board` stands among its 8 images: whether it is the smallest
/// (canonical), and whether some symmetry other than the identity fixes it.
#[inline]
pub fn board_standing(board: Board) -> BoardStanding {
    let imgs = images(board.bits());
    let x = imgs[0];
    BoardStanding {
        canonical: imgs[1..].iter().all(|&i| i >= x),
        self_symmetric: imgs[1..].contains(&x),
    }
}

/// A cheap test that rules out most boards that are not canonical before
/// [`board_standing`] computes their images: `Some(k)` when some symmetry
/// puts a smaller corner in cell 0, or the transpose a smaller cell in
/// cell 1, and every board that shares the first `k` cells with `board` is
/// therefore not canonical either (`k` is 3 when cell 2 is smaller than
/// cell 0, 4 when cell 3 is smaller than cell 1, else 9); `None` when
/// these cells do not rule it out.
#[inline]
pub fn non_canonical_prefix(board: Board) -> Option<usize> {
    let cell = |i: u32| (board.bits() >> (4 * (8 - i))) & 15;
    let first = cell(0);
    if cell(2) < first {
        Some(3)
    } else if cell(3) < cell(1) {
        Some(4)
    } else if cell(6) < first || cell(8) < first {
        Some(CELLS)
    } else {
        None
    }
}

/// What [`board_standing`] finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardStanding {
    /// The board is the smallest of its images (as a 36-bit number).
    pub canonical: bool,
    /// A symmetry other than the identity maps the board to itself.
    pub self_symmetric: bool,
}

/// The distinct images of `pos` (1, 2, 4 or 8), smallest first: the
/// canonical form, then the others in the order of their bits.
pub fn images_of(pos: Position) -> Vec<Position> {
    let mut images: Vec<Position> = Symmetry::ALL.iter().map(|&s| transform(pos, s)).collect();
    images.sort_unstable();
    images.dedup();
    images
}

/// The number of distinct images of `pos` (1, 2, 4 or 8).
pub fn orbit_size(pos: Position) -> usize {
    images_of(pos).len()
}
