//! Ranking arrangements of a multiset of cells (lexicographic order).
//!
//! Both the GamesmanClassic tier hash and our dense index number the boards
//! of one piece composition by their lexicographic rank among all
//! arrangements of that composition, earlier cells most significant and
//! cells ordered by their codes.

/// `FACT[n] = n!` for n up to 9.
pub(crate) const FACT: [u64; 10] = [1, 1, 2, 6, 24, 120, 720, 5040, 40320, 362_880];

/// The number of distinct arrangements of `counts` (indexed by cell code).
#[inline]
pub fn multinomial(counts: &[u8; 10]) -> u64 {
    let n: usize = counts.iter().map(|&c| c as usize).sum();
    debug_assert!(n <= 9);
    counts.iter().fold(FACT[n], |m, &c| m / FACT[c as usize])
}

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

/// The lexicographic rank of the sequence `cells` (codes 0..10) among the
/// arrangements of its own multiset, whose counts are `counts`.
///
/// Uses that the arrangements starting with symbol `s` number
/// `m · counts[s] / n`, so the ones before symbol `c` number
/// `m · (counts below c) / n`. The counts live in 4-bit fields of one
/// integer, so "counts below c" is a mask and a multiply.
#[inline]
pub fn rank(cells: impl IntoIterator<Item = u8>, counts: [u8; 10]) -> u64 {
    let mut packed = 0u64;
    let mut n = 0u64;
    for (s, &c) in counts.iter().enumerate() {
        packed |= (c as u64) << (4 * s);
        n += c as u64;
    }
    rank_packed(cells, packed, n, multinomial(&counts))
}

/// [`rank`] with the counts already packed in 4-bit fields (symbol s at
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

/// Writes into `out` the arrangement of `counts` with rank `r`; `out.len()`
/// must equal the total count and `r` must be below the multinomial.
#[inline]
pub fn unrank(mut r: u64, mut counts: [u8; 10], out: &mut [u8]) {
    let mut n = out.len() as u64;
    let mut m = multinomial(&counts);
    for slot in out.iter_mut() {
        for (s, count) in counts.iter_mut().enumerate() {
            if *count == 0 {
                continue;
            }
            let block = m * *count as u64 / n;
            if r < block {
                *slot = s as u8;
                m = block;
                *count -= 1;
                break;
            }
            r -= block;
        }
        n -= 1;
    }
}
