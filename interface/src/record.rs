//! A solved position: value and remoteness in 16 bits.

/// A position's value for the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Value {
    /// The player to move can force a win.
    Win,
    /// The other player can.
    Lose,
    /// Neither can, and the game ends in a tie.
    Tie,
    /// Neither can, and the game never ends.
    Draw,
}

impl Value {
    /// `win`, `lose`, `tie`, `draw`: GamesmanUni's words.
    pub fn name(self) -> &'static str {
        match self {
            Value::Win => "win",
            Value::Lose => "lose",
            Value::Tie => "tie",
            Value::Draw => "draw",
        }
    }
}

/// The largest remoteness a record holds.
pub const MAX_REMOTENESS: u16 = 0x0FFF;

/// Value and remoteness packed in 16 bits, as Topitop's databases store
/// them: bits 12..16 the value (0 none, 1 win, 2 lose, 3 tie, 4 draw),
/// bits 0..12 the remoteness (0 for a draw).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Record(u16);

impl Record {
    /// No value: an index that names no position, or not solved yet.
    pub const NONE: Record = Record(0);

    /// `value` at `remoteness` (capped at [`MAX_REMOTENESS`]; 0 for draws).
    pub fn new(value: Value, remoteness: u16) -> Record {
        let r = remoteness.min(MAX_REMOTENESS);
        Record(match value {
            Value::Win => 1 << 12 | r,
            Value::Lose => 2 << 12 | r,
            Value::Tie => 3 << 12 | r,
            Value::Draw => 4 << 12,
        })
    }

    /// The record of raw `bits`, if they are one.
    pub fn from_bits(bits: u16) -> Option<Record> {
        let v = bits >> 12;
        (v <= 4 && (v != 4 || bits & MAX_REMOTENESS == 0)).then_some(Record(bits))
    }

    /// The raw bits.
    pub fn bits(self) -> u16 {
        self.0
    }

    /// The value, or `None` for [`Record::NONE`].
    pub fn value(self) -> Option<Value> {
        match self.0 >> 12 {
            1 => Some(Value::Win),
            2 => Some(Value::Lose),
            3 => Some(Value::Tie),
            4 => Some(Value::Draw),
            _ => None,
        }
    }

    /// The remoteness.
    pub fn remoteness(self) -> u16 {
        self.0 & MAX_REMOTENESS
    }
}

impl std::fmt::Display for Record {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.value() {
            None => write!(f, "none"),
            Some(Value::Draw) => write!(f, "draw"),
            Some(v) => write!(f, "{} {}", v.name(), self.remoteness()),
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
        assert_eq!(Record::NONE.value(), None);
    }
}
