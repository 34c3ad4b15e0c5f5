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

/// The lexicographic rank of the sequence `cells` (codes 0..10) among the
/// arrangements of its own multiset, whose counts are `counts`.
///
/// Uses that the arrangements starting with symbol `s` number
/// `m · counts[s] / n`, so the ones before symbol `c` number
/// `m · (counts below c) / n`.
#[inline]
pub fn rank(cells: impl IntoIterator<Item = u8>, mut counts: [u8; 10]) -> u64 {
    let mut n: u64 = counts.iter().map(|&c| c as u64).sum();
    let mut m = multinomial(&counts);
    let mut r = 0;
    for c in cells {
        let c = c as usize;
        let less: u64 = counts[..c].iter().map(|&x| x as u64).sum();
        r += m * less / n;
        m = m * counts[c] as u64 / n;
        counts[c] -= 1;
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
