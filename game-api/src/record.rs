//! A solved position: value and remoteness in 16 bits. Every game's
//! databases and solvers share these (Topitop's, whose files defined the
//! layout, included).

use std::fmt;

/// A position's value for the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Value {
    /// The player to move can force a win.
    Win,
    /// The other player can.
    Lose,
    /// Neither can, and the game ends in a tie.
    Tie,
    /// Neither can, and play goes on for ever under best play (or, in
    /// Topitop's v0, the side to move is stuck).
    Draw,
}

impl Value {
    /// The place of the value in a `[win, lose, tie, draw]` count, the order
    /// the solvers report and the database headers store.
    pub const fn index(self) -> usize {
        match self {
            Value::Win => 0,
            Value::Lose => 1,
            Value::Tie => 2,
            Value::Draw => 3,
        }
    }

    /// `win`, `lose`, `tie`, `draw`: GamesmanUni's words.
    pub const fn name(self) -> &'static str {
        match self {
            Value::Win => "win",
            Value::Lose => "lose",
            Value::Tie => "tie",
            Value::Draw => "draw",
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The largest remoteness a record holds.
pub const MAX_REMOTENESS: u16 = 0x0FFF;

/// Value and remoteness packed in 16 bits, as the databases store them:
/// bits 12..16 the value (0 none yet, 1 win, 2 lose, 3 tie, 4 draw), bits
/// 0..12 the remoteness. A draw has no remoteness (stored as 0).
///
/// # Examples
///
/// ```
/// use topitop_game_api::{Record, Value};
///
/// let r = Record::new(Value::Win, 3);
/// assert_eq!((r.value(), r.remoteness()), (Some(Value::Win), 3));
/// assert_eq!(r.bits(), 0x1003);
/// assert_eq!(Record::from_bits(0x1003), Some(r));
/// // Not solved yet: no value at all.
/// assert_eq!(Record::UNSOLVED.value(), None);
/// assert!(!Record::UNSOLVED.is_solved());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Record(u16);

impl Record {
    /// No value: not solved yet, or an index that names no position.
    pub const UNSOLVED: Record = Record(0);

    /// A record of `value` at `remoteness` (ignored for draws).
    ///
    /// # Panics
    /// A remoteness above [`MAX_REMOTENESS`]: no solve may store a wrong
    /// one.
    pub fn new(value: Value, remoteness: u16) -> Record {
        assert!(
            remoteness <= MAX_REMOTENESS,
            "remoteness {remoteness} does not fit a record"
        );
        let (code, r) = match value {
            Value::Win => (1, remoteness),
            Value::Lose => (2, remoteness),
            Value::Tie => (3, remoteness),
            Value::Draw => (4, 0),
        };
        Record(code << 12 | r)
    }

    /// The record with raw bits `bits`, if they are one.
    pub fn from_bits(bits: u16) -> Option<Record> {
        let v = bits >> 12;
        (v <= 4 && (v != 4 || bits & MAX_REMOTENESS == 0)).then_some(Record(bits))
    }

    /// The raw bits.
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// The value, or `None` while unsolved.
    pub const fn value(self) -> Option<Value> {
        match self.0 >> 12 {
            1 => Some(Value::Win),
            2 => Some(Value::Lose),
            3 => Some(Value::Tie),
            4 => Some(Value::Draw),
            _ => None,
        }
    }

    /// The place of the value in a `[win, lose, tie, draw, unsolved]`
    /// count ([`Value::index`], unsolved last), with no branch: a scan
    /// over records in no predictable order of values counts by it.
    pub const fn value_index(self) -> usize {
        // Values are stored 1..=4 in that order and unsolved as 0.
        ((self.0 >> 12) as usize + 4) % 5
    }

    /// The remoteness (0 for draws and unsolved records).
    pub const fn remoteness(self) -> u16 {
        self.0 & MAX_REMOTENESS
    }

    /// True once a value is set.
    pub const fn is_solved(self) -> bool {
        self.0 >> 12 != 0
    }
}

/// `win 7`, `draw`, `unsolved`.
impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.value() {
            None => f.write_str("unsolved"),
            Some(Value::Draw) => f.write_str("draw"),
            Some(v) => write!(f, "{v} {}", self.remoteness()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_their_bits() {
        for v in [Value::Win, Value::Lose, Value::Tie] {
            for r in [0, 1, 49, MAX_REMOTENESS] {
                let rec = Record::new(v, r);
                assert_eq!(rec.value(), Some(v));
                assert_eq!(rec.remoteness(), r);
                assert_eq!(Record::from_bits(rec.bits()), Some(rec));
            }
        }
        assert_eq!(Record::new(Value::Draw, 7).remoteness(), 0);
        assert_eq!(Record::from_bits(0x4001), None);
        assert_eq!(Record::from_bits(0x5000), None);
        assert_eq!(Record::UNSOLVED.value(), None);
    }

    #[test]
    fn value_index_places_every_record_as_value_index_does() {
        for bits in 0..=u16::MAX {
            if let Some(r) = Record::from_bits(bits) {
                assert_eq!(r.value_index(), r.value().map_or(4, Value::index), "{r}");
                assert_eq!(r.is_solved(), r.value().is_some());
            }
        }
    }

    #[test]
    #[should_panic(expected = "does not fit a record")]
    fn a_remoteness_too_large_is_refused() {
        let _ = Record::new(Value::Win, MAX_REMOTENESS + 1);
    }
}
