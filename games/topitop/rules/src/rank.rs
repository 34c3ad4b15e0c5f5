//! Fast paths of the shared ranker ([`topitop_game_api::rank`]) for a
//! whole nine-cell board, whose counts fit 4-bit fields of one integer.
//!
//! Both the GamesmanClassic tier hash and our dense index number the boards
//! of one piece composition by their lexicographic rank among all
//! arrangements of that composition, earlier cells most significant and
//! cells ordered by their codes. The index ranks every child of every
//! position of a solve, so it cannot afford the general ranker's loop and
//! divisions; these give the same numbers (tests/rank.rs checks every
//! arrangement of several compositions against it).

/// `FACT[n] = n!` for n up to 9.
pub(crate) const FACT: [u64; 10] = [1, 1, 2, 6, 24, 120, 720, 5040, 40320, 362_880];

/// `ceil(2^40 / n)`: dividing by n ≤ 9 becomes a multiply and a shift,
/// exact for every dividend below 2^36 (the largest here is 9 · 9!).
const MAGIC: [u64; 10] = {
    let mut m = [0u64; 10];
    let mut n = 1;
    while n < 10 {
        m[n] = (1u64 << 40).div_ceil(n as u64);
        n += 1;
    }
    m
};

#[inline(always)]
fn div_small(x: u64, n: u64) -> u64 {
    (x * MAGIC[n as usize]) >> 40
}

/// [`rank`](topitop_game_api::rank::rank) with the counts packed in 4-bit fields (symbol s at
/// bits 4s..4s+4), their total `n` and their multinomial `m` given.
#[inline]
pub fn rank_packed(cells: impl IntoIterator<Item = u8>, mut packed: u64, mut n: u64, mut m: u64) -> u64 {
    let mut r = 0;
    for c in cells {
        let c = c as u32;
        // Fields below c, summed into the top field by the multiply; the
        // total is at most 9, so no field overflows.
        let below = packed & ((1u64 << (4 * c)) - 1);
        let less = (below.wrapping_mul(0x1111_1111_1111_1111) >> 60) & 15;
        r += div_small(m * less, n);
        m = div_small(m * ((packed >> (4 * c)) & 15), n);
        packed -= 1 << (4 * c);
        n -= 1;
    }
    r
}

/// `RANK_LAST4[v]`: the rank of the four cells packed in the 16 bits `v`
/// (first cell in the top nibble) among the arrangements of their own
/// multiset. Nibbles that are not cell codes get 0, never read.
static RANK_LAST4: [u8; 1 << 16] = {
    let mut t = [0u8; 1 << 16];
    let mut v = 0;
    while v < 1 << 16 {
        let cells = [(v >> 12) & 15, (v >> 8) & 15, (v >> 4) & 15, v & 15];
        if cells[0] < 10 && cells[1] < 10 && cells[2] < 10 && cells[3] < 10 {
            // Arrangements before this one: for each cell, the smaller
            // symbols among it and the cells after it, each placed there
            // with the rest arranged in every distinct way.
            let mut r = 0;
            let mut i = 0;
            while i < 4 {
                let mut s = 0;
                while s < cells[i] {
                    let mut rest = [0u8; 10];
                    let mut j = i;
                    let mut present = false;
                    while j < 4 {
                        rest[cells[j]] += 1;
                        j += 1;
                    }
                    if rest[s] > 0 {
                        rest[s] -= 1;
                        present = true;
                    }
                    if present {
                        let mut n = 0;
                        let mut k = 0;
                        while k < 10 {
                            n += rest[k] as usize;
                            k += 1;
                        }
                        let mut m = FACT[n];
                        k = 0;
                        while k < 10 {
                            m /= FACT[rest[k] as usize];
                            k += 1;
                        }
                        r += m;
                    }
                    s += 1;
                }
                i += 1;
            }
            t[v] = r as u8;
        }
        v += 1;
    }
    t
};

/// [`rank_packed`] for a whole board: its nine cell codes packed in the 36
/// bits `board` (cell 0 in the top nibble), their counts `packed` and
/// multinomial `m`.
///
/// The hottest function of a solve (every child of every position is
/// ranked), so it avoids the nine-step chain of [`rank_packed`]. The last
/// four cells' share of the rank depends on them alone and comes from a
/// table. Cell i < 5 adds `m_i · less_i / (9 − i)`, where `m_i`, the
/// arrangements of the cells from i on, is `m · c_0 ⋯ c_{i−1} · (9 − i)! / 9!`
/// (`c_j`: how many cells from j on hold cell j's code); so the five shares
/// are `m / 9!` times a sum of small products, one multiplication by `m`
/// and one exact division by a constant.
#[inline]
pub fn rank_board(board: u64, packed: u64, m: u64) -> u64 {
    let cell = |i: u32| (board >> (4 * (8 - i))) & 15;
    // Suffix counts: what is left from cell i on.
    let p0 = packed;
    let p1 = p0 - (1 << (4 * cell(0)));
    let p2 = p1 - (1 << (4 * cell(1)));
    let p3 = p2 - (1 << (4 * cell(2)));
    let p4 = p3 - (1 << (4 * cell(3)));
    // Occurrences of cell i's code from cell i on, and of smaller codes.
    let count = |p: u64, i: u32| (p >> (4 * cell(i))) & 15;
    let less = |p: u64, i: u32| {
        let below = p & ((1u64 << (4 * cell(i))) - 1);
        (below.wrapping_mul(0x1111_1111_1111_1111) >> 60) & 15
    };
    let c01 = count(p0, 0) * count(p1, 1);
    let c012 = c01 * count(p2, 2);
    let c0123 = c01 * (count(p2, 2) * count(p3, 3));
    let sum = less(p0, 0) * FACT[8]
        + count(p0, 0) * less(p1, 1) * FACT[7]
        + c01 * less(p2, 2) * FACT[6]
        + c012 * less(p3, 3) * FACT[5]
        + c0123 * less(p4, 4) * FACT[4];
    // m < 2^19 and sum < 2^34: the product fits, and 9! divides it.
    m * sum / FACT[9] + u64::from(RANK_LAST4[(board & 0xFFFF) as usize])
}
