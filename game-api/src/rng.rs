//! The project's one seeded random number generator, xorshift64* (Vigna,
//! 2016): Toppo deals and its bots draw with it, Topolo's players and
//! searches play out with it, and tests and benchmarks sample positions
//! with it. It is written here, not taken from a crate, because a seed
//! must give the same sequence on every machine and in every version: a
//! Toppo game is replayed from its seed and its actions, and a benchmark's
//! sample is only comparable across builds if it is the same sample. Not
//! for cryptography.

/// The generator's state; any seed is valid.
///
/// # Examples
///
/// ```
/// use topitop_game_api::rng::Rng;
///
/// // One seed, one sequence, on every machine and in every version.
/// let (mut a, mut b) = (Rng::new(42), Rng::new(42));
/// assert_eq!(a.next_u64(), b.next_u64());
/// let roll = a.below(6);
/// assert!(roll < 6);
/// let mut cards = [1, 2, 3, 4, 5];
/// b.shuffle(&mut cards);
/// cards.sort();
/// assert_eq!(cards, [1, 2, 3, 4, 5]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed` (any value): the seed is mixed so that
    /// nearby seeds start far apart, and made odd so that the state is
    /// never the all-zero one xorshift cannot leave.
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03 | 1)
    }

    /// A seed from the clock (nanoseconds since 1970), for a game no seed
    /// was given: a different one each run, and one to print for a replay.
    pub fn clock_seed() -> u64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n` (`n` > 0), by scaling rather than a remainder
    /// (no division, and the high bits, xorshift's best). Below 2³² only
    /// the top 32 bits are scaled, as Toppo's saved games were dealt;
    /// larger ranges (a tier's indices) use all 64.
    pub fn below(&mut self, n: u64) -> u64 {
        let x = self.next_u64();
        if n <= 1 << 32 {
            ((x >> 32) * n) >> 32
        } else {
            ((u128::from(x) * u128::from(n)) >> 64) as u64
        }
    }

    /// An index into a slice of `len` items (`len` > 0).
    pub fn index(&mut self, len: usize) -> usize {
        self.below(len as u64) as usize
    }

    /// A number in [0, 1), with the 53 bits a `f64` holds.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A normal deviate (mean 0, deviation 1), by Box and Muller.
    pub fn normal(&mut self) -> f64 {
        let u = self.unit().max(1e-12);
        let v = self.unit();
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }

    /// `items` in a random order (Fisher and Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.index(i + 1);
            items.swap(i, j);
        }
    }
}
