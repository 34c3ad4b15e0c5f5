//! How many pieces of each kind exist.

use std::fmt;
use std::str::FromStr;

use crate::error::BudgetError;

/// The number of pieces of each kind in the box.
///
/// The standard game has 2 blue buckets, 2 red buckets, 4 small and 4 large
/// sand piles. Smaller budgets give small games that tests can solve
/// exhaustively.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Budget {
    blue_buckets: u8,
    red_buckets: u8,
    smalls: u8,
    larges: u8,
}

impl Budget {
    /// The standard game: 2 / 2 / 4 / 4.
    pub const STANDARD: Budget = Budget {
        blue_buckets: 2,
        red_buckets: 2,
        smalls: 4,
        larges: 4,
    };

    /// A budget of `blue` blue buckets, `red` red buckets, `smalls` small and
    /// `larges` large piles.
    ///
    /// # Errors
    /// A count above 9 (a 3×3 board cannot hold more of one kind).
    pub fn new(blue: u8, red: u8, smalls: u8, larges: u8) -> Result<Budget, BudgetError> {
        for (kind, n) in [
            ("blue buckets", blue),
            ("red buckets", red),
            ("small piles", smalls),
            ("large piles", larges),
        ] {
            if n > 9 {
                return Err(BudgetError::TooMany { kind, count: n });
            }
        }
        Ok(Budget {
            blue_buckets: blue,
            red_buckets: red,
            smalls,
            larges,
        })
    }

    /// The counts as (blue buckets, red buckets, smalls, larges).
    #[inline]
    pub const fn counts(self) -> [u8; 4] {
        [self.blue_buckets, self.red_buckets, self.smalls, self.larges]
    }

    /// Blue buckets in the box.
    pub const fn blue_buckets(self) -> u8 {
        self.blue_buckets
    }

    /// Red buckets in the box.
    pub const fn red_buckets(self) -> u8 {
        self.red_buckets
    }

    /// Small sand piles in the box.
    pub const fn smalls(self) -> u8 {
        self.smalls
    }

    /// Large sand piles in the box.
    pub const fn larges(self) -> u8 {
        self.larges
    }

    /// True for the standard 2/2/4/4 budget.
    pub fn is_standard(self) -> bool {
        self == Budget::STANDARD
    }
}

impl Default for Budget {
    fn default() -> Self {
        Budget::STANDARD
    }
}

/// Written `B/R/S/L`, e.g. `2/2/4/4`.
impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}/{}/{}/{}",
            self.blue_buckets, self.red_buckets, self.smalls, self.larges
        )
    }
}

impl FromStr for Budget {
    type Err = BudgetError;

    /// Parses `B/R/S/L`, e.g. `1/1/2/2`.
    fn from_str(s: &str) -> Result<Budget, BudgetError> {
        let parts: Vec<&str> = s.split('/').collect();
        if parts.len() != 4 {
            return Err(BudgetError::Syntax(s.to_string()));
        }
        let mut n = [0u8; 4];
        for (slot, part) in n.iter_mut().zip(&parts) {
            *slot = part
                .trim()
                .parse()
                .map_err(|_| BudgetError::Syntax(s.to_string()))?;
        }
        Budget::new(n[0], n[1], n[2], n[3])
    }
}
