//! One solved position: value and remoteness in 16 bits.

use std::fmt;

use topitop_game::Value;

/// Value and remoteness packed in 16 bits: bits 12..16 the value (0 none
/// yet, 1 win, 2 lose, 3 tie, 4 draw), bits 0..12 the remoteness.
/// A draw has no remoteness (stored as 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Record(u16);

/// The largest remoteness a record holds.
pub const MAX_REMOTENESS: u16 = 0x0FFF;

impl Record {
    /// No value yet.
    pub const UNSOLVED: Record = Record(0);

    /// A record of `value` at `remoteness` (ignored for draws).
    ///
    /// # Panics
    /// A remoteness above [`MAX_REMOTENESS`].
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
        let r = Record(bits);
        (bits >> 12 <= 4 && (bits >> 12 != 4 || bits & MAX_REMOTENESS == 0)).then_some(r)
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
    fn value_index_places_every_record_as_value_index_does() {
        for bits in 0..=u16::MAX {
            if let Some(r) = Record::from_bits(bits) {
                assert_eq!(r.value_index(), r.value().map_or(4, Value::index), "{r}");
            }
        }
    }
}
