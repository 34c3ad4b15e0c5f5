//! Values being solved, two bits each, written once from many threads.

use std::sync::atomic::{AtomicU64, Ordering};

/// A win for the player to move, as a database of values stores it.
pub const WIN: u8 = 0;
/// A loss for the player to move.
pub const LOSE: u8 = 1;
/// A tie: neither player can force a win.
pub const TIE: u8 = 2;

/// `n` values of two bits, all [`WIN`] (0) until written; each value is
/// written at most once, so that writers never undo each other.
pub struct Values {
    words: Vec<AtomicU64>,
    len: u64,
}

impl Values {
    /// `n` values.
    pub fn new(n: u64) -> Values {
        Values {
            words: (0..n.div_ceil(32)).map(|_| AtomicU64::new(0)).collect(),
            len: n,
        }
    }

    /// How many.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Value `i`.
    pub fn get(&self, i: u64) -> u8 {
        (self.words[(i / 32) as usize].load(Ordering::Relaxed) >> (2 * (i % 32)) & 3) as u8
    }

    /// Writes `vals` from `start` on.
    pub fn put_run(&self, start: u64, vals: &[u8]) {
        let mut i = start;
        let mut k = 0;
        while k < vals.len() {
            let word = (i / 32) as usize;
            let mut bits = 0u64;
            let first = i % 32;
            let n = ((32 - first) as usize).min(vals.len() - k);
            for (j, &v) in vals[k..k + n].iter().enumerate() {
                bits |= u64::from(v & 3) << (2 * (first + j as u64));
            }
            self.words[word].fetch_or(bits, Ordering::Relaxed);
            k += n;
            i += n as u64;
        }
    }

    /// Values `start..start + n`, one a byte.
    pub fn run(&self, start: u64, n: u64) -> Vec<u8> {
        (start..start + n).map(|i| self.get(i)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_written_from_anywhere_read_back() {
        let v = Values::new(1000);
        v.put_run(3, &[1, 2, 1, 0, 2]);
        v.put_run(30, &(0..70).map(|i| (i % 3) as u8).collect::<Vec<_>>());
        assert_eq!(v.run(0, 9), [0, 0, 0, 1, 2, 1, 0, 2, 0]);
        assert_eq!(v.run(30, 70), (0..70).map(|i| (i % 3) as u8).collect::<Vec<_>>());
        assert_eq!(v.get(999), 0);
    }
}
