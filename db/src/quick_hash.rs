//! A hasher for maps looked up once a child position (the solver's and
//! `verify`'s maps of tiers): a game's tiers are a few small integers, and
//! std's default (SipHash, built to withstand chosen keys) cost a few
//! percent of a Topple solve. Keys here come from a game, not from a user.

use std::hash::{BuildHasherDefault, Hasher};

/// Rotates and multiplies each word in (the constant is 2⁶⁴ over the golden ratio,
/// odd): a few cycles a key.
#[derive(Default, Clone, Copy)]
pub struct QuickHasher(u64);

const K: u64 = 0x9e37_79b9_7f4a_7c15;

impl Hasher for QuickHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(w));
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.write_u64(u64::from(i));
    }

    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.write_u64(u64::from(i));
    }

    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.write_u64(u64::from(i));
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(K);
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        // The high bits are the well mixed ones; hashbrown takes its
        // control byte from the top and its bucket from the bottom.
        self.0 ^ (self.0 >> 29)
    }
}

/// A `HashMap` keyed through [`QuickHasher`].
pub type QuickMap<K, V> = std::collections::HashMap<K, V, BuildHasherDefault<QuickHasher>>;
