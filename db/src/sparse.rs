//! Tiers whose indices mostly name no position a database keeps (with
//! symmetry, Topple keeps about one index in ten): a bitmap of the indices
//! kept, with running counts so that an index's place among them is found
//! in a few steps, and the kept indices' records side by side. The solver
//! numbers a loopy tier's positions this way while it solves it and holds
//! a solved tier this way while its parents read it, and `verify` holds a
//! database's tiers this way: two bytes a position and about a seventh of
//! a byte an index, rather than two bytes an index.

use rayon::prelude::*;
use topitop_game_api::Record;

/// Words of the bitmap between two running counts: 512 indices.
const WORDS: usize = 8;

/// A set of indices below a bound, each with its rank: how many of the set
/// are below it.
#[derive(Clone, Debug, Default)]
pub struct Ranked {
    len: u64,
    bits: Vec<u64>,
    /// Members below each run of [`WORDS`] words.
    before: Vec<u64>,
}

impl Ranked {
    /// The set of `len` possible indices whose bitmap is `bits` (bit `i %
    /// 64` of word `i / 64`; bits at or past `len` clear).
    pub fn from_bits(len: u64, bits: Vec<u64>) -> Ranked {
        debug_assert_eq!(bits.len() as u64, len.div_ceil(64));
        let counts: Vec<u64> = bits
            .par_chunks(WORDS)
            .map(|w| w.iter().map(|x| u64::from(x.count_ones())).sum())
            .collect();
        let mut sum = 0;
        let before = counts
            .iter()
            .map(|&c| {
                sum += c;
                sum - c
            })
            .collect();
        Ranked { len, bits, before }
    }

    /// Indices it could hold: `0..len`.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// True when it could hold no index.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How many indices it holds.
    pub fn ones(&self) -> u64 {
        let last = self.before.last().copied().unwrap_or(0);
        let tail = self
            .bits
            .chunks(WORDS)
            .last()
            .map_or(0, |w| w.iter().map(|x| u64::from(x.count_ones())).sum::<u64>());
        last + tail
    }

    /// The rank of `i` if the set holds it.
    #[inline]
    pub fn rank(&self, i: u64) -> Option<u64> {
        if i >= self.len {
            return None;
        }
        let w = (i / 64) as usize;
        let bit = 1u64 << (i % 64);
        let word = self.bits[w];
        if word & bit == 0 {
            return None;
        }
        let first = w - w % WORDS;
        let mut r = self.before[w / WORDS] + u64::from((word & (bit - 1)).count_ones());
        for x in &self.bits[first..w] {
            r += u64::from(x.count_ones());
        }
        Some(r)
    }

    /// The indices it holds, in order.
    pub fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        self.bits.iter().enumerate().flat_map(|(w, &word)| {
            let mut left = word;
            std::iter::from_fn(move || {
                (left != 0).then(|| {
                    let b = left.trailing_zeros();
                    left &= left - 1;
                    w as u64 * 64 + u64::from(b)
                })
            })
        })
    }
}

/// A tier's records, kept only for the indices that hold one.
pub struct SparseTier {
    kept: Ranked,
    records: Vec<Record>,
}

impl SparseTier {
    /// The tier whose kept indices are `kept` and their records, in order,
    /// `records`.
    pub fn new(kept: Ranked, records: Vec<Record>) -> SparseTier {
        debug_assert_eq!(kept.ones(), records.len() as u64);
        SparseTier { kept, records }
    }

    /// The tier whose records by index are `dense`: those not
    /// [`Record::UNSOLVED`] are kept.
    pub fn from_dense(dense: &[Record]) -> SparseTier {
        let bits: Vec<u64> = dense
            .par_chunks(64)
            .map(|c| {
                c.iter()
                    .enumerate()
                    .filter(|(_, r)| r.is_solved())
                    .fold(0, |w, (b, _)| w | 1 << b)
            })
            .collect();
        let records = dense.iter().copied().filter(|r| r.is_solved()).collect();
        SparseTier::new(Ranked::from_bits(dense.len() as u64, bits), records)
    }

    /// Indices of the tier.
    pub fn len(&self) -> u64 {
        self.kept.len()
    }

    /// True for a tier of no index.
    pub fn is_empty(&self) -> bool {
        self.kept.len() == 0
    }

    /// The record at index `i` ([`Record::UNSOLVED`] where none is kept).
    #[inline]
    pub fn get(&self, i: u64) -> Record {
        self.kept
            .rank(i)
            .map_or(Record::UNSOLVED, |r| self.records[r as usize])
    }

    /// The records by index, [`Record::UNSOLVED`] where none is kept.
    pub fn to_dense(&self) -> Vec<Record> {
        let mut dense = vec![Record::UNSOLVED; self.kept.len() as usize];
        for (i, &r) in self.kept.iter().zip(&self.records) {
            dense[i as usize] = r;
        }
        dense
    }

    /// Bytes it holds.
    #[cfg(test)]
    fn bytes(&self) -> usize {
        8 * (self.kept.bits.len() + self.kept.before.len()) + 2 * self.records.len()
    }
}

#[cfg(test)]
mod tests {
    use topitop_game_api::Value;

    use super::*;

    #[test]
    fn ranks_count_the_members_below() {
        for len in [0u64, 1, 63, 64, 65, 511, 512, 513, 5000] {
            for step in [1u64, 2, 7, 64, 100] {
                let members: Vec<u64> = (0..len).filter(|i| (i * i + 3 * i) % step == 0).collect();
                let mut bits = vec![0u64; len.div_ceil(64) as usize];
                for &i in &members {
                    bits[(i / 64) as usize] |= 1 << (i % 64);
                }
                let set = Ranked::from_bits(len, bits);
                assert_eq!(set.ones(), members.len() as u64);
                assert_eq!(set.iter().collect::<Vec<_>>(), members);
                for i in 0..len + 2 {
                    assert_eq!(
                        set.rank(i),
                        members.iter().position(|&m| m == i).map(|r| r as u64)
                    );
                }
            }
        }
    }

    #[test]
    fn a_sparse_tier_gives_back_its_records() {
        let dense: Vec<Record> = (0..3000)
            .map(|i| match i % 7 {
                0 | 3 => Record::new(Value::Win, i % 40),
                5 => Record::new(Value::Draw, 0),
                _ => Record::UNSOLVED,
            })
            .collect();
        let s = SparseTier::from_dense(&dense);
        assert_eq!(s.to_dense(), dense);
        for (i, &r) in dense.iter().enumerate() {
            assert_eq!(s.get(i as u64), r);
        }
        assert_eq!(s.get(3000), Record::UNSOLVED);
        assert!(s.bytes() < dense.len());
    }
}
