//! The shared ranker against brute-force enumeration, and past 64-bit
//! products.

use topitop_game_api::rank::{multinomial, rank, unrank};

/// Every arrangement of `counts` in increasing order, by brute force.
fn all(counts: &[u8]) -> Vec<Vec<u8>> {
    let n: usize = counts.iter().map(|&c| usize::from(c)).sum();
    let base = counts.len() as u64;
    let mut out = Vec::new();
    for code in 0..base.pow(n as u32) {
        let digits: Vec<u8> = (0..n)
            .rev()
            .map(|k| (code / base.pow(k as u32) % base) as u8)
            .collect();
        let mut seen = vec![0u8; counts.len()];
        digits.iter().for_each(|&d| seen[usize::from(d)] += 1);
        if seen == counts {
            out.push(digits);
        }
    }
    out
}

#[test]
fn ranks_count_the_arrangements_before_in_order() {
    for counts in [
        &[2u8, 1, 0, 1][..],
        &[1, 1, 1, 1],
        &[3, 0, 2],
        &[0, 4],
        &[2, 2, 2],
    ] {
        let every = all(counts);
        assert_eq!(every.len() as u64, multinomial(counts), "{counts:?}");
        for (i, digits) in every.iter().enumerate() {
            assert_eq!(rank(digits.iter().copied(), counts), i as u64, "{digits:?}");
            let mut back = vec![0u8; digits.len()];
            unrank(i as u64, counts, &mut back);
            assert_eq!(&back, digits);
        }
    }
}

#[test]
fn large_multisets_rank_past_64_bit_products() {
    // 25 cells of 7 digits: products pass 2^64 before the division.
    let counts = [10u8, 3, 2, 2, 3, 2, 3];
    let m = multinomial(&counts);
    assert!(m > 1 << 50 && m < u64::MAX);
    for index in [0, 1, m / 3, m / 2 + 12_345, m - 1] {
        let mut digits = [0u8; 25];
        unrank(index, &counts, &mut digits);
        assert_eq!(rank(digits, &counts), index);
    }
    assert_eq!(multinomial(&[30, 30, 30]), u64::MAX, "too many to count");
}
