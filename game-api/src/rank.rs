//! The dense numbering of a multiset's arrangements, in lexicographic
//! order: how a game indexes the boards of one piece composition (a tier
//! holding so many pieces of each kind). An arrangement is a sequence of
//! digits, its multiset given as counts (`counts[d]` digits `d`, at most
//! 32 digit values); earlier places are more significant and smaller
//! digits come first.
//!
//! One function for every game because the numbers are stored: a database
//! file keeps its positions in this order, so a numbering that drifted
//! apart between two copies would make files written by one answer wrongly
//! when read through the other. A game may add faster paths for its own
//! board (Topitop ranks a whole board from packed counts); they must agree
//! with these, and their tests check that they do.

/// `total · num / den`, exact when `den` divides the product: in 64 bits
/// when the product fits (the common case, and much the faster), else in
/// 128 (boards of up to 25 cells); `None` when the quotient does not fit.
#[inline]
fn scale(total: u64, num: u64, den: u64) -> Option<u64> {
    match total.checked_mul(num) {
        Some(p) => Some(p / den),
        None => u64::try_from(u128::from(total) * u128::from(num) / u128::from(den)).ok(),
    }
}

/// The number of distinct arrangements of `counts` (n! / ∏ cᵢ!), or
/// `u64::MAX` when it does not fit.
pub fn multinomial(counts: &[u8]) -> u64 {
    let mut n = 0;
    let mut total = 1;
    for &k in counts {
        for i in 1..=u64::from(k) {
            n += 1;
            // Each step is a multinomial of fewer digits, so the totals
            // only grow: once past 64 bits, the answer is too.
            let Some(t) = scale(total, n, i) else {
                return u64::MAX;
            };
            total = t;
        }
    }
    total
}

/// The rank of `digits` among the arrangements of `counts`, its own
/// multiset: the arrangements starting with a smaller digit than the
/// first, then recursively on the rest.
pub fn rank(digits: impl IntoIterator<Item = u8>, counts: &[u8]) -> u64 {
    let mut m = [0u8; 32];
    let m = &mut m[..counts.len()];
    m.copy_from_slice(counts);
    let mut left: u64 = m.iter().map(|&c| u64::from(c)).sum();
    let mut total = multinomial(m);
    let mut r = 0;
    for d in digits {
        let d = usize::from(d);
        let below: u64 = m[..d].iter().map(|&c| u64::from(c)).sum();
        r += scale(total, below, left).unwrap_or(0);
        total = scale(total, u64::from(m[d]), left).unwrap_or(0);
        m[d] = m[d].saturating_sub(1);
        left -= 1;
    }
    r
}

/// Writes into `out` the arrangement of `counts` whose [`rank`] is
/// `index`; `out.len()` is the total count and `index` is below the
/// [`multinomial`].
pub fn unrank(mut index: u64, counts: &[u8], out: &mut [u8]) {
    let mut m = [0u8; 32];
    let m = &mut m[..counts.len()];
    m.copy_from_slice(counts);
    let mut left = out.len() as u64;
    let mut total = multinomial(m);
    for slot in out.iter_mut() {
        for (d, c) in m.iter_mut().enumerate() {
            let with_d = scale(total, u64::from(*c), left).unwrap_or(0);
            if index < with_d {
                *slot = d as u8;
                total = with_d;
                *c -= 1;
                break;
            }
            index -= with_d;
        }
        left -= 1;
    }
}
