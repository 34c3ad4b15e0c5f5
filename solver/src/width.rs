//! The numbers a loopy tier's solve keeps by the billion: a position's
//! number among the tier's positions, and an offset into the array of
//! moves inside the tier. Both are 32 bits where the tier allows, which
//! halves those arrays on every board this machine holds, and 64 bits in
//! a tier of 2³² positions or inside moves or more.

use std::fmt::Debug;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

/// `u32` or `u64`, with its atomic.
pub(crate) trait Num: Copy + Send + Sync + Eq + Ord + Debug + 'static {
    /// The atomic of the same width.
    type Atomic: Send + Sync;
    /// `x`, if it fits.
    fn from_u64(x: u64) -> Option<Self>;
    /// As an index into a slice (the tier's arrays are in memory, so it
    /// fits a `usize`).
    fn at(self) -> usize;
    /// As a `u64`.
    fn wide(self) -> u64;
    /// `self + x`; the caller knows it fits.
    fn plus(self, x: Self) -> Self;
    /// A new atomic holding `x`.
    fn atomic(x: Self) -> Self::Atomic;
    /// Adds one to `a`.
    fn bump(a: &Self::Atomic);
    /// Takes one from `a`; returns what it held before.
    fn take_one(a: &Self::Atomic) -> Self;
    /// Stores `x` in `a`.
    fn put(a: &Self::Atomic, x: Self);
    /// What `a` holds, through a unique borrow.
    fn get_mut(a: &mut Self::Atomic) -> &mut Self;
    /// What `a` holds, taken out.
    fn into_inner(a: Self::Atomic) -> Self;
}

macro_rules! num {
    ($t:ty, $a:ty) => {
        impl Num for $t {
            type Atomic = $a;
            fn from_u64(x: u64) -> Option<$t> {
                <$t>::try_from(x).ok()
            }
            #[allow(clippy::cast_possible_truncation)]
            fn at(self) -> usize {
                self as usize
            }
            fn wide(self) -> u64 {
                u64::from(self)
            }
            fn plus(self, x: $t) -> $t {
                self + x
            }
            fn atomic(x: $t) -> $a {
                <$a>::new(x)
            }
            fn bump(a: &$a) {
                a.fetch_add(1, Relaxed);
            }
            fn take_one(a: &$a) -> $t {
                a.fetch_sub(1, Relaxed)
            }
            fn put(a: &$a, x: $t) {
                a.store(x, Relaxed);
            }
            fn get_mut(a: &mut $a) -> &mut $t {
                a.get_mut()
            }
            fn into_inner(a: $a) -> $t {
                a.into_inner()
            }
        }
    };
}

num!(u32, AtomicU32);
num!(u64, AtomicU64);

/// True when `n` things are numbered in 64 bits: 2³² or more.
pub(crate) fn needs_wide(n: u64) -> bool {
    n > u64::from(u32::MAX)
}

/// Bytes of a number of `n` things: 4, or 8 from 2³² on.
pub(crate) fn bytes_for(n: f64) -> f64 {
    if n > f64::from(u32::MAX) {
        8.0
    } else {
        4.0
    }
}
