//! The 3×3 grid: cells, neighbours, and the 40 ordered slides with
//! GamesmanClassic's slide ids.

use std::fmt;

/// Number of cells on the board.
pub const CELLS: usize = 9;

/// Number of ordered slides (ordered pairs of 8-neighbouring cells).
pub const SLIDE_COUNT: usize = 40;

/// Each cell's 8-neighbours in ascending order (0-based cells).
pub const NEIGHBOURS: [&[u8]; CELLS] = [
    &[1, 3, 4],
    &[0, 2, 3, 4, 5],
    &[1, 4, 5],
    &[0, 1, 4, 6, 7],
    &[0, 1, 2, 3, 5, 6, 7, 8],
    &[1, 2, 4, 7, 8],
    &[3, 4, 7],
    &[3, 4, 5, 6, 8],
    &[4, 5, 7],
];

/// True when cells `a` and `b` (0-based) are 8-neighbours.
#[inline]
pub fn adjacent(a: usize, b: usize) -> bool {
    a < CELLS && b < CELLS && SLIDE_IDS[a][b] != 0
}

/// `SLIDE_IDS[from][to]`: the slide id 1..=40, or 0 when not adjacent.
/// Ids number the ordered pairs in lexicographic order, as upstream does.
pub(crate) const SLIDE_IDS: [[u8; CELLS]; CELLS] = build_slide_ids();

/// `SLIDES[id]`: (from, to) of slide id 1..=40; entry 0 is unused.
pub(crate) const SLIDES: [(u8, u8); SLIDE_COUNT + 1] = build_slides();

const fn build_slide_ids() -> [[u8; CELLS]; CELLS] {
    let mut ids = [[0u8; CELLS]; CELLS];
    let mut next = 1u8;
    let mut from = 0;
    while from < CELLS {
        let n = NEIGHBOURS[from];
        let mut j = 0;
        while j < n.len() {
            ids[from][n[j] as usize] = next;
            next += 1;
            j += 1;
        }
        from += 1;
    }
    ids
}

const fn build_slides() -> [(u8, u8); SLIDE_COUNT + 1] {
    let mut slides = [(0u8, 0u8); SLIDE_COUNT + 1];
    let mut from = 0;
    while from < CELLS {
        let mut to = 0;
        while to < CELLS {
            let id = SLIDE_IDS[from][to];
            if id != 0 {
                slides[id as usize] = (from as u8, to as u8);
            }
            to += 1;
        }
        from += 1;
    }
    slides
}

/// A slide between neighbouring cells, named by GamesmanClassic's id 1..=40.
///
/// Used for the no-undo restriction: the slide the side to move may not play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Slide(u8);

impl Slide {
    /// The slide `from → to` (0-based cells), if the cells are neighbours.
    #[inline]
    pub fn new(from: usize, to: usize) -> Option<Slide> {
        if adjacent(from, to) {
            Some(Slide(SLIDE_IDS[from][to]))
        } else {
            None
        }
    }

    /// The slide with GamesmanClassic id `id` (1..=40).
    #[inline]
    pub const fn from_id(id: u8) -> Option<Slide> {
        if id >= 1 && id as usize <= SLIDE_COUNT {
            Some(Slide(id))
        } else {
            None
        }
    }

    /// GamesmanClassic's id, 1..=40.
    #[inline]
    pub const fn id(self) -> u8 {
        self.0
    }

    /// The source cell (0-based).
    #[inline]
    pub const fn from(self) -> usize {
        SLIDES[self.0 as usize].0 as usize
    }

    /// The destination cell (0-based).
    #[inline]
    pub const fn to(self) -> usize {
        SLIDES[self.0 as usize].1 as usize
    }

    /// The slide in the other direction.
    #[inline]
    pub const fn reversed(self) -> Slide {
        let (f, t) = SLIDES[self.0 as usize];
        Slide(SLIDE_IDS[t as usize][f as usize])
    }

    /// Every slide in id order.
    pub fn all() -> impl Iterator<Item = Slide> {
        (1..=SLIDE_COUNT as u8).map(Slide)
    }
}

/// Written as GamesmanClassic prints it, 1-based: `4-5`.
impl fmt::Display for Slide {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from() + 1, self.to() + 1)
    }
}

/// The unordered neighbour pairs in GamesmanClassic's AutoGUI arrow order
/// (1-2, 1-4, 1-5, 2-3, ...): `(low, high)` 0-based.
pub fn neighbour_pairs() -> impl Iterator<Item = (usize, usize)> {
    (0..CELLS).flat_map(|a| {
        NEIGHBOURS[a]
            .iter()
            .map(move |&b| (a, b as usize))
            .filter(|&(a, b)| a < b)
    })
}
